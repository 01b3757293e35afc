package sqlite

import (
	"context"
	"database/sql/driver"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"math"
	"net/url"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gobench/gobench/pkg/store"
)

// applicationID marks a database as gobench's own ("gbnc"), in the
// application_id field of the SQLite header.
const applicationID = 0x67626e63

// Statements of the kv schema. The read and the upsert are the statements
// of the classic WAL-vs-rollback benchmark.
const (
	schemaSQL   = `CREATE TABLE kv(k INTEGER PRIMARY KEY, v BLOB NOT NULL)`
	getSQL      = `SELECT * FROM kv WHERE k=?`
	putSQL      = `INSERT INTO kv(k,v) VALUES(?,?) ON CONFLICT(k) DO UPDATE SET v=excluded.v`
	updateSQL   = `UPDATE kv SET v=? WHERE k=?`
	insertSQL   = `INSERT INTO kv(k,v) VALUES(?,?)`
	scanSQL     = `SELECT k, v FROM kv WHERE k>=? ORDER BY k LIMIT ?`
	deleteSQL   = `DELETE FROM kv WHERE k=?`
	beginSQL    = `BEGIN IMMEDIATE`
	commitSQL   = `COMMIT`
	rollbackSQL = `ROLLBACK`
)

// Driver is a store.Driver for SQLite through one Go binding. Every
// connection is one SQLite connection with its statements prepared once;
// mattn's and modernc's are used through database/sql/driver directly (no
// database/sql pool, no per-call context), ncruces's through its own API.
type Driver struct {
	name string
	be   backend
}

// backend is how one Go binding opens SQLite connections.
type backend interface {
	// open opens a connection to a file: URI.
	open(dsn string) (rawConn, error)
	// code extracts SQLite's (possibly extended) result code from one of
	// the binding's errors.
	code(err error) (int, bool)
}

// rawConn is an open SQLite connection, before it serves ops.
type rawConn interface {
	exec(q string) error
	// queryString runs a one-row, one-column query and returns the value
	// as text ("" for no row).
	queryString(q string) (string, error)
	// ops prepares the op statements and returns the connection as a
	// store.Conn, which owns it from then on; with blob, reads and updates
	// use incremental blob I/O (only for a blobBackend's connections).
	ops(d *Driver, blob bool, busyTimeout time.Duration) (store.Conn, error)
	Close() error
}

// blobBackend is a backend whose connections can do incremental blob I/O.
type blobBackend interface {
	backend
	blobIO()
}

var _ store.Driver = (*Driver)(nil)

// Name returns the name the driver is registered under.
func (d *Driver) Name() string { return d.name }

// Open checks cfg and returns a store for the database at cfg.Path. It
// touches no file: Init creates the database, Conn opens it.
func (d *Driver) Open(_ context.Context, cfg store.Config) (store.Store, error) {
	opts, err := DecodeOptions(cfg.Options)
	if err != nil {
		return nil, err
	}
	if cfg.Path == "" {
		return nil, fmt.Errorf("%w: no database path", store.ErrInvalid)
	}
	if _, ok := d.be.(blobBackend); opts.API == APIBlob && !ok {
		return nil, fmt.Errorf("%w: the %s driver has no incremental blob I/O (its Go API does not expose sqlite3_blob_open); use the ncruces driver, which has it", store.ErrInvalid, d.name)
	}
	return &db{d: d, path: cfg.Path, opts: opts, reuse: cfg.Reuse}, nil
}

// db is an SQLite database file, or an in-memory database.
type db struct {
	d     *Driver
	path  string
	opts  Options
	reuse bool // take a database gobench did not create (replacing only its kv table)

	// keeper holds an in-memory database open for the store's life: it
	// would vanish with its last connection. reusedJournal is the journal
	// mode of a database taken with Reuse, which Close restores.
	mu            sync.Mutex
	keeper        rawConn
	reusedJournal string
}

var _ store.Store = (*db)(nil)
var _ store.Describer = (*db)(nil)

