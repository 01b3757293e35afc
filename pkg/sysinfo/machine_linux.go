package sysinfo

import (
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/sys/unix"
)

// ReadMachine reads the kernel (uname), the CPU model (/proc/cpuinfo),
// cpu0's scaling governor (/sys/devices/system/cpu; absent in most VMs)
// and the total memory (sysinfo).
func ReadMachine() Machine {
	m := Machine{Kernel: kernel()}
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		m.CPUModel = cpuModel(string(b))
	}
	if b, err := os.ReadFile("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor"); err == nil {
		m.Governor = strings.TrimSpace(string(b))
	}
	var si unix.Sysinfo_t
	if unix.Sysinfo(&si) == nil {
		m.MemoryBytes = int64(si.Totalram) * int64(si.Unit)
	}
	return m
}

// MountOptions returns the options of the mount holding path, such as
// "rw,relatime,errors=remount-ro", from /proc/self/mountinfo; "" when
// unknown.
func MountOptions(path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		return ""
	}
	if r, err := filepath.EvalSymlinks(abs); err == nil {
		abs = r
	}
	b, err := os.ReadFile("/proc/self/mountinfo")
	if err != nil {
		return ""
	}
	return mountOptionsOf(parseMountinfo(string(b)), abs)
}

// Mounts lists the file systems mounted in this process's mount
// namespace, from /proc/self/mountinfo.
func Mounts() ([]Mount, error) {
	b, err := os.ReadFile("/proc/self/mountinfo")
	if err != nil {
		return nil, err
	}
	ms := parseMountinfo(string(b))
	out := make([]Mount, len(ms))
	for i, m := range ms {
		out[i] = Mount{Point: m.point, Type: m.fstype, Source: m.source, Dev: m.dev}
	}
	return out, nil
}
