package sysinfo

import "golang.org/x/sys/unix"

// Filesystem returns the type of the filesystem holding path, such as
// "apfs", or "unknown".
func Filesystem(path string) string {
	var st unix.Statfs_t
	if err := unix.Statfs(path, &st); err != nil {
		return "unknown"
	}
	return unix.ByteSliceToString(st.Fstypename[:])
}