// dsn returns the URI this store's connections open.
func (s *db) dsn(mode string) string {
	if s.opts.Memory {
		// A memdb database is shared by a process's connections to the same
		// name, which must start with "/"; the path makes it unique.
		h := fnv.New64a()
		h.Write([]byte(s.path))
		return fmt.Sprintf("file:/gobench-%016x?vfs=memdb", h.Sum64())
	}
	// mattn runs statements while it opens a connection, before any
	// PRAGMA of gobench's, under its own 5 s busy timeout unless the URI
	// gives one (SQLite and the other drivers ignore the parameter).
	return dsn(s.path, mode) + fmt.Sprintf("&_busy_timeout=%d", s.opts.BusyTimeoutMS)
}

// dsn returns a file: URI for path; mode is "rw" or "rwc".
func dsn(path, mode string) string {
	u := url.URL{Scheme: "file", Opaque: (&url.URL{Path: path}).EscapedPath(), RawQuery: "mode=" + mode}
	return u.String()
}

// Init refuses a database gobench did not create, then marks the file,
// sets the journal mode and recreates the kv table, empty. The journal
// mode is in force before the schema exists. An existing file, even an
// empty one, is refused unless it carries gobench's mark or Reuse is set;
// with Reuse the database's own journal mode is noted, and Close puts it
// back.
func (s *db) Init(_ context.Context) error {
	if s.opts.Memory {
		if err := s.keep(); err != nil {
			return err
		}
	} else if fi, err := os.Stat(s.path); err == nil && fi.IsDir() {
		return fmt.Errorf("%w: %s is a directory, not a database file (give a file path)", store.ErrInvalid, s.path)
	} else if err == nil && !s.reuse {
		if fi.Size() == 0 {
			return fmt.Errorf("%w: %s exists and is empty: gobench did not create it; give a new path, or --reuse to let gobench take it", store.ErrForeign, s.path)
		}
		if err := s.checkOwned(); err != nil {
			return err
		}
	} else if err == nil && s.reuse {
		if err := s.noteJournal(); err != nil {
			return err
		}
	}
	c, err := s.open("rwc")
	if err != nil {
		return s.lockedErr(err)
	}
	defer c.Close()
	steps := []string{fmt.Sprintf("PRAGMA application_id=%d", applicationID)}
	if n, err := c.queryString("SELECT count(*) FROM sqlite_schema WHERE name='kv'"); err == nil && n != "0" {
		// A rerun on gobench's own file: drop the table and compact the
		// file, so every run starts from an equivalent database.
		steps = append(steps, "DROP TABLE kv", "VACUUM")
	}
	for _, q := range append(steps, schemaSQL) {
		if err := c.exec(q); err != nil {
			return s.lockedErr(fmt.Errorf("initialising %s: %s: %w", s.path, q, s.d.wrap(err)))
		}
	}
	return nil
}

// lockedErr says plainly that the database is locked by another process
// when err is a busy or locked failure; other errors pass as they are.
func (s *db) lockedErr(err error) error {
	if c := store.Classify(err); c == store.Busy || c == store.Locked {
		return fmt.Errorf("%s is locked by another process, which kept it past the busy timeout of %d ms: try again once it is free: %w", s.path, s.opts.BusyTimeoutMS, err)
	}
	return err
}

// readOnlyDSN opens path without changing anything: immutable, so SQLite
// takes no lock, makes no -wal or -shm file and rolls back no hot journal
// (it reads the database file as it is, which holds the header).
func readOnlyDSN(path string) string { return dsn(path, "ro") + "&immutable=1" }

// noteJournal records the journal mode of a database gobench takes with
// Reuse, for Close to restore. Only WAL outlives a connection (the file's
// header says so: read and write versions 2); every other mode is the
// rollback journal as far as the file is concerned.
func (s *db) noteJournal() error {
	f, err := os.Open(s.path)
	if err != nil {
		return fmt.Errorf("reading the header of %s: %w", s.path, err)
	}
	defer f.Close()
	var h [20]byte
	mode := "delete"
	if n, _ := f.ReadAt(h[:], 0); n == len(h) && h[18] == 2 && h[19] == 2 {
		mode = "wal"
	}
	s.mu.Lock()
	s.reusedJournal = mode
	s.mu.Unlock()
	return nil
}

