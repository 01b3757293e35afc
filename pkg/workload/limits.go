package workload

import "time"

// Limits on a plan, so that a typo cannot ask for something absurd.
const (
	MaxValueSize   = 16 << 20 // bytes
	MaxProcs       = 4096
	MaxGoroutines  = 4096
	MaxWorkers     = 65536
	MaxPhaseLength = 72 * time.Hour // sample offsets are 48-bit nanoseconds (78 h)
	MaxBatch       = 1_000_000
)
