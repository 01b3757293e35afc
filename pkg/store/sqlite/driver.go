package sqlite

import (
	"context"
	"fmt"
	"time"

	"github.com/gobench/gobench/pkg/store"
)

// Driver is a store.Driver for SQLite through one Go binding. Every
// connection is one SQLite connection with its statements prepared once;
// mattn's and modernc's are used through database/sql/driver directly (no
// database/sql pool, and no per-call context but while a connection is
// Interruptible), ncruces's through its own API.
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
	// interruptible makes the cancellation of ctx stop the statement
	// under way (see store.Interrupter), until stop is called.
	interruptible(ctx context.Context) (stop func())
	// ops prepares the op statements and returns the connection as a
	// store.Conn, which owns it from then on; with blob, reads and updates
	// use incremental blob I/O (only for a blobBackend's connections);
	// with bare, no op statement is prepared (store.Config.Bare).
	ops(d *Driver, blob, bare bool, busyTimeout time.Duration) (store.Conn, error)
	Close() error
}

// blobBackend is a backend whose connections can do incremental blob I/O.
type blobBackend interface {
	backend
	blobIO()
}

// countingBackend is a backend whose connections install a busy handler
// of gobench's own, which counts its calls and waits.
type countingBackend interface {
	backend
	// busyHandler describes the handler, for Describe.
	busyHandler() string
}

// loopBackend is a backend whose connections run loops of ops in C
// (store.LoopRunner).
type loopBackend interface {
	backend
	loops()
}

var (
	_ store.Driver   = (*Driver)(nil)
	_ store.Resident = (*Driver)(nil)
)

// InMemory reports whether cfg's options keep the database in memory
// (Options.Memory, --storage memory); options that do not decode are on
// disk, for Open to refuse.
func (d *Driver) InMemory(cfg store.Config) bool {
	o, err := DecodeOptions(cfg.Options)
	return err == nil && o.Memory
}

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
		return nil, fmt.Errorf("%w: the %s driver has no incremental blob I/O (its Go API does not expose sqlite3_blob_open); use the ncruces or capi driver, which have it", store.ErrInvalid, d.name)
	}
	if t := cfg.Table; t != nil {
		if err := t.Validate(); err != nil {
			return nil, fmt.Errorf("%w: %w", store.ErrInvalid, err)
		}
		if opts.API == APIBlob {
			return nil, fmt.Errorf("%w: blob I/O reads and writes the kv table's values: a record table takes --api sql", store.ErrInvalid)
		}
	}
	if err := checkNames(cfg); err != nil {
		return nil, err
	}
	s := &db{d: d, path: cfg.Path, opts: opts, reuse: cfg.Reuse, table: cfg.Table, replaces: cfg.Replaces, record: cfg.Record, bare: cfg.Bare}
	if err := s.traceVFS(); err != nil {
		return nil, err
	}
	return s, nil
}

var _ store.Versioned = (*Driver)(nil)

// EngineVersion names the SQLite library this driver carries, read from
// an in-memory database.
func (d *Driver) EngineVersion() (string, error) {
	c, err := d.be.open(":memory:")
	if err != nil {
		return "", fmt.Errorf("driver %s: %w", d.name, d.wrap(err))
	}
	defer c.Close()
	v, err := c.queryString("SELECT sqlite_version()")
	if err != nil {
		return "", fmt.Errorf("driver %s: %w", d.name, d.wrap(err))
	}
	return "SQLite " + v, nil
}
