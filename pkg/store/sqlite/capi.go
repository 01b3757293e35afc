//go:build cgo

package sqlite

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/store/sqlite/internal/capi"
)

// CAPI returns the reference driver, registered as "capi": SQLite's C API
// through a minimal cgo shim (internal/capi), one call into C per op,
// calling the SQLite that mattn's driver compiles into the binary. Its
// connections also run loops of reads and upserts in one call
// (store.LoopRunner, unless Options.NoCLoop), which a worker uses where
// the result is the per-op path's. It measures SQLite at close to
// SQLite's own speed, against which each Go driver's cost shows. It
// exists only in cgo builds.
func CAPI() *Driver { return &Driver{name: "capi", be: capiBackend{}} }

// capiBackend is the C API shim, its connections traced by the C VFS.
type capiBackend struct{ cTrace }

func (capiBackend) blobIO() {}
func (capiBackend) loops()  {}

func (capiBackend) busyHandler() string {
	return "SQLite's own busy_timeout wait (sleeps of 1, 2, 5 … 100 ms) in C, its calls and waits counted"
}

func (capiBackend) open(dsn string) (rawConn, error) {
	c, err := capi.Open(dsn)
	if err != nil {
		return nil, err
	}
	return &capiRaw{c: c}, nil
}

func (capiBackend) code(err error) (int, bool) {
	var e *capi.Error
	if errors.As(err, &e) {
		return e.Code, true
	}
	return 0, false
}

// capiRaw is a C API connection before it serves ops.
type capiRaw struct{ c *capi.Conn }

func (r *capiRaw) exec(q string) error                  { return r.c.Exec(q) }
func (r *capiRaw) queryString(q string) (string, error) { return r.c.QueryString(q) }
func (r *capiRaw) Close() error                         { return r.c.Close() }
func (r *capiRaw) canSetLock() bool                     { return true }
func (r *capiRaw) setLockTimeout(ms int) error          { return r.c.SetLockTimeout(ms) }

// interruptible interrupts the connection when ctx ends (capi.InterruptOn:
// sqlite3_interrupt from a watcher, and a progress handler for a
// statement that had not begun). A lock wait ends too: SQLite's own busy
// handler, which PRAGMA busy_timeout installed, is replaced for the while
// by the shim's, which waits the same way and stops once interrupted.
func (r *capiRaw) interruptible(ctx context.Context) func() {
	if ms, err := r.c.QueryString("PRAGMA busy_timeout"); err == nil {
		if n, err := strconv.Atoi(ms); err == nil && n > 0 {
			r.c.SetBusyTimeout(n)
		}
	}
	return r.c.InterruptOn(ctx)
}

func (r *capiRaw) ops(d *Driver, blob, bare bool, busyTimeout time.Duration) (store.Conn, error) {
	c := &capiConn{c: r.c, d: d, blob: blob}
	c.txn = txn{steps: c, d: d}
	// Before any statement: installing an authorizer expires the
	// statements already prepared.
	if err := r.c.SetAuthorizer(c.guard.authorize); err != nil {
		return nil, fmt.Errorf("installing the authorizer: %w", d.wrap(err))
	}
	r.c.Limit(limitAttached, maxAttached)
	if busyTimeout > 0 {
		// Replaces PRAGMA busy_timeout's handler with one that waits the
		// same way and counts.
		r.c.SetBusyTimeout(int(busyTimeout / time.Millisecond))
		c.txn.counted = true
	}
	if bare {
		return c, nil
	}
	err := c.stmts.prepareAll(func(sql string) (*capi.Stmt, error) {
		s, _, err := r.c.Prepare(sql)
		return s, d.wrap(err)
	})
	if err != nil {
		return nil, err
	}
	return c, nil
}

// capiConn is one worker's connection through the C API shim. Its
// embedded txn owns the transaction state, as for the other drivers.
type capiConn struct {
	txn
	c *capi.Conn
	d *Driver

	stmts statements[*capi.Stmt]
	user  []*capi.Stmt                 // statements of the user's (Prepare, Execute)
	kept  map[string]*kept[*capi.Stmt] // Execute's, by text (execute_capi.go)
	guard guard                        // the authorizer's state
	recs  capiRecs                     // a record table's statements (records_capi.go)

	blob   bool // reads and updates through incremental blob I/O
	closed bool

	// The busy handler's count at the last TakeLockWaits.
	takenCalls int64
	takenWait  time.Duration

	// Loops in C (cloop.go): whether the options allow them, the store's
	// count of ops run in them, the ops as C takes them and the buffer
	// reads copy into.
	loopOn  bool
	loopOps *atomic.Int64
	loop    []capi.LoopOp
	loopDst []byte
}