// checkOwned returns ErrForeign unless the existing file at s.path is a
// SQLite database carrying gobench's application id. It reads the file
// immutable: a refused database is left exactly as it was, with no -wal or
// -shm file beside it, whatever locks others hold on it.
func (s *db) checkOwned() error {
	hot := ""
	if fi, err := os.Stat(s.path + "-journal"); err == nil && fi.Size() > 0 {
		hot = fmt.Sprintf(" (it has a hot journal, %s-journal: a writer stopped in the middle of a transaction)", s.path)
	}
	c, err := s.d.be.open(readOnlyDSN(s.path))
	if err != nil {
		return fmt.Errorf("%w: %s exists and cannot be opened as SQLite (%v)%s; gobench only writes to databases it created", store.ErrForeign, s.path, err, hot)
	}
	defer c.Close()
	id, err := c.queryString("PRAGMA application_id")
	if err != nil {
		return fmt.Errorf("%w: %s exists and is not a SQLite database (%v)%s; gobench only writes to databases it created", store.ErrForeign, s.path, err, hot)
	}
	if id != strconv.Itoa(applicationID) {
		return fmt.Errorf("%w: %s exists and was not created by gobench (application_id %s)%s; choose a new path: gobench never modifies a database it did not create", store.ErrForeign, s.path, id, hot)
	}
	return nil
}

// Conn opens a connection with every option applied and every statement
// prepared.
func (s *db) Conn(_ context.Context) (store.Conn, error) {
	c, err := s.open("rw")
	if err != nil {
		return nil, err
	}
	oc, err := c.ops(s.d, s.opts.API == APIBlob, time.Duration(s.opts.BusyTimeoutMS)*time.Millisecond)
	if err != nil {
		c.Close()
		return nil, err
	}
	return oc, nil
}

// keep opens the connection that keeps an in-memory database alive.
func (s *db) keep() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.keeper != nil {
		return nil
	}
	c, err := s.d.be.open(s.dsn("rwc"))
	if err != nil {
		return fmt.Errorf("opening an in-memory database: %w", s.d.wrap(err))
	}
	s.keeper = c
	return nil
}

// Close releases the in-memory database's keeper, if any, and gives a
// database taken with Reuse its journal mode back; connections own every
// other resource and must be closed first.
func (s *db) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	var err error
	if j := s.reusedJournal; j != "" && (j == "wal") != (journalModes[s.opts.Journal] == "wal") {
		err = s.restoreJournal(j)
	}
	if s.keeper != nil {
		err = errors.Join(err, s.keeper.Close())
		s.keeper = nil
	}
	return err
}

// restoreJournal sets a reused database's journal mode back to j.
func (s *db) restoreJournal(j string) error {
	c, err := s.d.be.open(s.dsn("rw"))
	if err != nil {
		return fmt.Errorf("restoring the journal mode of %s: %w", s.path, s.d.wrap(err))
	}
	defer c.Close()
	for _, q := range []string{fmt.Sprintf("PRAGMA busy_timeout=%d", s.opts.BusyTimeoutMS), "PRAGMA journal_mode=" + j} {
		if _, err := c.queryString(q); err != nil {
			return fmt.Errorf("restoring the journal mode of %s: %s: %w", s.path, q, s.d.wrap(err))
		}
	}
	return nil
}

// open opens one connection and applies the options, busy timeout first so
// that the following pragmas wait for locks like any statement.
func (s *db) open(mode string) (rawConn, error) {
	c, err := s.d.be.open(s.dsn(mode))
	if err != nil {
		return nil, fmt.Errorf("opening %s: %w", s.path, s.d.wrap(err))
	}
	journal := journalModes[s.opts.Journal]
	pragmas := []string{
		fmt.Sprintf("PRAGMA busy_timeout=%d", s.opts.BusyTimeoutMS),
		"PRAGMA journal_mode=" + journal,
		"PRAGMA synchronous=" + s.opts.Sync,
	}
	if c := s.opts.Checkpoint; c != "" {
		n, _ := checkpointPages(c) // validated
		pragmas = append(pragmas, fmt.Sprintf("PRAGMA wal_autocheckpoint=%d", n))
	}
	for _, q := range pragmas {
		got, err := c.queryString(q)
		if err != nil {
			c.Close()
			return nil, fmt.Errorf("opening %s: %s: %w", s.path, q, s.d.wrap(err))
		}
		if strings.HasPrefix(q, "PRAGMA journal_mode") && !strings.EqualFold(got, journal) {
			c.Close()
			return nil, fmt.Errorf("%w: %s: SQLite kept journal mode %q instead of %q (WAL needs shared memory; some filesystems refuse it)", store.ErrInvalid, s.path, got, journal)
		}
	}
	return c, nil
}

