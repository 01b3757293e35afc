package sqlite

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	nsqlite "github.com/ncruces/go-sqlite3"
	_ "github.com/ncruces/go-sqlite3/vfs/memdb" // registers the memdb VFS, as mattn's and modernc's SQLite have it built in

	"github.com/gobench/gobench/pkg/store"
)

// Ncruces returns the driver for github.com/ncruces/go-sqlite3: SQLite's
// Wasm build translated to Go (no cgo), used through its own API, so it
// links beside mattn's driver (their database/sql names would clash),
// registered as "ncruces".
func Ncruces() *Driver { return &Driver{name: "ncruces", be: ncBackend{}} }

type ncBackend struct{}

func (ncBackend) blobIO() {}

func (ncBackend) busyHandler() string {
	return "a Go callback waiting as ncruces's busy_timeout does, its calls and waits counted"
}

func (ncBackend) open(dsn string) (rawConn, error) {
	c, err := nsqlite.OpenFlags(dsn, nsqlite.OPEN_READWRITE|nsqlite.OPEN_CREATE|nsqlite.OPEN_URI)
	if err != nil {
		return nil, err
	}
	return &ncRaw{c: c}, nil
}

func (ncBackend) code(err error) (int, bool) {
	var e *nsqlite.Error
	if errors.As(err, &e) {
		return int(e.ExtendedCode()), true
	}
	var ec nsqlite.ErrorCode
	if errors.As(err, &ec) {
		return int(ec), true
	}
	var xc nsqlite.ExtendedErrorCode
	if errors.As(err, &xc) {
		return int(xc), true
	}
	return 0, false
}

// ncRaw is an ncruces connection before it serves ops.
type ncRaw struct{ c *nsqlite.Conn }

func (r *ncRaw) exec(q string) error { return r.c.Exec(q) }
func (r *ncRaw) Close() error        { return r.c.Close() }

// interruptible sets ctx as the connection's interrupt (Conn.SetInterrupt:
// a progress handler stops a statement once ctx is done, a lock wait
// ends, and no statement starts).
func (r *ncRaw) interruptible(ctx context.Context) func() {
	old := r.c.SetInterrupt(ctx)
	return func() { r.c.SetInterrupt(old) }
}

func (r *ncRaw) queryString(q string) (string, error) {
	s, _, err := r.c.Prepare(q)
	if err != nil {
		return "", err
	}
	defer s.Close()
	if !s.Step() {
		return "", s.Err()
	}
	if s.ColumnCount() == 0 {
		return "", nil
	}
	return s.ColumnText(0), nil
}

func (r *ncRaw) ops(d *Driver, blob, bare bool, busyTimeout time.Duration) (store.Conn, error) {
	c := &ncConn{c: r.c, d: d, blob: blob}
	c.txn = txn{steps: c, d: d}
	// Before any statement: installing an authorizer expires the
	// statements already prepared.
	err := r.c.SetAuthorizer(func(action nsqlite.AuthorizerActionCode, arg1, arg2, _, _ string) nsqlite.AuthorizerReturnCode {
		return nsqlite.AuthorizerReturnCode(c.guard.authorize(int(action), arg1, arg2))
	})
	if err != nil {
		return nil, fmt.Errorf("installing the authorizer: %w", d.wrap(err))
	}
	r.c.Limit(nsqlite.LIMIT_ATTACHED, maxAttached)
	if busyTimeout > 0 {
		if err := r.c.BusyHandler(c.busyHandler(busyTimeout)); err != nil {
			return nil, fmt.Errorf("installing the busy handler: %w", d.wrap(err))
		}
		c.txn.counted = true // the handler sees every busy answer
	}
	if bare {
		return c, nil
	}
	err = c.stmts.prepareAll(func(sql string) (*nsqlite.Stmt, error) {
		s, _, err := r.c.Prepare(sql)
		return s, d.wrap(err)
	})
	if err != nil {
		return nil, err
	}
	return c, nil
}

// ncConn is one worker's connection through ncruces's own API. Its
// embedded txn owns the transaction state: Begin, Commit, Rollback, InTx,
// SetBusyRetry and TakeBusySteps are txn's.
type ncConn struct {
	txn
	c *nsqlite.Conn
	d *Driver

	stmts statements[*nsqlite.Stmt]
	user  []*nsqlite.Stmt                 // statements of the user's (Prepare, Execute)
	kept  map[string]*kept[*nsqlite.Stmt] // Execute's, by text (execute.go)
	guard guard                           // the authorizer's state
	recs  recStatements[*nsqlite.Stmt]    // a record table's statements (records_nc.go)

	blob   bool // reads and updates through incremental blob I/O
	closed bool

	// The busy handler's count: calls, the waits of finished lock events,
	// and the lock event under way.
	busyCalls  int
	busyWaited time.Duration
	eventStart time.Time
	eventWait  time.Duration
	busyLast   time.Time
}