var (
	_ store.Conn            = (*capiConn)(nil)
	_ store.Updater         = (*capiConn)(nil)
	_ store.Deleter         = (*capiConn)(nil)
	_ store.Batcher         = (*capiConn)(nil)
	_ store.Inserter        = (*capiConn)(nil)
	_ store.Scanner         = (*capiConn)(nil)
	_ store.Latester        = (*capiConn)(nil)
	_ store.TxProber        = (*capiConn)(nil)
	_ store.BusyRetrier     = (*capiConn)(nil)
	_ store.BusyStepCounter = (*capiConn)(nil)
	_ store.LockWaitCounter = (*capiConn)(nil)
	_ store.Scripter        = (*capiConn)(nil)
	_ store.Interrupter     = (*capiConn)(nil)
	_ store.LoopRunner      = (*capiConn)(nil)
)

// counting runs a transaction step and counts the busy handler's calls
// during it as busy answers to that step.
func (c *capiConn) counting(s *capi.Stmt) error {
	before := c.c.BusyCalls()
	err := s.Exec()
	for n := c.c.BusyCalls() - before; n > 0; n-- {
		c.txn.sawBusy()
	}
	return err
}

func (c *capiConn) execBegin() error    { return c.counting(c.stmts.begin) }
func (c *capiConn) execCommit() error   { return c.counting(c.stmts.commit) }
func (c *capiConn) execRollback() error { return c.stmts.rollback.Exec() }
func (c *capiConn) autocommit() bool    { return c.c.Autocommit() }

// Interruptible interrupts the connection when ctx ends, until stop (see
// capiRaw.interruptible); ROLLBACK, too short for the progress handler,
// still runs.
func (c *capiConn) Interruptible(ctx context.Context) (stop func()) {
	end := c.c.InterruptOn(ctx)
	c.txn.intr = ctx
	return func() {
		end()
		c.txn.intr = nil
	}
}

// Commit releases a blob handle held through the batch (see Get), then
// commits as txn does.
func (c *capiConn) Commit() error {
	c.c.BlobRelease()
	return c.txn.Commit()
}

// Rollback releases a blob handle held through the batch, then rolls back
// as txn does: an open handle would keep a read transaction open.
func (c *capiConn) Rollback() error {
	c.c.BlobRelease()
	return c.txn.Rollback()
}

// TakeLockWaits returns the busy handler's calls and the time it waited
// since the last call, and starts counting anew.
func (c *capiConn) TakeLockWaits() (int, time.Duration) {
	calls, wait := c.c.LockWaits()
	dc, dw := calls-c.takenCalls, wait-c.takenWait
	c.takenCalls, c.takenWait = calls, wait
	return int(dc), dw
}

// notFound maps the shim's missing row to store.ErrNotFound.
func notFound(err error) error {
	if errors.Is(err, capi.ErrNoRow) {
		return store.ErrNotFound
	}
	return err
}

// Get reads key's value in one call into C (bind, step, copy, reset), or
// through a blob handle: inside a batch one handle, moved from key to key
// with sqlite3_blob_reopen as kvtest does, else a handle per read.
func (c *capiConn) Get(key uint64, dst []byte) ([]byte, error) {
	err := c.txn.read(func() error {
		var err error
		if c.blob {
			dst, err = c.c.BlobRead(keyArg(key), dst[:0], c.txn.batch)
		} else {
			dst, err = c.stmts.get.Get(keyArg(key), 1, dst[:0])
		}
		return notFound(err)
	})
	if err != nil {
		dst = dst[:0]
	}
	return dst, err
}

// Put runs the upsert, as its own BEGIN IMMEDIATE … COMMIT unless a batch
// is open.
func (c *capiConn) Put(key uint64, value []byte) error {
	return c.write(c.stmts.put, capi.KeyValue, false, key, value)
}

