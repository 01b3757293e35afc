package sqlite

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"net/url"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gobench/gobench/pkg/store"
)

// applicationID marks a database as gobench's own ("gbnc"), in the
// application_id field of the SQLite header.
const applicationID = 0x67626e63

// db is an SQLite database file, or an in-memory database.
type db struct {
	d     *Driver
	path  string
	opts  Options
	reuse bool // take a database gobench did not create (replacing only its own tables)
	// table is the record table the store keeps besides kv, if any.
	table *store.Table
	// replaces are the tables of the plan's own schema (see
	// store.Config.Replaces).
	replaces []string
	// bare: no kv table, no op statements (store.Config.Bare).
	bare bool

	// keeper holds an in-memory database open for the store's life: it
	// would vanish with its last connection. reusedJournal is the journal
	// mode of a database taken with Reuse, which Close restores.
	mu            sync.Mutex
	keeper        rawConn
	reusedJournal string
	reusedID      string      // the application_id of a database taken with Reuse, which Close restores
	reusedFile    os.FileInfo // the file taken with Reuse: Close restores that file alone

	// vfs is the tracing VFS the connections open through ("" for the
	// driver's default).
	vfs string
	// record, in a worker process of a --crash run, is where the
	// process records its I/O from its first connection on.
	record *store.Record

	// cOps counts the ops the store's connections ran in loops in C
	// (store.LoopRunner).
	cOps atomic.Int64
}

// looper is a connection that can run loops in C (store.LoopRunner): on
// says whether the options allow it, and every op run is added to ops.
type looper interface {
	setLoop(on bool, ops *atomic.Int64)
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
	u := dsn(s.path, mode) + fmt.Sprintf("&_busy_timeout=%d", s.opts.openBusyTimeoutMS())
	if s.vfs != "" {
		u += "&vfs=" + s.vfs
	}
	return u
}

// traceVFS registers the driver's tracing VFS, if it has one, and has
// this store's file connections open through it: every connection of
// a run counts its I/O, whether it does anything with the counts or not.
func (s *db) traceVFS() error {
	tb, ok := s.d.be.(tracingBackend)
	if !ok || s.opts.Memory {
		return nil
	}
	name, err := tb.traceVFS()
	if err != nil {
		return fmt.Errorf("driver %s: %w", s.d.name, err)
	}
	s.vfs = name
	return nil
}

// dsn returns a file: URI for path; mode is "rw" or "rwc".
func dsn(path, mode string) string {
	u := url.URL{Scheme: "file", Opaque: (&url.URL{Path: path}).EscapedPath(), RawQuery: "mode=" + mode}
	return u.String()
}

// Init refuses a database gobench did not create (see Precheck), then marks
// the file, sets the journal mode and recreates the kv table (and the
// record table), empty. The journal mode is in force before the schema
// exists. An existing file, even an empty one, is refused unless it
// carries gobench's mark or Reuse is set; with Reuse the database's own
// journal mode and application_id are noted, and Close puts them back.
// Either way a table of a name the run replaces that gobench did not
// create is refused (checkTables), within the transaction that replaces
// the tables, so that no other program's table can come between the
// check and the drop.
//
// Cancelling ctx stops the statement under way (sqlite3_interrupt, or the
// driver's equivalent): a VACUUM of a large database too.
func (s *db) Init(ctx context.Context) error {
	if s.opts.Memory {
		if err := s.keep(); err != nil {
			return err
		}
	} else if err := s.Precheck(); err != nil {
		return err
	} else if _, err := os.Stat(s.path); err == nil && s.reuse {
		if err := s.noteJournal(); err != nil {
			return err
		}
	}
	c, err := s.open("rwc")
	if err != nil {
		return s.lockedErr(err)
	}
	defer c.Close()
	owned := true // the database was gobench's before the run took it
	if s.reusedJournal != "" {
		id, err := c.queryString("PRAGMA application_id")
		if err != nil {
			return s.lockedErr(fmt.Errorf("reading the application_id of %s: %w", s.path, s.d.wrap(err)))
		}
		s.mu.Lock()
		s.reusedID = id
		s.mu.Unlock()
		owned = id == strconv.Itoa(applicationID)
	}
	defer c.interruptible(ctx)()
	fail := func(q string, err error) error {
		_ = c.exec("ROLLBACK")
		return s.lockedErr(fmt.Errorf("initialising %s: %s: %w", s.path, q, interrupted(ctx, s.d.wrap(err))))
	}
	if err := c.exec("BEGIN IMMEDIATE"); err != nil {
		return fail("BEGIN IMMEDIATE", err)
	}
	if err := s.checkTables(c, owned); err != nil {
		_ = c.exec("ROLLBACK")
		return err
	}
	rerun, err := c.queryString("SELECT count(*) FROM sqlite_schema WHERE name='kv'")
	if err != nil {
		return fail("reading the schema", err)
	}
	// Every table the run replaces is gobench's (or absent): drop it
	// and create it anew, empty, as kv.
	steps := []string{fmt.Sprintf("PRAGMA application_id=%d", applicationID)}
	if !s.bare {
		steps = append(steps, "DROP TABLE IF EXISTS kv", schemaSQL)
	}
	if s.table != nil {
		t := newTableSQL(*s.table)
		steps = append(steps, t.drop, t.create)
	}
	steps = append(steps, "COMMIT")
	if rerun != "0" && owned {
		// A rerun on gobench's own file: compact it, so every run starts
		// from an equivalent database. Not on a database taken with Reuse
		// from another program: VACUUM may renumber the rowids of its
		// tables.
		steps = append(steps, "VACUUM")
	}
	for _, q := range steps {
		if err := c.exec(q); err != nil {
			return fail(q, err)
		}
	}
	return nil
}