var _ store.LockWaitCounter = (*ncConn)(nil)

// busyHandler waits for a lock as ncruces's own busy_timeout does (retry
// until timeout has passed since the lock event's first call, sleeping up
// to 2 ms, at random, between calls less than 1 ms apart), so behaviour is
// unchanged, and counts every call and the time waited.
func (c *ncConn) busyHandler(timeout time.Duration) func(context.Context, int) bool {
	return func(_ context.Context, count int) bool {
		now := time.Now()
		if count == 0 {
			c.busyWaited += c.eventWait
			c.eventStart, c.eventWait = now, 0
		}
		c.busyCalls++
		c.txn.sawBusy()
		if now.Sub(c.eventStart) >= timeout {
			c.eventWait = now.Sub(c.eventStart)
			return false
		}
		if now.Sub(c.busyLast) < time.Millisecond {
			time.Sleep(time.Duration(rand.Int64N(int64(2 * time.Millisecond))))
		}
		c.busyLast = time.Now()
		c.eventWait = c.busyLast.Sub(c.eventStart)
		return true
	}
}

// TakeLockWaits returns the busy handler's calls and the time it waited
// since the last call, and starts counting anew.
func (c *ncConn) TakeLockWaits() (int, time.Duration) {
	calls, wait := c.busyCalls, c.busyWaited+c.eventWait
	c.busyCalls, c.busyWaited, c.eventWait = 0, 0, 0
	return calls, wait
}

var (
	_ store.Conn        = (*ncConn)(nil)
	_ store.Updater     = (*ncConn)(nil)
	_ store.Deleter     = (*ncConn)(nil)
	_ store.Batcher     = (*ncConn)(nil)
	_ store.Inserter    = (*ncConn)(nil)
	_ store.Scanner     = (*ncConn)(nil)
	_ store.Latester    = (*ncConn)(nil)
	_ store.TxProber    = (*ncConn)(nil)
	_ store.BusyRetrier = (*ncConn)(nil)

	_ store.BusyStepCounter = (*ncConn)(nil)
)

func (c *ncConn) execBegin() error  { return c.stmts.begin.Exec() }
func (c *ncConn) execCommit() error { return c.stmts.commit.Exec() }
func (c *ncConn) autocommit() bool  { return c.c.GetAutocommit() }

// execRollback runs ROLLBACK, also after an interrupt (which would
// refuse every statement until it is reset).
func (c *ncConn) execRollback() error {
	if c.txn.intr != nil {
		old := c.c.SetInterrupt(context.Background())
		defer c.c.SetInterrupt(old)
	}
	return c.stmts.rollback.Exec()
}

var _ store.Interrupter = (*ncConn)(nil)

// Interruptible sets ctx as the connection's interrupt until stop (see
// ncRaw.interruptible); ROLLBACK still runs.
func (c *ncConn) Interruptible(ctx context.Context) (stop func()) {
	old := c.c.SetInterrupt(ctx)
	c.txn.intr = ctx
	return func() {
		c.c.SetInterrupt(old)
		c.txn.intr = nil
	}
}

// Get runs the read statement, or reads the value through a blob handle.
func (c *ncConn) Get(key uint64, dst []byte) ([]byte, error) {
	if c.blob {
		return c.blobRead(key, dst)
	}
	s := c.stmts.get
	dst = dst[:0]
	err := c.txn.read(func() error {
		if err := s.BindInt64(1, keyArg(key)); err != nil {
			return err
		}
		dst = dst[:0]
		found := s.Step()
		if found {
			dst = append(dst, s.ColumnRawBlob(1)...)
		}
		err := s.Err()
		if rerr := s.Reset(); err == nil {
			err = rerr
		}
		if err == nil && !found {
			err = store.ErrNotFound
		}
		return err
	})
	return dst, err
}

// Put runs the upsert, as its own BEGIN IMMEDIATE … COMMIT unless a batch
// is open.
func (c *ncConn) Put(key uint64, value []byte) error {
	return c.write(c.stmts.put, false, func(s *nsqlite.Stmt) error {
		return errors.Join(s.BindInt64(1, keyArg(key)), s.BindBlob(2, value))
	})
}

// Insert runs a plain INSERT: an existing key fails with class constraint.
func (c *ncConn) Insert(key uint64, value []byte) error {
	return c.write(c.stmts.insert, false, func(s *nsqlite.Stmt) error {
		return errors.Join(s.BindInt64(1, keyArg(key)), s.BindBlob(2, value))
	})
}