// Insert runs a plain INSERT: an existing key fails with class constraint.
func (c *capiConn) Insert(key uint64, value []byte) error {
	return c.write(c.stmts.insert, capi.KeyValue, false, key, value)
}

// Update runs the update, or overwrites the value in place through a blob
// handle (which must keep its size; held through a batch as Get's is); a
// missing key is ErrNotFound.
func (c *capiConn) Update(key uint64, value []byte) error {
	if c.blob {
		return c.txn.write(func() error { return notFound(c.c.BlobWrite(keyArg(key), value, c.txn.batch)) })
	}
	return c.write(c.stmts.update, capi.ValueKey, true, key, value)
}

// Delete runs the delete; a missing key is ErrNotFound.
func (c *capiConn) Delete(key uint64) error {
	return c.write(c.stmts.del, capi.KeyOnly, true, key, nil)
}

// write runs one write statement (bind, step, reset in one call) as its
// own transaction, or inside the open batch (see txn.write).
func (c *capiConn) write(s *capi.Stmt, order capi.Order, mustExist bool, key uint64, value []byte) error {
	c.c.BlobRelease() // a SQL write may move the row a held handle points at
	return c.txn.write(func() error {
		changes, err := s.Write(order, keyArg(key), value)
		if err == nil && mustExist && changes == 0 {
			err = store.ErrNotFound
		}
		return err
	})
}

// Last reads the highest key in [lo, hi] and its value, in one SELECT
// that walks the primary key down from hi.
func (c *capiConn) Last(lo, hi uint64, dst []byte) (uint64, []byte, error) {
	var key int64
	err := c.txn.read(func() error {
		var err error
		key, dst, err = c.stmts.last.Last(keyArg(lo), keyArg(hi), dst)
		return notFound(err)
	})
	if err != nil {
		return 0, dst[:0], err
	}
	return uint64(key), dst, nil
}

// Scan reads up to n rows in key order from the first key at or above
// from, in one call.
func (c *capiConn) Scan(from uint64, n int) (int, error) {
	read := 0
	err := c.txn.read(func() error {
		var err error
		read, err = c.stmts.scan.Scan(keyArg(from), n)
		return err
	})
	return read, err
}

// Prepare prepares a statement of the user's; each named parameter's index
// is looked up once.
func (c *capiConn) Prepare(sql string, params []string) (store.Statement, error) {
	vacuum, err := c.guard.begin(sql)
	if err != nil {
		return nil, err
	}
	s, index, err := prepareIndexed(sql, params, func(q string) (*capi.Stmt, string, error) {
		s, tail, err := c.c.Prepare(q)
		return s, tail, c.d.wrap(err)
	}, &c.user)
	if err = c.guard.end(sql, err); err != nil {
		return nil, err
	}
	return &capiUserStmt{s: s, c: c, sql: sql, vacuum: vacuum, index: index}, nil
}

// capiUserStmt is a statement of the user's through the C API.
type capiUserStmt struct {
	s      *capi.Stmt
	c      *capiConn
	sql    string
	vacuum bool  // a plain VACUUM (see guard)
	index  []int // each argument's parameter index
}

// Run binds args by position, steps to the end and resets.
func (u *capiUserStmt) Run(args ...any) (int64, error) {
	if len(args) != len(u.index) {
		return 0, errArgs(len(args), len(u.index))
	}
	for i, a := range args {
		if err := u.s.Bind(u.index[i], a); err != nil {
			u.s.Clear()
			if e := (*capi.Error)(nil); !errors.As(err, &e) {
				return 0, fmt.Errorf("%w: %w", store.ErrInvalid, err)
			}
			return 0, u.c.d.wrap(err)
		}
	}
	u.c.guard.run(u.vacuum)
	n, err := u.s.Run()
	return n, u.c.guard.end(u.sql, u.c.txn.wrapErr(err))
}

// Close rolls back any open transaction, then closes the statements and
// the connection; twice is a no-op.
func (c *capiConn) Close() error {
	if c.closed {
		return nil
	}
	c.closed = true
	err := c.Rollback()
	_ = c.stmts.closeAll()
	_ = closeUser(c.user)
	_ = c.recs.stmts.closeAll()
	if cerr := c.c.Close(); err == nil {
		err = c.d.wrap(cerr)
	}
	return err
}
