package pebble

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"

	"github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/vfs"

	"github.com/gobench/gobench/pkg/store"
)

// Marker is the file that marks a directory as gobench's; markText is
// what it says.
const (
	Marker   = "gobench.marker"
	markText = "a gobench pebble database"
)

// Driver is the pebble engine: store.Base over its description
// (Engine), which opens its stores with newDB.
type Driver struct{ store.Base[Driver, Options] }

// Engine describes pebble to store.Base.
func (Driver) Engine() *store.Engine[Options] { return &engine }

var _ store.Driver = Driver{}

// engine is pebble as store.Base knows it.
var engine = store.Engine[Options]{
	Name: "pebble", Keeps: "a directory", Version: "pebble " + moduleVersion, Declared: declared, New: newDB, SyncPrimitive: syncPrimitive,
	Lock:    "it takes an fcntl lock on LOCK in the database directory",
	IOTrace: "pebble's vfs.FS, counted by gobench",
	Off:     store.Promise{Level: store.PromiseMayLose, Says: "DisableWAL: a crash loses every write no flush put in a table, and the database stays consistent"},
	Normal:  store.Promise{Level: store.PromiseMayLose, Says: "pebble.NoSync: a crash may lose a recent write, and the database stays consistent"},
	Full:    store.Promise{Level: store.PromiseKeeps, Says: "pebble.Sync: a commit returns after the WAL holding it is synced"},
}

// newDB returns a store of the directory at cfg.Path, its files through
// a counting vfs.FS; the database is opened on first use.
func newDB(cfg store.Config, o Options) store.Store {
	return &db{path: cfg.Path, opts: o, table: cfg.Table, fs: &countingFS{FS: vfs.Default}}
}

// db is one process's handle on a pebble directory, opened once.
type db struct {
	path  string
	opts  Options
	table *store.Table
	fs    *countingFS
	keys  keyLocks
	pdb   store.Handle[*pebble.DB]
}

var (
	_ store.Store       = (*db)(nil)
	_ store.Prechecker  = (*db)(nil)
	_ store.Describer   = (*db)(nil)
	_ store.Checker     = (*db)(nil)
	_ store.IOTracer    = (*db)(nil)
	_ store.LiveCounter = (*db)(nil)
)

// Precheck refuses, reading only, a path that is a file (a SQLite or
// bbolt database) or a non-empty directory without the marker.
func (d *db) Precheck() error {
	return store.PrecheckDir(d.path, Marker, markText)
}

// open opens the database once per process.
func (d *db) open() (*pebble.DB, error) {
	return d.pdb.Get(func() (*pebble.DB, error) {
		if _, err := os.Stat(filepath.Join(d.path, Marker)); err != nil {
			return nil, fmt.Errorf("opening %s: not an initialised gobench pebble database: %w", d.path, err)
		}
		cache := pebble.NewCache(d.opts.CacheMiB << 20)
		defer cache.Unref() // the database holds its own reference
		pdb, err := pebble.Open(d.path, &pebble.Options{
			FS:           d.fs,
			Cache:        cache,
			MemTableSize: uint64(d.opts.MemTableMiB) << 20,
			DisableWAL:   d.opts.Sync == store.SyncOff,
			Logger:       quiet{},
		})
		if err != nil {
			return nil, d.heldErr(err)
		}
		return pdb, nil
	})
}

// writeOptions are the options every commit takes: synced at --sync
// full.
func (d *db) writeOptions() *pebble.WriteOptions {
	if d.opts.Sync == store.SyncFull {
		return pebble.Sync
	}
	return pebble.NoSync
}

// Init makes the directory gobench's (or checks it is) and empties it but
// for the marker and the lock file: the run starts from a new database.
// It holds pebble's lock while it empties the directory, so a database
// another process has open is refused, not emptied under it.
func (d *db) Init(context.Context) error {
	if err := d.Precheck(); err != nil {
		return err
	}
	if err := d.Close(); err != nil {
		return err
	}
	entries, err := store.ClaimDir(d.path, Marker, markText)
	if err != nil {
		return err
	}
	lockFile := filepath.Join(d.path, "LOCK")
	lock, err := vfs.Default.Lock(lockFile)
	if err != nil {
		return d.heldErr(err)
	}
	for _, e := range entries {
		if e.Name() != Marker && e.Name() != "LOCK" {
			if err := os.RemoveAll(filepath.Join(d.path, e.Name())); err != nil {
				lock.Close()
				return fmt.Errorf("emptying %s: %w", d.path, err)
			}
		}
	}
	if err := lock.Close(); err != nil {
		return err
	}
	_, err = d.open()
	return err
}

// heldErr is the error of an open that found pebble's lock taken: the
// database refused, naming the lock, where another process holds it.
func (d *db) heldErr(err error) error {
	if errors.Is(err, syscall.EAGAIN) || errors.Is(err, syscall.EACCES) {
		return fmt.Errorf("%w: %s is held by another process (pebble's fcntl lock on %s): one process at a time may open a pebble database; wait for it to end, or give another --db",
			store.ErrInvalid, d.path, filepath.Join(d.path, "LOCK"))
	}
	return fmt.Errorf("opening pebble database %s: %w", d.path, wrap(err))
}

func (d *db) Conn(context.Context) (store.Conn, error) {
	pdb, err := d.open()
	if err != nil {
		return nil, err
	}
	return newConn(d, pdb), nil
}

func (d *db) Close() error { return d.pdb.Close() }

var _ store.DiskFiler = Driver{}

// DiskFiles says the directory is the store's: pebble's write-ahead log
// (*.log, RoleWAL), its tables and its other files.
func (Driver) DiskFiles(cfg store.Config) (store.DiskFiles, error) {
	return store.DiskFiles{Dir: cfg.Path, Roles: []store.RoleSuffix{{Suffix: ".log", Role: store.RoleWAL}}}, nil
}

// IO returns what the database's files received so far.
func (d *db) IO() (store.IOCounts, bool) { return d.fs.IO(), true }

// Check runs pebble's own check of its levels: every key in order, every
// table readable.
func (d *db) Check(context.Context) ([]string, error) {
	pdb, err := d.open()
	if err != nil {
		return nil, err
	}
	if err := pdb.CheckLevels(nil); err != nil {
		return []string{err.Error()}, nil
	}
	return nil, nil
}

// quiet is a pebble logger that keeps pebble's notes to itself; a fatal
// one still panics, as pebble's own logger ends the process.
type quiet struct{}

func (quiet) Infof(string, ...any)  {}
func (quiet) Errorf(string, ...any) {}
func (quiet) Fatalf(format string, args ...any) {
	panic(fmt.Sprintf("pebble: "+format, args...))
}

// wrap classifies a pebble error.
func wrap(err error) error {
	var se *store.Error
	switch {
	case err == nil:
		return nil
	case errors.Is(err, pebble.ErrNotFound):
		return store.ErrNotFound
	case errors.As(err, &se), store.Classify(err) != store.Other, errors.Is(err, store.ErrForeign), errors.Is(err, store.ErrInvalid):
		return err // classified already
	case errors.Is(err, syscall.ENOSPC), errors.Is(err, syscall.EDQUOT):
		return store.Wrap(store.Full, err)
	case errors.Is(err, syscall.EIO), errors.Is(err, fs.ErrPermission):
		return store.Wrap(store.IO, err)
	}
	return store.Wrap(store.Other, err)
}
