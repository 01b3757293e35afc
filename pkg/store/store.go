package store

import (
	"context"
	"encoding/json"
	"fmt"
	"time"
)

// Config says which database to open and how. It is plain data: the
// coordinator serialises it into the plan every worker process reads.
type Config struct {
	// Path is the database file (or directory, for engines that keep one).
	Path string `json:"path"`
	// Options holds the engine's own settings as JSON; each engine decodes
	// and validates them into its own typed struct (for SQLite: journal
	// mode, synchronous level, busy timeout). Nil means the engine's
	// defaults.
	Options json.RawMessage `json:"options,omitempty"`
	// Reuse lets Init take an existing database gobench did not create:
	// the user consents to gobench adding its mark and replacing its own
	// data set there, and nothing else: a table of the same name as one
	// of gobench's that gobench did not create is refused (ErrForeign),
	// not replaced. Engines that cannot do so without destroying other
	// data refuse it.
	Reuse bool `json:"reuse,omitempty"`
	// Table, when set, is a table of records the store keeps besides its
	// key-value data (see Table): only a driver that implements Tabular
	// takes it, and Init creates it empty.
	Table *Table `json:"table,omitempty"`
	// Replaces names the tables, besides the engine's own and Table, that
	// the run's setup drops and creates anew as gobench's own (a built-in
	// sql workload's schema: each CREATE TABLE carries OwnMark). A SQL
	// engine refuses (ErrForeign) a database where one of them exists and
	// gobench did not create it; the user's own schema claims nothing.
	Replaces []string `json:"replaces,omitempty"`
	// Bare says the run keeps nothing of its own in the database: Init
	// sets the database up (its mark, its journal mode) without creating
	// the key-value table, and connections prepare no key-value
	// statements, so only statements given as text run on them
	// (Executor). A replayed trace's database is bare: it holds the
	// application's schema and nothing else.
	Bare bool `json:"bare,omitempty"`
	// Settings are Options by the names of the flags that set them (see
	// Namer), for reports and gates; engines read Options alone.
	Settings []Setting `json:"settings,omitempty"`
	// Record, set in the plan a worker process of a --crash run gets,
	// makes the process record its I/O on the database from its first
	// connection on (see PowerCutStore).
	Record *Record `json:"record,omitempty"`
}

// CheckTable refuses, with class ErrInvalid, a Config whose record table
// is not valid (Table.Validate); a Config without one passes.
func (c Config) CheckTable() error {
	if c.Table == nil {
		return nil
	}
	if err := c.Table.Validate(); err != nil {
		return fmt.Errorf("%w: %w", ErrInvalid, err)
	}
	return nil
}

// Driver opens stores of one engine. Drivers are registered in a Registry
// under their Name. A Driver must be safe for concurrent use.
type Driver interface {
	// Name is the name users select the driver by (for example "mattn").
	Name() string
	// Open opens the database described by cfg. Open must not touch the
	// database's files, create the schema or load data: the coordinator
	// calls Store.Init once for that, while every worker only calls Open
	// and Store.Conn, and a plan file is checked by opening and closing
	// the store of every cell. Open must fail with a wrapped error of
	// class ErrInvalid when cfg.Options do not decode or validate.
	Open(ctx context.Context, cfg Config) (Store, error)
}

// Store is an open database shared by the workers of one process.
// Conn may be called from several goroutines at once; Init and Close are
// called once, by one goroutine.
type Store interface {
	// Init prepares the database for a run: it refuses (with ErrForeign) a
	// database that gobench did not create, marks a new one as its own,
	// and (re)creates the schema, empty. Only the coordinator calls it,
	// before any worker starts; the preload comes after it, through a
	// Conn. A store of files claims its directory (see ClaimDir); a store
	// in memory, with nothing on disk to guard, only empties itself (or
	// does nothing, if it starts empty) and returns nil.
	Init(ctx context.Context) error
	// Conn returns a new connection for one worker. Everything the worker
	// needs to run ops (statements prepared, pragmas applied) is done here,
	// so that nothing but the operations themselves falls inside the
	// measured window.
	Conn(ctx context.Context) (Conn, error)
	// Close releases the store. Conns must be closed first.
	Close() error
}

// Prechecker is a Store that can tell, before anything else touches its
// database, whether Init would refuse it. Precheck only reads: it opens
// no connection that could write, takes no lock, leaves no file beside
// the database. A caller that locks the database for its run (which
// opens it for writing) calls Precheck first, so that a database gobench
// refuses is only ever read. Init checks the same again.
type Prechecker interface {
	Precheck() error
}

