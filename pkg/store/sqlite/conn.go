package sqlite

import (
	"context"
	"database/sql/driver"
	"fmt"
	"io"
	"math"
	"time"

	"github.com/gobench/gobench/pkg/store"
)

// sqlBackend is a binding used through database/sql/driver.
type sqlBackend struct {
	drv    driver.Driver
	codeOf func(error) (int, bool)
	// autocommit returns a probe of sqlite3_get_autocommit on one of the
	// binding's connections, and a function that releases the probe.
	autocommit func(driver.Conn) (probe func() bool, release func(), err error)
	// guard installs g as the connection's authorizer and sets its limit
	// of attached databases (see guard).
	guard func(c driver.Conn, g *guard) error
	// lockTimeout calls sqlite3_setlk_timeout on one of the binding's
	// connections; nil where the binding cannot (modernc).
	lockTimeout func(c driver.Conn, ms int) error
}

func (b sqlBackend) code(err error) (int, bool) { return b.codeOf(err) }

func (b sqlBackend) open(dsn string) (rawConn, error) {
	c, err := b.drv.Open(dsn)
	if err != nil {
		return nil, err
	}
	return &sqlRaw{c: c, be: b, ctx: bg}, nil
}

// sqlRaw is a database/sql/driver connection before it serves ops.
type sqlRaw struct {
	c   driver.Conn
	be  sqlBackend
	ctx context.Context // of every statement: bg, or the one interruptible set
}

func (r *sqlRaw) exec(q string) error                  { return execOnce(r.ctx, r.c, q) }
func (r *sqlRaw) queryString(q string) (string, error) { return queryString(r.ctx, r.c, q) }
func (r *sqlRaw) Close() error                         { return r.c.Close() }
func (r *sqlRaw) canSetLock() bool                     { return r.be.lockTimeout != nil }
func (r *sqlRaw) setLockTimeout(ms int) error          { return r.be.lockTimeout(r.c, ms) }

// interruptible runs the connection's statements with ctx: both drivers
// interrupt a statement whose context ends (sqlite3_interrupt).
func (r *sqlRaw) interruptible(ctx context.Context) func() {
	r.ctx = ctx
	return func() { r.ctx = bg }
}

func (r *sqlRaw) ops(d *Driver, _, bare bool, _ time.Duration) (store.Conn, error) {
	probe, release, err := r.be.autocommit(r.c)
	if err != nil {
		return nil, fmt.Errorf("driver %s: %w", d.name, err)
	}
	c := &conn{c: r.c, d: d, ctx: bg, autocommitProbe: probe, releaseProbe: release}
	c.txn = txn{steps: c, d: d}
	// Before any statement: installing an authorizer expires the
	// statements already prepared.
	if err := r.be.guard(r.c, &c.guard); err != nil {
		release()
		return nil, fmt.Errorf("driver %s: installing the authorizer: %w", d.name, d.wrap(err))
	}
	if err := c.prepare(bare); err != nil {
		release()
		return nil, err
	}
	return c, nil
}

// conn is one worker's SQLite connection through database/sql/driver. Its
// embedded txn owns the transaction state: Begin, Commit, Rollback, InTx,
// SetBusyRetry and TakeBusySteps are txn's.
type conn struct {
	txn
	c driver.Conn
	d *Driver

	stmts statements[stmt]
	user  []stmt                 // statements of the user's (Prepare, Execute)
	kept  map[string]*kept[stmt] // Execute's, by text (execute.go)
	guard guard                  // the authorizer's state
	// ctx is the context of every statement but ROLLBACK: bg (never
	// cancelled, so that neither driver starts a cancellation watcher per
	// op), or the one Interruptible set.
	ctx  context.Context
	recs sqlRecs // a record table's statements (records_sql.go)

	autocommitProbe func() bool
	releaseProbe    func()
	closed          bool
	args1           [1]driver.NamedValue
	args2           [2]driver.NamedValue
	dest            [2]driver.Value
}

var (
	_ store.KVConn      = (*conn)(nil)
	_ store.TxProber    = (*conn)(nil)
	_ store.BusyRetrier = (*conn)(nil)

	_ store.BusyStepCounter = (*conn)(nil)
)

