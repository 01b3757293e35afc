//go:build unix

package capture

import "golang.org/x/sys/unix"

// monotonic reads CLOCK_MONOTONIC, the clock every process of a capture
// (and the C library) stamps its records with.
func monotonic() int64 {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_MONOTONIC, &ts); err != nil {
		return 0
	}
	return ts.Nano()
}
