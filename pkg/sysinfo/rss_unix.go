//go:build linux || darwin

package sysinfo

import (
	"runtime"

	"golang.org/x/sys/unix"
)

// MaxRSS returns this process's peak resident set size in bytes, or 0
// where it cannot be read.
func MaxRSS() int64 {
	var ru unix.Rusage
	if err := unix.Getrusage(unix.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	if runtime.GOOS == "darwin" {
		return ru.Maxrss // bytes on macOS
	}
	return ru.Maxrss * 1024 // kilobytes on Linux
}
