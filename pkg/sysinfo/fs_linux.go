package sysinfo

import "golang.org/x/sys/unix"

// filesystem magic numbers from statfs(2).
var fsNames = map[int64]string{
	0xef53:     "ext4", // ext2/3/4 share the magic
	0x58465342: "xfs",
	0x9123683e: "btrfs",
	0x01021994: "tmpfs",
	0x6969:     "nfs",
	0x794c7630: "overlayfs",
	0x2fc12fc1: "zfs",
	0x65735546: "fuse",
	0x4d44:     "vfat",
	0x5346544e: "ntfs",
	0xf2f52010: "f2fs",
	0x858458f6: "ramfs",
	0x01021997: "9p",
	0x73717368: "squashfs",
	0xca451a4e: "bcachefs",
}

// Filesystem returns the type of the filesystem holding path, such as
// "ext4" or "tmpfs", or "unknown".
func Filesystem(path string) string {
	var st unix.Statfs_t
	if err := unix.Statfs(path, &st); err != nil {
		return "unknown"
	}
	if n, ok := fsNames[int64(st.Type)]; ok {
		return n
	}
	return "unknown"
}
