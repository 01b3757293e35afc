package runner

import _ "unsafe" // for go:linkname

// nanotime is the runtime's monotonic clock, the one time.Now carries as
// its monotonic reading. Ops are clocked with it alone: time.Now also reads
// the wall clock, which doubles the cost of every timestamp (about 50 ns
// against 25 ns a call on the machine the README's figures come from) and
// would put that cost inside every measured op. The Go runtime keeps this
// linkname working for good (go.dev/issue/67401).
//
//go:linkname nanotime runtime.nanotime
func nanotime() int64

// Now returns the monotonic clock in nanoseconds: the clock every sample's
// offsets and latencies are measured on. On Linux (CLOCK_MONOTONIC) and
// macOS it counts from boot, so readings taken in different processes of
// one machine compare directly: a coordinator can stamp START once and
// every worker process measures its offsets from that same instant.
func Now() int64 { return nanotime() }

// Clock is the time a Host's workers read and wait on: Now clocks every
// op, SleepUntil waits for an open-loop op's due time and between the
// retry policy's attempts. Nil (Host.Clock's default) is the monotonic
// clock with precise sleeps; a test hands a virtual clock, whose time
// passes only when a wait or a fake engine's op moves it, to check
// exactly what a schedule, a stall or a retry budget does to the
// samples, whatever the machine's load.
type Clock interface {
	// Now returns the time in nanoseconds, on the scale of Now.
	Now() int64
	// SleepUntil returns true once Now has reached due, or false if done
	// closed first (a nil done never closes).
	SleepUntil(done <-chan struct{}, due int64) bool
}
