package sysinfo

import (
	"path/filepath"
	"strings"

	"golang.org/x/sys/unix"
)

// ReadMachine reads the kernel (uname), the CPU model and the memory
// (sysctl). macOS has no scaling governor.
func ReadMachine() Machine {
	m := Machine{Kernel: kernel()}
	if s, err := unix.Sysctl("machdep.cpu.brand_string"); err == nil {
		m.CPUModel = strings.TrimSpace(s)
	}
	if n, err := unix.SysctlUint64("hw.memsize"); err == nil {
		m.MemoryBytes = int64(n)
	}
	return m
}

// MountOptions returns the flags of the mount holding path that matter to
// I/O, from statfs: "rw" or "ro", then nosuid, noexec, noatime, journaled.
func MountOptions(path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		return ""
	}
	var st unix.Statfs_t
	if unix.Statfs(abs, &st) != nil {
		return ""
	}
	opts := []string{"rw"}
	if st.Flags&unix.MNT_RDONLY != 0 {
		opts[0] = "ro"
	}
	for _, f := range []struct {
		bit  uint32
		name string
	}{{unix.MNT_NOSUID, "nosuid"}, {unix.MNT_NOEXEC, "noexec"}, {unix.MNT_NOATIME, "noatime"}, {unix.MNT_JOURNALED, "journaled"}} {
		if st.Flags&f.bit != 0 {
			opts = append(opts, f.name)
		}
	}
	return strings.Join(opts, ",")
}

// Mounts does not list the mounts on macOS: nothing gobench mounts there.
func Mounts() ([]Mount, error) { return nil, nil }