// Conn is one worker's connection. A Conn is used by one goroutine at a
// time. Its methods take no context: the measured path must not pay for
// cancellation plumbing (SQLite's database/sql drivers, mattn and modernc,
// start a goroutine per call for a cancellable context), so workers check
// for cancellation between operations instead.
//
// Errors returned by Conn methods should be classifiable by Classify; an
// engine wraps its native errors with the matching class (see Error).
type Conn interface {
	// Get reads the value of key, appending it to dst[:0] and returning the
	// result. A missing key returns an error of class ErrNotFound.
	Get(key uint64, dst []byte) ([]byte, error)
	// Put inserts or replaces the value of key (an upsert). Outside a batch
	// (see Batcher) the write is its own transaction, durable to the
	// engine's configured level when Put returns. value is the caller's
	// and valid only during the call (workers reuse one buffer for every
	// write): a store that keeps it must copy it. The same holds for
	// Update and Insert; the conformance check ValueNotKept tests it.
	Put(key uint64, value []byte) error
	// Close releases the connection. Closing twice returns nil.
	Close() error
}

// Updater is implemented by a Conn that can update an existing key only.
// Without it, an "update" op is not available on the engine.
type Updater interface {
	// Update replaces the value of an existing key; a missing key returns
	// an error of class ErrNotFound.
	Update(key uint64, value []byte) error
}

// Deleter is implemented by a Conn that can delete keys. Without it, a
// "delete" op is not available on the engine.
type Deleter interface {
	// Delete removes key; a missing key returns an error of class
	// ErrNotFound.
	Delete(key uint64) error
}

// Inserter is implemented by a Conn that can insert a key only if it does
// not exist yet. Without it, an "insert" op writes with Put.
type Inserter interface {
	// Insert adds key; an existing key returns an error of class
	// Constraint and changes nothing.
	Insert(key uint64, value []byte) error
}

// Scanner is implemented by a Conn that can read keys in order. Without
// it, a "scan" op is not available on the engine.
type Scanner interface {
	// Scan reads up to n rows in key order, starting at the first key at
	// or above from, and returns how many it read.
	Scan(from uint64, n int) (int, error)
}

// Latester is implemented by a Conn that keeps keys in order and can read
// the highest key of a range, seeking from its end (SQLite's ORDER BY k
// DESC LIMIT 1, a reverse cursor): what a "latest" op needs, the newest
// appended key and one a step back from it. Without it, a "latest" op is
// not available on the engine.
type Latester interface {
	// Last reads the highest key in [lo, hi] and its value, appended to
	// dst[:0]. A range that holds no key returns an error of class
	// ErrNotFound.
	Last(lo, hi uint64, dst []byte) (key uint64, value []byte, err error)
}

// Batcher is implemented by a Conn that can group several operations into
// one transaction. Without it, a batch size above one is refused.
//
// Whatever each method returns, the connection ends in a known state: after
// a Begin that failed and after any Commit, no transaction is open (a
// Commit that failed rolled the transaction back: none of the batch's
// operations happened). An operation that fails inside a batch leaves the
// transaction to the caller, who must roll it back: SQLite, for one, does
// not allow a statement that found the database busy inside a transaction
// to be retried there.
type Batcher interface {
	// Begin starts a transaction that takes the write lock up front, so
	// that a batch that reads before it writes cannot fail on a stale
	// snapshot.
	Begin() error
	// Commit commits the transaction started by Begin. Only a nil error
	// acknowledges the batch's operations.
	Commit() error
	// Rollback abandons any open transaction. It is a no-op when none is
	// open.
	Rollback() error
}

// TxProber is implemented by a Conn that can ask its engine whether a
// transaction is open on it (SQLite's sqlite3_get_autocommit): the witness
// of the rule that an operation outside a batch ends with the connection
// back in autocommit. Workers ask after every such operation. A connection
// left inside a transaction would run later operations in it, acknowledged
// though no COMMIT ever covers them; such an operation fails with class
// OpenTx instead, and the transaction is rolled back (Batcher.Rollback).
type TxProber interface {
	// InTx reports whether a transaction is open on the connection.
	InTx() bool
}

// Scripter is implemented by a Conn that runs statements of the user's
// (the scripts of gobench sql): each prepared once, when the worker gets
// ready, so that an error in the SQL stops the run before it starts, then
// run as often as the script comes up. The connection owns the statements
// and closes them when it closes.
type Scripter interface {
	// Prepare prepares one SQL statement whose parameters are written
	// :name; params names them (without the colon) in the order Run's
	// arguments will come.
	Prepare(sql string, params []string) (Statement, error)
}

// Statement is a prepared statement of a Scripter's connection.
type Statement interface {
	// Run binds args to the parameters Prepare named, in that order
	// (int64, float64, string, []byte or nil), runs the statement to its
	// end, reading every row, and returns how many rows it produced.
	// Errors are classified as the connection's are (Classify); a wrong
	// number of arguments is ErrInvalid.
	Run(args ...any) (rows int64, err error)
}