var _ store.LogObserver = (*db)(nil)

// LogState reads the -wal file's size and, from its header, the checkpoint
// sequence number, which SQLite increments each time a writer restarts
// the log after a complete checkpoint. A WAL that does not exist yet is
// empty.
func (s *db) LogState() (bytes int64, resets uint32, ok bool) {
	if s.opts.Memory || journalModes[s.opts.Journal] != "wal" {
		return 0, 0, false
	}
	f, err := os.Open(s.path + "-wal")
	if err != nil {
		return 0, 0, true
	}
	defer f.Close()
	var h [16]byte
	if fi, err := f.Stat(); err == nil {
		bytes = fi.Size()
	}
	if n, _ := f.ReadAt(h[:], 0); n == len(h) {
		resets = binary.BigEndian.Uint32(h[12:]) // bytes 12-15: checkpoint sequence number
	}
	return bytes, resets, true
}

var _ store.Checker = (*db)(nil)

// Check runs PRAGMA integrity_check.
func (s *db) Check(_ context.Context) ([]string, error) {
	c, err := s.open("rw")
	if err != nil {
		return nil, err
	}
	defer c.Close()
	v, err := c.queryString("PRAGMA integrity_check(1)")
	if err != nil {
		return nil, s.d.wrap(err)
	}
	if v == "ok" {
		return nil, nil
	}
	return []string{v}, nil
}

// Describe reads back, on a connection configured like the workers', the
// SQLite version and the settings in force.
func (s *db) Describe(_ context.Context) ([]store.Fact, error) {
	c, err := s.open("rw")
	if err != nil {
		return nil, err
	}
	defer c.Close()
	facts := []store.Fact{{Name: "driver", Value: s.d.name}}
	if s.opts.API == APIBlob {
		facts = append(facts, store.Fact{Name: "api", Value: "blob (incremental blob I/O)"})
	}
	if _, ok := s.d.be.(blobBackend); ok && s.opts.BusyTimeoutMS > 0 {
		facts = append(facts, store.Fact{Name: "busy_handler", Value: "a Go callback waiting as ncruces's busy_timeout does, its calls and waits counted"})
	}
	for _, q := range []struct{ name, sql string }{
		{"sqlite_version", "SELECT sqlite_version()"},
		{"journal_mode", "PRAGMA journal_mode"},
		{"synchronous", "PRAGMA synchronous"},
		{"busy_timeout_ms", "PRAGMA busy_timeout"},
		{"page_size", "PRAGMA page_size"},
		{"locking_mode", "PRAGMA locking_mode"},
		{"cache_size", "PRAGMA cache_size"},
		{"mmap_size", "PRAGMA mmap_size"},
		{"wal_autocheckpoint", "PRAGMA wal_autocheckpoint"},
		{"journal_size_limit", "PRAGMA journal_size_limit"},
		{"temp_store", "PRAGMA temp_store"},
		{"auto_vacuum", "PRAGMA auto_vacuum"},
		{"foreign_keys", "PRAGMA foreign_keys"},
		{"compile_options", "SELECT group_concat(compile_options, ' ') FROM pragma_compile_options"},
	} {
		v, err := c.queryString(q.sql)
		if err != nil {
			return nil, fmt.Errorf("describing %s: %s: %w", s.path, q.sql, s.d.wrap(err))
		}
		if q.name == "synchronous" {
			if n, err := strconv.Atoi(v); err == nil && n >= 0 && n < len(SyncLevels()) {
				v = SyncLevels()[n]
			}
		}
		facts = append(facts, store.Fact{Name: q.name, Value: v})
	}
	return facts, nil
}

