//go:build linux || darwin

package sysinfo

import (
	"io/fs"
	"syscall"
)

// allocatedBytes is the space the file system gave the file: st_blocks
// counts 512-byte units on Linux and macOS.
func allocatedBytes(fi fs.FileInfo) int64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return st.Blocks * 512
	}
	return fi.Size()
}