// Update runs the update, or overwrites the value in place through a blob
// handle (which must keep its size); a missing key is ErrNotFound.
func (c *ncConn) Update(key uint64, value []byte) error {
	if c.blob {
		return c.blobWrite(key, value)
	}
	return c.write(c.stmts.update, true, func(s *nsqlite.Stmt) error {
		return errors.Join(s.BindBlob(1, value), s.BindInt64(2, keyArg(key)))
	})
}

// Delete runs the delete; a missing key is ErrNotFound.
func (c *ncConn) Delete(key uint64) error {
	return c.write(c.stmts.del, true, func(s *nsqlite.Stmt) error { return s.BindInt64(1, keyArg(key)) })
}

// write executes one write statement as its own transaction, or inside
// the open batch (see txn.write).
func (c *ncConn) write(s *nsqlite.Stmt, mustExist bool, bind func(*nsqlite.Stmt) error) error {
	return c.txn.write(func() error {
		err := bind(s)
		if err == nil {
			err = s.Exec()
		}
		if err == nil && mustExist && c.c.Changes() == 0 {
			err = store.ErrNotFound
		}
		return err
	})
}

// openBlob opens the value of key for incremental I/O. SQLite says
// "no such rowid" with a plain SQLITE_ERROR: that is a missing key.
func (c *ncConn) openBlob(key uint64, write bool) (*nsqlite.Blob, error) {
	b, err := c.c.OpenBlob("main", "kv", "v", keyArg(key), write)
	if err != nil {
		if strings.Contains(err.Error(), "no such rowid") {
			return nil, store.ErrNotFound
		}
		return nil, err
	}
	return b, nil
}

// blobRead reads key's value with sqlite3_blob_read, in its own read
// transaction unless a batch is open.
func (c *ncConn) blobRead(key uint64, dst []byte) ([]byte, error) {
	dst = dst[:0]
	err := c.txn.read(func() error {
		b, err := c.openBlob(key, false)
		if err != nil {
			return err
		}
		n := int(b.Size())
		dst = slices.Grow(dst[:0], n)[:n]
		_, err = io.ReadFull(b, dst)
		if cerr := b.Close(); err == nil {
			err = cerr
		}
		return err
	})
	if err != nil {
		dst = dst[:0]
	}
	return dst, err
}

// blobWrite overwrites key's value with sqlite3_blob_write, as its own
// BEGIN IMMEDIATE … COMMIT unless a batch is open.
func (c *ncConn) blobWrite(key uint64, value []byte) error {
	return c.txn.write(func() error {
		b, err := c.openBlob(key, true)
		if err != nil {
			return err
		}
		if b.Size() != int64(len(value)) {
			err = fmt.Errorf("blob I/O cannot resize a value: key %d holds %d bytes, the update has %d", key, b.Size(), len(value))
		} else {
			_, err = b.Write(value)
		}
		if cerr := b.Close(); err == nil {
			err = cerr
		}
		return err
	})
}

// Last reads the highest key in [lo, hi] and its value, in one SELECT
// that walks the primary key down from hi.
func (c *ncConn) Last(lo, hi uint64, dst []byte) (uint64, []byte, error) {
	s := c.stmts.last
	var key int64
	dst = dst[:0]
	err := c.txn.read(func() error {
		dst = dst[:0]
		if err := errors.Join(s.BindInt64(1, keyArg(lo)), s.BindInt64(2, keyArg(hi))); err != nil {
			return err
		}
		row := s.Step()
		if row {
			key, dst = s.ColumnInt64(0), append(dst, s.ColumnRawBlob(1)...)
		}
		err := s.Err()
		if rerr := s.Reset(); err == nil {
			err = rerr
		}
		if err == nil && !row {
			err = store.ErrNotFound
		}
		return err
	})
	if err != nil {
		return 0, dst[:0], err
	}
	return uint64(key), dst, nil
}

// Scan reads up to n rows in key order from the first key at or above
// from, in one SELECT.
func (c *ncConn) Scan(from uint64, n int) (int, error) {
	s := c.stmts.scan
	read := 0
	err := c.txn.read(func() error {
		read = 0
		if err := errors.Join(s.BindInt64(1, keyArg(from)), s.BindInt64(2, int64(n))); err != nil {
			return err
		}
		for s.Step() {
			_ = s.ColumnRawBlob(1)
			read++
		}
		err := s.Err()
		if rerr := s.Reset(); err == nil {
			err = rerr
		}
		return err
	})
	return read, err
}

// Close rolls back any open transaction, then closes the statements and
// the connection; twice is a no-op.
func (c *ncConn) Close() error {
	if c.closed {
		return nil
	}
	c.closed = true
	err := c.Rollback()
	_ = c.stmts.closeAll()
	_ = closeUser(c.user)
	_ = c.recs.closeAll()
	if cerr := c.c.Close(); err == nil {
		err = c.d.wrap(cerr)
	}
	return err
}
