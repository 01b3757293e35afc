package store

import "time"

// LoopRunner is implemented by a Conn that can run a run of reads and
// upserts in one call into its engine, each op timed by the engine itself
// on the monotonic clock ops are measured with (the Go runtime's, which is
// CLOCK_MONOTONIC on Linux). A caller gains what a call per op costs; the
// ops, their order and their transactions are those of Get and Put, one
// by one. Without it, or where Looping reports false, ops are run one call
// each: that is the fallback, and always correct.
type LoopRunner interface {
	// Looping reports whether RunLoop may be used on this connection: the
	// engine's option allows it and the connection's mode supports it.
	Looping() bool
	// RunLoop runs ops in order, outside a batch: a read as Get does (a
	// missing key sets NotFound), an upsert as Put does, as its own
	// transaction, writing values[i*valueLen:(i+1)*valueLen] for op i. It
	// fills in each op's outcome, stops after the first op that failed (a
	// read that found no row has not failed) and returns how many ops ran,
	// with that op's error, classified as Get's and Put's errors are. A
	// call that ran no op (n == 0) with an error was refused whole.
	RunLoop(ops []LoopOp, values []byte, valueLen int) (n int, err error)
}

// LoopOp is one op of a LoopRunner's loop: the caller's key and kind, and
// once run, what happened to it.
type LoopOp struct {
	Key uint64
	// Upsert is set for an upsert; the op is a read otherwise.
	Upsert bool

	// NotFound: a read found no row.
	NotFound bool
	// Start and End are when the op began and ended, on the monotonic
	// clock ops are measured with, in nanoseconds.
	Start, End int64
	// LockWaits and LockWait are the engine's busy handler's calls during
	// the op and the time it waited (as LockWaitCounter counts them).
	LockWaits int
	LockWait  time.Duration
	// BusyBegin and BusyCommit count the times the op's BEGIN and COMMIT
	// found the database busy or locked (as BusyStepCounter counts them).
	BusyBegin, BusyCommit int
}
