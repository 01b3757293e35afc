//go:build !unix

package capture

// monotonic is 0 where CLOCK_MONOTONIC is not to be had: the trace's times
// then count from the capture's start.
func monotonic() int64 { return 0 }