// stmt is a prepared statement through the context-taking driver
// interfaces, which mattn and modernc both implement.
type stmt interface {
	driver.Stmt
	driver.StmtExecContext
	driver.StmtQueryContext
}

// bg is the context of every operation outside Interruptible: never
// cancelled, so neither driver starts a cancellation watcher per call.
var bg = context.Background()

var _ store.Interrupter = (*conn)(nil)

// Interruptible runs the connection's statements with ctx until stop:
// mattn and modernc interrupt a statement whose context ends
// (sqlite3_interrupt; modernc also through a progress handler, which
// catches the moment before a statement starts, and ends a lock wait).
// mattn's wait for a lock is not interrupted: it ends at the busy
// timeout. ROLLBACK always runs.
func (c *conn) Interruptible(ctx context.Context) (stop func()) {
	c.ctx, c.txn.intr = ctx, ctx
	return func() { c.ctx, c.txn.intr = bg, nil }
}

// prepareStmt prepares one statement with the context interfaces.
func (c *conn) prepareStmt(sql string) (stmt, error) {
	ds, err := c.c.Prepare(sql)
	if err != nil {
		return nil, c.d.wrap(err)
	}
	s, ok := ds.(stmt)
	if !ok {
		ds.Close()
		return nil, fmt.Errorf("driver %s: prepared statements lack the context interfaces", c.d.name)
	}
	return s, nil
}

func (c *conn) prepare(bare bool) error {
	if bare {
		return nil
	}
	if err := c.stmts.prepareAll(c.prepareStmt); err != nil {
		return err
	}
	for i := range c.args1 {
		c.args1[i].Ordinal = i + 1
	}
	for i := range c.args2 {
		c.args2[i].Ordinal = i + 1
	}
	return nil
}

func (c *conn) execBegin() error    { _, err := c.stmts.begin.ExecContext(c.ctx, nil); return err }
func (c *conn) execCommit() error   { _, err := c.stmts.commit.ExecContext(c.ctx, nil); return err }
func (c *conn) execRollback() error { _, err := c.stmts.rollback.ExecContext(bg, nil); return err }
func (c *conn) autocommit() bool    { return c.autocommitProbe() }

func keyArg(key uint64) int64 {
	if key > math.MaxInt64 {
		panic("sqlite: key above MaxInt64") // key spaces are validated far below this
	}
	return int64(key)
}

// Get runs the read statement.
func (c *conn) Get(key uint64, dst []byte) ([]byte, error) {
	c.args1[0].Value = keyArg(key)
	_, dst, err := c.readRow(c.stmts.get, c.args1[:], dst)
	return dst, err
}

// readRow runs query s with args, in a read transaction of its own unless
// a batch is open, and reads the first row it gives (key, value): the
// value appended to dst[:0]. No row is ErrNotFound.
func (c *conn) readRow(s stmt, args []driver.NamedValue, dst []byte) (key int64, _ []byte, err error) {
	dst = dst[:0]
	err = c.txn.read(func() error {
		rows, err := s.QueryContext(c.ctx, args)
		if err != nil {
			return err
		}
		err = rows.Next(c.dest[:])
		dst = dst[:0]
		if err == nil {
			key, _ = c.dest[0].(int64)
			switch v := c.dest[1].(type) {
			case []byte:
				dst = append(dst, v...)
			case string:
				dst = append(dst, v...)
			}
		}
		cerr := rows.Close()
		switch {
		case err == io.EOF:
			return store.ErrNotFound
		case err != nil:
			return err
		}
		return cerr
	})
	return key, dst, err
}

// Put runs the upsert, inside BEGIN IMMEDIATE … COMMIT unless a batch is
// open: the write lock is taken up front, so that in WAL mode a write never
// fails on a stale read snapshot (SQLITE_BUSY_SNAPSHOT), whatever the busy
// timeout.
func (c *conn) Put(key uint64, value []byte) error {
	c.args2[0].Value = keyArg(key)
	c.args2[1].Value = value
	return c.write(c.stmts.put, c.args2[:], false)
}

// Update runs the update; a missing key is ErrNotFound.
func (c *conn) Update(key uint64, value []byte) error {
	c.args2[0].Value = value
	c.args2[1].Value = keyArg(key)
	return c.write(c.stmts.update, c.args2[:], true)
}

