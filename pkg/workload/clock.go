package workload

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
