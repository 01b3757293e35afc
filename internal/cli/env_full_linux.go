package cli

import "golang.org/x/sys/unix"

// alwaysFull reports whether the descriptor fd is Linux's full device (character device
// 1, 7: /dev/full, or a node of that number anywhere), to which every
// write fails "no space left on device": an output there would fail
// only once the run that produced it was over.
func alwaysFull(fd uintptr) bool {
	var st unix.Stat_t
	if err := unix.Fstat(int(fd), &st); err != nil || st.Mode&unix.S_IFMT != unix.S_IFCHR {
		return false
	}
	return unix.Major(st.Rdev) == 1 && unix.Minor(st.Rdev) == 7
}