// sqlBackend is a binding used through database/sql/driver.
type sqlBackend struct {
	drv    driver.Driver
	codeOf func(error) (int, bool)
	// autocommit returns a probe of sqlite3_get_autocommit on one of the
	// binding's connections, and a function that releases the probe.
	autocommit func(driver.Conn) (probe func() bool, release func(), err error)
}

func (b sqlBackend) code(err error) (int, bool) { return b.codeOf(err) }

func (b sqlBackend) open(dsn string) (rawConn, error) {
	c, err := b.drv.Open(dsn)
	if err != nil {
		return nil, err
	}
	return &sqlRaw{c: c, be: b}, nil
}

// sqlRaw is a database/sql/driver connection before it serves ops.
type sqlRaw struct {
	c  driver.Conn
	be sqlBackend
}

func (r *sqlRaw) exec(q string) error                  { return execOnce(r.c, q) }
func (r *sqlRaw) queryString(q string) (string, error) { return queryString(r.c, q) }
func (r *sqlRaw) Close() error                         { return r.c.Close() }

func (r *sqlRaw) ops(d *Driver, _ bool, _ time.Duration) (store.Conn, error) {
	probe, release, err := r.be.autocommit(r.c)
	if err != nil {
		return nil, fmt.Errorf("driver %s: %w", d.name, err)
	}
	c := &conn{c: r.c, d: d, autocommitProbe: probe, releaseProbe: release}
	c.txn = txn{steps: c, d: d}
	if err := c.prepare(); err != nil {
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

	get, put, update, del, insert, scan, begin, commit, rollback stmt

	autocommitProbe func() bool
	releaseProbe    func()
	closed          bool
	args1           [1]driver.NamedValue
	args2           [2]driver.NamedValue
	dest            [2]driver.Value
}

var (
	_ store.Conn        = (*conn)(nil)
	_ store.Updater     = (*conn)(nil)
	_ store.Deleter     = (*conn)(nil)
	_ store.Batcher     = (*conn)(nil)
	_ store.Inserter    = (*conn)(nil)
	_ store.Scanner     = (*conn)(nil)
	_ store.TxProber    = (*conn)(nil)
	_ store.BusyRetrier = (*conn)(nil)

	_ store.BusyStepCounter = (*conn)(nil)
)

// stmt is a prepared statement through the context-taking driver
// interfaces, which both drivers implement.
type stmt interface {
	driver.Stmt
	driver.StmtExecContext
	driver.StmtQueryContext
}

// bg is the context of every operation: never cancelled, so neither driver
// starts a cancellation watcher per call.
var bg = context.Background()

func (c *conn) prepare() error {
	for _, p := range []struct {
		dst *stmt
		sql string
	}{
		{&c.get, getSQL}, {&c.put, putSQL}, {&c.update, updateSQL}, {&c.del, deleteSQL}, {&c.insert, insertSQL}, {&c.scan, scanSQL},
		{&c.begin, beginSQL}, {&c.commit, commitSQL}, {&c.rollback, rollbackSQL},
	} {
		ds, err := c.c.Prepare(p.sql)
		if err != nil {
			c.closeStmts()
			return fmt.Errorf("preparing %q: %w", p.sql, c.d.wrap(err))
		}
		s, ok := ds.(stmt)
		if !ok {
			ds.Close()
			c.closeStmts()
			return fmt.Errorf("driver %s: prepared statements lack the context interfaces", c.d.name)
		}
		*p.dst = s
	}
	for i := range c.args1 {
		c.args1[i].Ordinal = i + 1
	}
	for i := range c.args2 {
		c.args2[i].Ordinal = i + 1
	}
	return nil
}

func (c *conn) execBegin() error    { _, err := c.begin.ExecContext(bg, nil); return err }
func (c *conn) execCommit() error   { _, err := c.commit.ExecContext(bg, nil); return err }
func (c *conn) execRollback() error { _, err := c.rollback.ExecContext(bg, nil); return err }
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
	dst = dst[:0]
	err := c.txn.read(func() error {
		rows, err := c.get.QueryContext(bg, c.args1[:])
		if err != nil {
			return err
		}
		err = rows.Next(c.dest[:])
		dst = dst[:0]
		if err == nil {
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
	return dst, err
}

// Put runs the upsert, inside BEGIN IMMEDIATE … COMMIT unless a batch is
// open: the write lock is taken up front, so that in WAL mode a write never
// fails on a stale read snapshot (SQLITE_BUSY_SNAPSHOT), whatever the busy
// timeout.
func (c *conn) Put(key uint64, value []byte) error {
	c.args2[0].Value = keyArg(key)
	c.args2[1].Value = value
	return c.write(c.put, c.args2[:], false)
}

// Update runs the update; a missing key is ErrNotFound.
func (c *conn) Update(key uint64, value []byte) error {
	c.args2[0].Value = value
	c.args2[1].Value = keyArg(key)
	return c.write(c.update, c.args2[:], true)
}

// Insert runs a plain INSERT: an existing key fails with class constraint.
func (c *conn) Insert(key uint64, value []byte) error {
	c.args2[0].Value = keyArg(key)
	c.args2[1].Value = value
	return c.write(c.insert, c.args2[:], false)
}

// Scan reads up to n rows in key order from the first key at or above
// from, in one SELECT.
func (c *conn) Scan(from uint64, n int) (int, error) {
	c.args2[0].Value = keyArg(from)
	c.args2[1].Value = int64(n)
	read := 0
	err := c.txn.read(func() error {
		read = 0
		rows, err := c.scan.QueryContext(bg, c.args2[:])
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
	return c.write(c.del, c.args1[:], true)
}

// write executes one write statement as its own transaction, or inside
// the open batch (see txn.write).
func (c *conn) write(s stmt, args []driver.NamedValue, mustExist bool) error {
	return c.txn.write(func() error {
		res, err := s.ExecContext(bg, args)
		if err == nil && mustExist {
			var n int64
			if n, err = res.RowsAffected(); err == nil && n == 0 {
				err = store.ErrNotFound
			}
		}
		return err
	})
}

func (c *conn) closeStmts() {
	for _, s := range []stmt{c.get, c.put, c.update, c.del, c.insert, c.scan, c.begin, c.commit, c.rollback} {
		if s != nil {
			_ = s.Close()
		}
	}
}

// Close rolls back any open transaction, then closes the statements and
// the connection; twice is a no-op.
func (c *conn) Close() error {
	if c.closed {
		return nil
	}
	c.closed = true
	first := c.Rollback()
	for _, s := range []stmt{c.get, c.put, c.update, c.del, c.insert, c.scan, c.begin, c.commit, c.rollback} {
		if err := s.Close(); err != nil && first == nil {
			first = err
		}
	}
	c.releaseProbe()
	if err := c.c.Close(); err != nil && first == nil {
		first = err
	}
	return c.d.wrap(first)
}

// SQLite primary result codes gobench classifies.
const (
	codeBusy       = 5
	codeLocked     = 6
	codeIOErr      = 10
	codeFull       = 13
	codeConstraint = 19
)

// wrap tags a driver error with its class.
func (d *Driver) wrap(err error) error {
	if err == nil {
		return nil
	}
	code, ok := d.be.code(err)
	if !ok {
		return store.Wrap(store.Other, err)
	}
	return store.Wrap(classOf(code), err)
}

func classOf(code int) store.Class {
	switch code & 0xff {
	case codeBusy:
		return store.Busy
	case codeLocked:
		return store.Locked
	case codeIOErr:
		return store.IO
	case codeFull:
		return store.Full
	case codeConstraint:
		return store.Constraint
	}
	return store.Other
}

// execOnce prepares, runs and closes one statement.
func execOnce(c driver.Conn, q string) error {
	s, err := c.Prepare(q)
	if err != nil {
		return err
	}
	defer s.Close()
	_, err = s.(driver.StmtExecContext).ExecContext(bg, nil)
	return err
}

// queryString runs a one-row, one-column query and returns the value as
// text ("" for no row).
func queryString(c driver.Conn, q string) (string, error) {
	s, err := c.Prepare(q)
	if err != nil {
		return "", err
	}
	defer s.Close()
	rows, err := s.(driver.StmtQueryContext).QueryContext(bg, nil)
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
