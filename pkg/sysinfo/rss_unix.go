//go:build linux || darwin

package sysinfo

import (
	"runtime"

	"golang.org/x/sys/unix"
)

// MaxRSS returns this process's peak resident set size in bytes, or 0
// where it cannot be read.
func MaxRSS() int64 { return maxRSS(unix.RUSAGE_SELF) }

func maxRSS(who int) int64 {
	var ru unix.Rusage
	if err := unix.Getrusage(who, &ru); err != nil {
		return 0
	}
	if runtime.GOOS == "darwin" {
		return ru.Maxrss // bytes on macOS
	}
	return ru.Maxrss * 1024 // kilobytes on Linux
}