// Insert runs a plain INSERT: an existing key fails with class constraint.
func (c *conn) Insert(key uint64, value []byte) error {
	c.args2[0].Value = keyArg(key)
	c.args2[1].Value = value
	return c.write(c.stmts.insert, c.args2[:], false)
}

// Last reads the highest key in [lo, hi] and its value, in one SELECT
// that walks the primary key down from hi.
func (c *conn) Last(lo, hi uint64, dst []byte) (uint64, []byte, error) {
	c.args2[0].Value = keyArg(lo)
	c.args2[1].Value = keyArg(hi)
	key, dst, err := c.readRow(c.stmts.last, c.args2[:], dst)
	if err != nil {
		return 0, dst[:0], err
	}
	return uint64(key), dst, nil
}

// Scan reads up to n rows in key order from the first key at or above
// from, in one SELECT.
func (c *conn) Scan(from uint64, n int) (int, error) {
	c.args2[0].Value = keyArg(from)
	c.args2[1].Value = int64(n)
	read := 0
	err := c.txn.read(func() error {
		read = 0
		rows, err := c.stmts.scan.QueryContext(c.ctx, c.args2[:])
		if err != nil {
			return err
		}
		for {
			if err = rows.Next(c.dest[:]); err != nil {
				break
			}
			read++
		}
		cerr := rows.Close()
		if err != io.EOF {
			return err
		}
		return cerr
	})
	return read, err
}

// Delete runs the delete; a missing key is ErrNotFound.
func (c *conn) Delete(key uint64) error {
	c.args1[0].Value = keyArg(key)
	return c.write(c.stmts.del, c.args1[:], true)
}

// write executes one write statement as its own transaction, or inside
// the open batch (see txn.write).
func (c *conn) write(s stmt, args []driver.NamedValue, mustExist bool) error {
	return c.txn.write(func() error {
		res, err := s.ExecContext(c.ctx, args)
		if err == nil && mustExist {
			var n int64
			if n, err = res.RowsAffected(); err == nil && n == 0 {
				err = store.ErrNotFound
			}
		}
		return err
	})
}

// Close rolls back any open transaction, then closes the statements and
// the connection; twice is a no-op.
func (c *conn) Close() error {
	if c.closed {
		return nil
	}
	c.closed = true
	first := c.Rollback()
	if err := c.stmts.closeAll(); err != nil && first == nil {
		first = err
	}
	if err := closeUser(c.user); err != nil && first == nil {
		first = err
	}
	if err := c.recs.stmts.closeAll(); err != nil && first == nil {
		first = err
	}
	c.releaseProbe()
	if err := c.c.Close(); err != nil && first == nil {
		first = err
	}
	return c.d.wrap(first)
}

// execOnce prepares, runs and closes one statement. With a context that
// can end it steps the statement as a query: mattn interrupts a query
// while it steps, where its exec can miss a statement that has not begun.
func execOnce(ctx context.Context, c driver.Conn, q string) error {
	s, err := c.Prepare(q)
	if err != nil {
		return err
	}
	defer s.Close()
	if ctx.Done() == nil {
		_, err = s.(driver.StmtExecContext).ExecContext(bg, nil)
		return err
	}
	rows, err := s.(driver.StmtQueryContext).QueryContext(ctx, nil)
	if err != nil {
		return err
	}
	defer rows.Close()
	dest := make([]driver.Value, len(rows.Columns()))
	for {
		if err := rows.Next(dest); err != nil {
			if err == io.EOF {
				return nil
			}
			return err
		}
	}
}

// queryString runs a one-row, one-column query and returns the value as
// text ("" for no row).
func queryString(ctx context.Context, c driver.Conn, q string) (string, error) {
	s, err := c.Prepare(q)
	if err != nil {
		return "", err
	}
	defer s.Close()
	rows, err := s.(driver.StmtQueryContext).QueryContext(ctx, nil)
	if err != nil {
		return "", err
	}
	defer rows.Close()
	dest := make([]driver.Value, len(rows.Columns()))
	if err := rows.Next(dest); err != nil {
		if err == io.EOF {
			return "", nil
		}
		return "", err
	}
	if len(dest) == 0 {
		return "", nil
	}
	switch v := dest[0].(type) {
	case []byte:
		return string(v), nil
	case nil:
		return "", nil
	default:
		return fmt.Sprint(v), nil
	}
}
