//go:build cgo

package sqlite

import (
	"errors"
	"fmt"
	"runtime"
	"sync/atomic"
	"time"

	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/store/sqlite/internal/capi"
)

// LoopOp is one op of a loop run inside C on a capi connection (RunInC):
// its key and kind (LoopRead or LoopUpsert), and once run its result code
// (0, LoopNoRow, or SQLite's extended code of its failure) and the
// monotonic clock, in nanoseconds, when it began and ended.
type LoopOp = capi.LoopOp

// The kinds of a LoopOp, and the result of a read that found no row.
const (
	LoopRead   = capi.LoopRead
	LoopUpsert = capi.LoopUpsert
	LoopNoRow  = capi.LoopNoRow
)

// RunInC runs ops on conn, a connection of the capi driver outside a
// batch, in one call into C: the mix's op loop with no Go code between two
// ops. A read runs the engine's read statement into dst (which must hold
// the largest value); an upsert writes values[i*valueLen:(i+1)*valueLen]
// for op i with the engine's upsert as its own BEGIN IMMEDIATE … COMMIT,
// rolled back if a step failed; the connection's busy handler waits as
// for any op. Each op is timed in C, around the op alone. It stops after
// the first op that failed (a read that found no row is not one) and
// returns how many ops ran, with that op's error classified as the
// engine's errors are.
//
// It is the rung of bench/baseline's ladder between the C program and
// gobench's engine driven from Go: what a Go process costs when its op
// loop runs in C.
func RunInC(conn store.Conn, ops []LoopOp, values []byte, valueLen int, dst []byte) (int, error) {
	c, ok := conn.(*capiConn)
	switch {
	case !ok:
		return 0, fmt.Errorf("a loop in C runs on a capi connection, not a %T", conn)
	case c.closed:
		return 0, errors.New("a loop in C on a closed connection")
	case c.txn.batch:
		return 0, errors.New("a loop in C runs its own transactions: a batch is open")
	}
	c.c.BlobRelease()
	n, err := c.c.Loop(capi.LoopStmts{Get: c.stmts.get, Put: c.stmts.put, Begin: c.stmts.begin, Commit: c.stmts.commit, Rollback: c.stmts.rollback},
		ops, values, valueLen, dst)
	return n, c.txn.wrapErr(err)
}

// setLoop says whether the options allow loops in C, and where to count
// their ops.
func (c *capiConn) setLoop(on bool, ops *atomic.Int64) { c.loopOn, c.loopOps = on, ops }

// Looping reports whether RunLoop may run: the options allow it
// (--capi-loop), reads are SQL statements (not blob I/O), no batch is open,
// and the loop's clock, CLOCK_MONOTONIC, is the Go runtime's (Linux).
func (c *capiConn) Looping() bool {
	return c.loopOn && !c.blob && !c.closed && !c.txn.batch && runtime.GOOS == "linux"
}

// loopDstMin is the read buffer a loop starts with; it doubles whenever a
// value does not fit.
const loopDstMin = 4 << 10

// RunLoop runs ops in one call into C (RunInC) and reports each op as Get
// and Put would: a busy answer to its BEGIN or COMMIT counted as the
// engine's busy handler saw it (once, where no handler waits, for the
// step that failed), its lock waits, and a missing key as NotFound. A
// read whose value did not fit the buffer had no effect: it runs again,
// with a buffer twice as large, and only that run is reported.
func (c *capiConn) RunLoop(ops []store.LoopOp, values []byte, valueLen int) (int, error) {
	if !c.Looping() {
		return 0, errors.New("this connection runs no loop in C (see Looping)")
	}
	if cap(c.loop) < len(ops) {
		c.loop = make([]capi.LoopOp, len(ops))
	}
	if c.loopDst == nil {
		c.loopDst = make([]byte, 0, loopDstMin)
	}
	lo := c.loop[:len(ops)]
	for i, o := range ops {
		kind := int32(LoopRead)
		if o.Upsert {
			kind = LoopUpsert
		}
		lo[i] = capi.LoopOp{Key: keyArg(o.Key), Kind: kind}
	}
	ran := 0
	for {
		n, err := RunInC(c, lo[ran:], values[min(ran*valueLen, len(values)):], valueLen, c.loopDst)
		if n == 0 && err != nil {
			return ran, err
		}
		grow := errors.Is(err, capi.ErrGrow)
		if grow {
			n-- // its last op runs again, with a larger buffer
			c.loopDst = make([]byte, 0, 2*cap(c.loopDst))
		}
		c.loopOps.Add(int64(n))
		for i := ran; i < ran+n; i++ {
			c.loopResult(&ops[i], &lo[i], i == ran+n-1 && err != nil, err)
		}
		if ran += n; grow {
			continue
		}
		if err != nil || ran == len(ops) {
			return ran, err
		}
	}
}

// loopResult fills in o from what C reported of it, l; failed is set for
// the op that failed, with err.
func (c *capiConn) loopResult(o *store.LoopOp, l *capi.LoopOp, failed bool, err error) {
	o.NotFound = l.RC == LoopNoRow
	o.Start, o.End = l.T0, l.T1
	o.LockWaits, o.LockWait = int(l.Calls), time.Duration(l.Wait)
	o.BusyBegin, o.BusyCommit = int(l.BusyBegin), int(l.BusyCommit)
	if failed && !c.txn.counted && lockErr(err) {
		// As txn.step counts a step's busy answer where no handler does.
		switch l.Step {
		case capi.StepBegin:
			o.BusyBegin++
		case capi.StepCommit:
			o.BusyCommit++
		}
	}
}
