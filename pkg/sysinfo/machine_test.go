package sysinfo

import (
	"runtime"
	"strings"
	"testing"
)

const mountinfo = `22 27 0:21 / /proc rw,relatime - proc proc rw
27 1 254:0 / / rw,relatime - ext4 /dev/vda rw,errors=remount-ro
25 24 0:23 / /dev/shm rw,relatime - tmpfs tmpfs rw,size=24684084k
40 27 0:30 / /data rw,noatime shared:12 - xfs /dev/vdb rw,attr2,inode64
41 40 0:31 / /data/my\040disk ro,nosuid master:3 - ext4 /dev/vdc ro,data=ordered
42 27 0:32 / /data rw,relatime - btrfs /dev/vdd rw,ssd
broken line
43 27 0:33 / /short - ext4
`

func TestMountOptions(t *testing.T) {
	t.Parallel()
	mounts := parseMountinfo(mountinfo)
	if len(mounts) != 6 {
		t.Fatalf("parsed %d mounts, want 6: %+v", len(mounts), mounts)
	}
	for _, m := range mounts {
		if m.point == "/dev/shm" && m.dev != "0:23" {
			t.Errorf("/dev/shm: device %q, want 0:23", m.dev)
		}
	}
	for _, tt := range []struct{ path, want string }{
		{"/tmp/gobench-1/gobench.db", "rw,relatime,errors=remount-ro"},
		{"/dev/shm/x", "rw,relatime,size=24684084k"},
		{"/dev/shmem", "rw,relatime,errors=remount-ro"}, // a prefix, not a parent
		{"/data/x.db", "rw,relatime,ssd"},               // the later mount over /data wins
		{"/data/my disk/x.db", "ro,nosuid,data=ordered"},
		{"/", "rw,relatime,errors=remount-ro"},
	} {
		if got := mountOptionsOf(mounts, tt.path); got != tt.want {
			t.Errorf("%s: %q, want %q", tt.path, got, tt.want)
		}
	}
}

func TestCPUModel(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ text, want string }{
		{"processor\t: 0\nvendor_id\t: AuthenticAMD\nmodel name\t: AMD EPYC 7B13\n", "AMD EPYC 7B13"},
		{"processor : 0\nBogoMIPS : 50.00\nModel : Raspberry Pi 4 Model B Rev 1.4\n", "Raspberry Pi 4 Model B Rev 1.4"},
		{"model name :\n", ""},
		{"", ""},
	} {
		if got := cpuModel(tt.text); got != tt.want {
			t.Errorf("cpuModel(%q) = %q, want %q", tt.text, got, tt.want)
		}
	}
}

// On the machines tests run on, the kernel and memory are known.
func TestReadMachine(t *testing.T) {
	t.Parallel()
	m := ReadMachine()
	if runtime.GOOS != "linux" && runtime.GOOS != "darwin" {
		t.Skip("no machine facts on " + runtime.GOOS)
	}
	if !strings.Contains(strings.ToLower(m.Kernel), runtime.GOOS) || m.MemoryBytes <= 0 {
		t.Errorf("%+v", m)
	}
	if opts := MountOptions(t.TempDir()); !strings.HasPrefix(opts, "rw") {
		t.Errorf("mount options of a writable directory: %q", opts)
	}
}

// FuzzParseMountinfo: any text parses without panic into mounts whose
// points are what the lines said.
func FuzzParseMountinfo(f *testing.F) {
	f.Add(mountinfo)
	f.Add(`1 2 3 / /a\0 rw - x y z`)
	f.Add(`1 2 3 / /a\777\12 rw - x y z`)
	f.Fuzz(func(t *testing.T, text string) {
		for _, m := range parseMountinfo(text) {
			_ = mountOptionsOf([]mount{m}, m.point)
		}
		_ = cpuModel(text)
	})
}

// A FUSE mount's type and source come back as the file system named
// itself (what finds a recorder's mount left behind).
func TestMountTypeAndSource(t *testing.T) {
	t.Parallel()
	ms := parseMountinfo("41 26 0:38 / /tmp/run\\040a/db rw,nosuid,nodev,relatime - fuse.gobench-rec gobench-rec:12510 rw,user_id=0,group_id=0\n")
	if len(ms) != 1 || ms[0].point != "/tmp/run a/db" || ms[0].fstype != "fuse.gobench-rec" || ms[0].source != "gobench-rec:12510" {
		t.Fatalf("parsed %+v", ms)
	}
}
