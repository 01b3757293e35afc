//go:build linux || darwin

package sysinfo

import "golang.org/x/sys/unix"

// kernel names the running kernel from uname: "Linux 6.1.0".
func kernel() string {
	var u unix.Utsname
	if unix.Uname(&u) != nil {
		return ""
	}
	return unix.ByteSliceToString(u.Sysname[:]) + " " + unix.ByteSliceToString(u.Release[:])
}
