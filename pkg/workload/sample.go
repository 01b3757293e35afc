package workload

import (
	"time"

	"github.com/gobench/gobench/pkg/store"
)

// Sample is the record of one operation: what ran, how it ended, when it
// started (as an offset from the phase's START) and how long it took, by
// the monotonic clock around the operation alone.
//
// In an open-loop run Start is the op's due time and Latency counts from
// it; Lag is how late the op actually began. Under the retry busy policy
// Wait is the time from the first attempt's start to the final attempt's,
// over Retries failed attempts. So Latency = Lag + Wait + the final
// attempt's service time. Under the timeout policy, on a connection that
// counts its engine's busy handler (store.LockWaitCounter), Retries is the
// handler's calls and Wait the time it waited, inside the op.
type Sample struct {
	Op      Op
	Class   store.Class
	Start   time.Duration
	Latency time.Duration
	Lag     time.Duration
	Wait    time.Duration
	Retries uint16
	Flags   SampleFlags
}

// SampleFlags mark open-loop samples and the lock contention an op met.
type SampleFlags uint8

// Sample flags.
const (
	// FlagLate marks an op that began more than the plan's latency limit
	// behind its due time.
	FlagLate SampleFlags = 1 << iota
	// FlagSkipped marks a late op that was skipped, not run (Plan.SkipLate):
	// its sample only counts it.
	FlagSkipped
	// FlagBusyBegin and FlagBusyCommit mark an op whose BEGIN or COMMIT
	// found the database busy or locked at least once, as the engine
	// counted it (store.BusyStepCounter).
	FlagBusyBegin
	FlagBusyCommit
	// FlagDiverged marks a replayed statement that did something else
	// than when captured: other rows or changes, or another outcome.
	FlagDiverged
	// FlagCaptureError marks a replayed statement that failed when
	// captured.
	FlagCaptureError
	// FlagCommitted marks a replayed statement that committed a
	// transaction when captured, and succeeded again.
	FlagCommitted
	// FlagUncertain marks a replayed statement whose rows were not
	// compared: the capture could not tell which state it saw.
	FlagUncertain

	// KnownFlags holds every flag defined.
	KnownFlags = FlagLate | FlagSkipped | FlagBusyBegin | FlagBusyCommit | FlagDiverged | FlagCaptureError | FlagCommitted | FlagUncertain
)

// MaxRetries caps the retries a sample counts.
const MaxRetries = 1<<16 - 1

// WorkerStats is what a worker reports when its phase ends: the number of
// samples it recorded, so a receiver can prove none went missing, and the
// offset at which its last op finished.
type WorkerStats struct {
	Worker  int
	Phase   int
	Samples int64
	End     time.Duration
}

// Sink receives one worker's samples for one phase. Its methods are called
// from that worker's goroutine only, never concurrently. Record runs
// between operations, outside the clocked window, but still on the
// worker's path: it should cost little and never block for long.
type Sink interface {
	// Record takes one sample. An error stops the worker.
	Record(s Sample) error
	// Done is called once, after the last Record of the phase.
	Done(st WorkerStats) error
}

// Collector hands out the Sink of each worker and phase. Sink is called
// before the phase's barrier, from any goroutine, for every worker of a
// host; implementations must be safe for that concurrent use.
type Collector interface {
	Sink(worker, phase int) Sink
}
