//go:build cgo

package capi

/*
#include "capi.h"
*/
import "C"

import (
	"errors"
	"fmt"
	"unsafe"
)

// LoopOp is one op of a loop run in C (Conn.Loop), laid out as the shim's
// gb_op: Key and Kind are the caller's; RC, T0 and T1 are filled in when
// the op has run.
type LoopOp struct {
	Key  int64
	Kind int32 // LoopRead or LoopUpsert
	// RC is the op's result: 0 (SQLITE_OK), LoopNoRow, or the code it
	// failed with.
	RC int32
	// T0 and T1 are CLOCK_MONOTONIC, in nanoseconds, when the op began
	// and ended (Go's runtime clock on Linux).
	T0, T1 int64
	// Calls and Wait are the busy handler's calls during the op and the
	// time its lock events waited, in nanoseconds (as LockWaits counts
	// them); BusyBegin and BusyCommit its calls during the upsert's BEGIN
	// and COMMIT.
	Calls, Wait           int64
	BusyBegin, BusyCommit int32
	// Step is the step a failed upsert failed at: StepBegin, StepWrite or
	// StepCommit (StepNone otherwise).
	Step int32
	_    int32
}

// The steps of LoopOp.Step.
const (
	StepNone   = C.GB_STEP_NONE
	StepBegin  = C.GB_STEP_BEGIN
	StepWrite  = C.GB_STEP_WRITE
	StepCommit = C.GB_STEP_COMMIT
)

// ErrGrow is the error of a loop's read whose value is larger than the
// buffer: the read is to be done again with a larger one.
var ErrGrow = errors.New("the value is larger than the buffer")

// The kinds of a LoopOp, and its result for a read that found no row.
const (
	LoopRead   = C.GB_OP_READ
	LoopUpsert = C.GB_OP_UPSERT
	LoopNoRow  = C.GB_NOROW
)

// The layouts must agree for a []LoopOp to be handed to C as gb_op*.
var _ [unsafe.Sizeof(LoopOp{}) - C.sizeof_gb_op]byte
var _ [C.sizeof_gb_op - unsafe.Sizeof(LoopOp{})]byte

// LoopStmts are the statements a loop in C runs: the read, the upsert
// (key, value) and the transaction's steps.
type LoopStmts struct {
	Get, Put, Begin, Commit, Rollback *Stmt
}

// Loop runs ops in one call into C, in order: a read binds its key, steps
// and copies the value into dst (which must be large enough); an upsert
// writes its value, values[i*vlen:(i+1)*vlen] for op i, as its own BEGIN
// IMMEDIATE … COMMIT, rolled back if a step failed. Each op is timed in C
// around the op alone. Loop stops after the first op that failed (a read
// that finds no row is not a failure: its RC says so) and returns how many
// ops ran, with that op's error.
func (c *Conn) Loop(s LoopStmts, ops []LoopOp, values []byte, vlen int, dst []byte) (int, error) {
	if len(ops) == 0 {
		return 0, nil
	}
	for _, st := range []*Stmt{s.Get, s.Put, s.Begin, s.Commit, s.Rollback} {
		if st == nil || st.s == nil || st.c != c {
			return 0, errors.New("a loop's statements must be open statements of its connection")
		}
	}
	if vlen < 0 || len(values) < len(ops)*vlen {
		return 0, fmt.Errorf("%d bytes of values for %d ops of %d bytes", len(values), len(ops), vlen)
	}
	for i := range ops {
		if k := ops[i].Kind; k != LoopRead && k != LoopUpsert {
			return 0, fmt.Errorf("op %d: unknown kind %d", i, k)
		}
	}
	r := c.note(C.gb_loop(c.c, s.Get.s, s.Put.s, s.Begin.s, s.Commit.s, s.Rollback.s,
		(*C.gb_op)(unsafe.Pointer(unsafe.SliceData(ops))), C.int(len(ops)),
		(*C.uchar)(ptr(values)), C.int(vlen), ptr(dst), C.int(cap(dst))))
	if r.rc == C.GB_GROW {
		return int(r.n), fmt.Errorf("op %d: %w (%d bytes)", r.n-1, ErrGrow, cap(dst))
	}
	return int(r.n), c.err(r.rc)
}