// BusyRetrier is implemented by a Conn that can retry, by itself, the step
// of an operation that found the database busy or locked, at the step
// where retrying is safe: a BEGIN that failed (no transaction is open), a
// COMMIT that failed (the transaction is still whole, and SQLite allows
// the COMMIT again), a statement outside a transaction; a statement that
// failed inside the operation's own transaction is retried by rolling the
// transaction back and starting it again. Inside a batch only BEGIN and
// COMMIT are retried. This is what SQLite's own busy handler does, with
// the waiting left to the caller, who counts it.
type BusyRetrier interface {
	// SetBusyRetry installs wait, which the connection calls each time a
	// step fails busy or locked. wait sleeps as the caller's policy says
	// and reports whether to run the step again; false gives up, and the
	// operation fails with the step's error, no transaction left open.
	// A nil wait makes every busy step fail at once.
	SetBusyRetry(wait func() bool)
}

// Interrupter is implemented by a Conn whose statement under way can be
// stopped from another goroutine (SQLite's sqlite3_interrupt): what runs
// outside any measurement (a schema, a preload, a verification) stops
// within the statement when its context is cancelled, not only between
// statements. Ops take no context, so that measuring one costs nothing
// for it; without Interrupter, a caller can stop only between ops.
type Interrupter interface {
	// Interruptible makes the cancellation of ctx, until stop is called,
	// stop the statement the connection runs with an error that matches
	// ctx's (errors.Is); a statement started afterwards may fail the same
	// way or, if short, complete (callers check ctx between statements).
	// A rollback still runs. The connection must not be closed before
	// stop returns.
	Interruptible(ctx context.Context) (stop func())
}

// Fact is one named property of a store's environment, such as the engine
// version or a setting read back from the database.
type Fact struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// Describer is implemented by a Store that can report facts about itself:
// versions and the settings actually in force (read back from the engine,
// not echoed from the configuration). Without it, a result names only the
// driver.
type Describer interface {
	Describe(ctx context.Context) ([]Fact, error)
}

// Checker is implemented by a Store that can check its own integrity
// (SQLite's PRAGMA integrity_check). Without it, gobench verify reports
// the integrity check as not available.
type Checker interface {
	// Check returns the problems found; none means the database is sound.
	Check(ctx context.Context) ([]string, error)
}

// LockWaitCounter is implemented by a Conn that sees its engine's own busy
// handler at work (SQLite through ncruces, whose Go API lets the handler
// be a Go callback): how often the handler ran and how long it held the
// connection waiting for a lock, since the last call. Workers take it
// after every op, so lock waits inside an op become visible even when the
// engine, not the harness, waits. Without it, such waits hide in latency.
type LockWaitCounter interface {
	TakeLockWaits() (calls int, wait time.Duration)
}

// BusyStepCounter is implemented by a Conn that counts the transaction
// steps that found the database busy or locked: BEGIN (another connection
// holds the write lock) and COMMIT (in a rollback journal, readers still
// hold theirs), each time the engine said so, whether the step was then
// waited for, retried or failed. Workers take the counts after every op,
// so the contention each op met is in the result. Where the engine's own
// busy handler waits out of sight (SQLite through mattn or modernc, under
// the timeout policy) only the steps that failed are seen.
type BusyStepCounter interface {
	TakeBusySteps() (begins, commits int)
}

// WALObserver is implemented by a Store that keeps a write-ahead log beside
// the database (SQLite in WAL mode), so the coordinator can sample it
// while a run goes on. Without it, results have no log timeline.
type WALObserver interface {
	// WALState reads the log's size in bytes and its reset counter, which
	// goes up by one each time writers start the log over after a
	// checkpoint copied all of it into the database. ok is false when the
	// store keeps no such log (another journal mode, an in-memory
	// database).
	WALState() (bytes int64, resets uint32, ok bool)
}

// Versioned is implemented by a Driver that can name the engine it
// carries, such as "SQLite 3.53.4" or "LMDB 0.9.35", without a database.
type Versioned interface {
	EngineVersion() (string, error)
}

// Live is what a store holds, counted as an application counts it: its
// keys (and records), and the bytes of their keys and values, whatever
// the engine's own layout.
type Live struct {
	Keys  int64 `json:"keys"`
	Bytes int64 `json:"bytes"`
}

// LiveCounter is implemented by a Store that can count what it holds
// (Live), by walking its data after a run: the bytes on disk divided by
// Live.Bytes is the engine's space amplification. Without it, results
// say the live data was not counted.
type LiveCounter interface {
	Live(ctx context.Context) (Live, error)
}