// lockedErr says plainly that the database is locked by another process
// when err is a busy or locked failure; other errors pass as they are.
func (s *db) lockedErr(err error) error {
	if c := store.Classify(err); c == store.Busy || c == store.Locked {
		return fmt.Errorf("%s is locked by another process, which kept it past the busy timeout of %d ms: try again once it is free: %w", s.path, s.opts.openBusyTimeoutMS(), err)
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
	fi, err := f.Stat()
	if err != nil {
		return fmt.Errorf("reading the header of %s: %w", s.path, err)
	}
	var h [20]byte
	mode := "delete"
	if n, _ := f.ReadAt(h[:], 0); n == len(h) && h[18] == 2 && h[19] == 2 {
		mode = "wal"
	}
	s.mu.Lock()
	s.reusedJournal, s.reusedFile = mode, fi
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
	if s.record != nil {
		if err := s.startProcRecording(*s.record); err != nil {
			return nil, err
		}
	}
	c, err := s.open("rw")
	if err == nil {
		err = s.opsBusyTimeout(c)
	}
	if err != nil {
		return nil, err
	}
	oc, err := c.ops(s.d, s.opts.API == APIBlob, s.bare, time.Duration(s.opts.BusyTimeoutMS)*time.Millisecond)
	if err != nil {
		c.Close()
		return nil, err
	}
	// After ops: capi's busy handler, installed there, turns blocking
	// locks off.
	if err := s.lockWait(c); err != nil {
		oc.Close()
		return nil, err
	}
	if l, ok := oc.(looper); ok {
		l.setLoop(!bool(s.opts.NoCLoop), &s.cOps)
	}
	if s.table != nil {
		if err := oc.(tableConn).prepareTable(*s.table); err != nil {
			oc.Close()
			return nil, err
		}
	}
	return oc, nil
}

// opsBusyTimeout gives a connection opened under the setup's busy timeout
// the ops' own (see Options.SetupBusyTimeoutMS).
func (s *db) opsBusyTimeout(c rawConn) error {
	if s.opts.openBusyTimeoutMS() == s.opts.BusyTimeoutMS {
		return nil
	}
	q := fmt.Sprintf("PRAGMA busy_timeout=%d", s.opts.BusyTimeoutMS)
	if _, err := c.queryString(q); err != nil {
		c.Close()
		return fmt.Errorf("opening %s: %s: %w", s.path, q, s.d.wrap(err))
	}
	return nil
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

// Close releases the in-memory database's keeper, if any, gives a
// database taken with Reuse its application_id and journal mode back,
// and ends a worker process's recording of a --crash run, returning the
// error of an append that failed; connections own every other resource
// and must be closed first.
func (s *db) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	var restore []string
	if id := s.reusedID; id != "" && id != strconv.Itoa(applicationID) {
		restore = append(restore, "PRAGMA application_id="+id)
	}
	if j := s.reusedJournal; j != "" && (j == "wal") != (journalModes[s.opts.Journal] == "wal") {
		restore = append(restore, "PRAGMA journal_mode="+j)
	}
	err := s.restore(restore)
	if s.keeper != nil {
		err = errors.Join(err, s.keeper.Close())
		s.keeper = nil
	}
	if s.record != nil {
		// A worker process's recording ends with its store: an append
		// that failed (a full disk) left its part of the record short,
		// which no state may be built from. That is the run's error,
		// not a record that reached its limit.
		if rerr := s.stopProcRecording(); rerr != nil {
			err = errors.Join(err, fmt.Errorf("--crash: this process's part of the record is incomplete: %w", rerr))
		}
	}
	return err
}

// restore sets back, with the pragmas qs, what of a reused database the
// run changed: on the file the run took, not on another moved to its
// path since, which would get the first one's settings.
func (s *db) restore(qs []string) error {
	if len(qs) == 0 {
		return nil
	}
	if fi, err := os.Stat(s.path); err != nil || !os.SameFile(fi, s.reusedFile) {
		return fmt.Errorf("%s was moved or replaced during the run: the database there now is not the one the run took, so its application_id and journal mode were left as they are (the one the run took keeps gobench's)", s.path)
	}
	c, err := s.d.be.open(s.dsn("rw"))
	if err != nil {
		return fmt.Errorf("restoring the settings of %s: %w", s.path, s.d.wrap(err))
	}
	defer c.Close()
	for _, q := range append([]string{fmt.Sprintf("PRAGMA busy_timeout=%d", s.opts.openBusyTimeoutMS())}, qs...) {
		if _, err := c.queryString(q); err != nil {
			return fmt.Errorf("restoring the settings of %s: %s: %w", s.path, q, s.d.wrap(err))
		}
	}
	return nil
}

// open opens one connection and applies the options, busy timeout first so
// that the following pragmas wait for locks like any statement (the
// setup's timeout, where it is longer: see Options.SetupBusyTimeoutMS).
func (s *db) open(mode string) (rawConn, error) {
	c, err := s.d.be.open(s.dsn(mode))
	if err != nil {
		return nil, fmt.Errorf("opening %s: %w", s.path, s.d.wrap(err))
	}
	journal := journalModes[s.opts.Journal]
	pragmas := []string{
		fmt.Sprintf("PRAGMA busy_timeout=%d", s.opts.openBusyTimeoutMS()),
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
