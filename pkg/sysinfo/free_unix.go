//go:build linux || darwin

package sysinfo

import "golang.org/x/sys/unix"

// FreeBytes returns the bytes an unprivileged user may still write on the
// file system holding path, and false where the OS does not say: statfs
// fails, or the file system reports no blocks at all (a FUSE file system
// that implements no statfs, such as LazyFS, answers zeros), which is no
// "0 bytes free".
func FreeBytes(path string) (int64, bool) {
	var st unix.Statfs_t
	if err := unix.Statfs(path, &st); err != nil || st.Blocks == 0 {
		return 0, false
	}
	return int64(st.Bavail) * int64(st.Bsize), true
}
