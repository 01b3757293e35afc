//go:build gobench_transient

package runner

import (
	"sync/atomic"
	"time"
)

// Transient is how long, from a worker process's first op, every op is
// made four times as long in a build with the gobench_transient tag: a
// planted warm-up of known length, to check on a real run where --warmup
// auto cuts. No release is built with the tag.
const Transient = 2 * time.Second

// transientFrom is when the process's first op began (0 until then).
var transientFrom atomic.Int64

// transient spins, on the CPU, until the op begun at t0 has taken three
// times more than it has so far, for ops begun within Transient of the
// process's first.
func transient(t0 int64) {
	transientFrom.CompareAndSwap(0, t0)
	if t0-transientFrom.Load() >= int64(Transient) {
		return
	}
	until := nanotime() + 3*(nanotime()-t0)
	for nanotime() < until {
	}
}
