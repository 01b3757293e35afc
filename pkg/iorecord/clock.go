package iorecord

import _ "unsafe" // for go:linkname

// Now returns the monotonic clock in nanoseconds: CLOCK_MONOTONIC on
// Linux, the clock the C VFS stamps its events with and the one gobench
// clocks ops on (runner.Now), the same in every process.
func Now() int64 { return nanotime() }

//go:linkname nanotime runtime.nanotime
func nanotime() int64
