//go:build cgo

package sqlite

import (
	"errors"
	"fmt"

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
