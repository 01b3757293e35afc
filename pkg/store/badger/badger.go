package badger

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"

	"github.com/dgraph-io/badger/v4"
	"golang.org/x/sys/unix"

	"github.com/gobench/gobench/pkg/store"
)

// Marker is the file that marks a directory as gobench's; markText is
// what it says; dataDir is where badger keeps its files, inside it.
const (
	Marker   = "gobench.marker"
	markText = "a gobench badger database"
	dataDir  = "badger"
)

// Driver is the badger engine: store.Base over its description
// (Engine), which opens its stores with newDB.
type Driver struct{ store.Base[Driver, Options] }

// Engine describes badger to store.Base.
func (Driver) Engine() *store.Engine[Options] { return &engine }

var _ store.Driver = Driver{}

// engine is badger as store.Base knows it.
var engine = store.Engine[Options]{
	Name: "badger", Keeps: "a directory", Version: "badger " + moduleVersion, Declared: declared, New: newDB, SyncPrimitive: syncPrimitive,
	Lock:    "it takes an exclusive flock on its directory",
	IOTrace: "not traced: badger writes its logs through memory maps, which no file-system seam gobench has sees (the syncs per commit are not counted)",
	// normal is off: badger has nothing between
	Off:    mayLose,
	Normal: mayLose,
	Full:   store.Promise{Level: store.PromiseKeeps, Says: "SyncWrites: a commit returns after the logs holding it are synced"},
}

var mayLose = store.Promise{Level: store.PromiseMayLose, Says: "SyncWrites off: survives a process crash, not a power cut, which may lose recent writes"}

// newDB returns a store of the directory at cfg.Path; the database is
// opened on first use.
func newDB(cfg store.Config, o Options) store.Store {
	return &db{path: cfg.Path, opts: o, table: cfg.Table}
}

// db is one process's handle on a badger directory, opened once.
type db struct {
	path  string
	opts  Options
	table *store.Table
	bdb   store.Handle[*badger.DB]
}

var (
	_ store.Store       = (*db)(nil)
	_ store.Prechecker  = (*db)(nil)
	_ store.Describer   = (*db)(nil)
	_ store.LiveCounter = (*db)(nil)
)

// Precheck refuses, reading only, a path that is a file (a SQLite or
// bbolt database) or a non-empty directory without the marker.
func (d *db) Precheck() error { return store.PrecheckDir(d.path, Marker, markText) }

// options are badger's options for the run: the sync level, memory
// bounded, no logging.
func (d *db) options() badger.Options {
	return badger.DefaultOptions(filepath.Join(d.path, dataDir)).
		WithLogger(nil).
		WithSyncWrites(d.opts.Sync == store.SyncFull).
		WithBlockCacheSize(d.opts.CacheMiB << 20).
		WithMemTableSize(d.opts.MemTableMiB << 20).
		WithValueThreshold(min(1<<20, d.opts.MemTableMiB<<20/8)). // badger refuses one above a batch's most, 15% of a memtable
		WithNumMemtables(2).
		WithNumLevelZeroTables(2).
		WithNumLevelZeroTablesStall(8).
		WithValueLogFileSize(64 << 20).
		WithNumCompactors(2).
		WithMetricsEnabled(false)
}

// open opens the database once per process.
func (d *db) open() (*badger.DB, error) {
	return d.bdb.Get(func() (*badger.DB, error) {
		if _, err := os.Stat(filepath.Join(d.path, Marker)); err != nil {
			return nil, fmt.Errorf("opening %s: not an initialised gobench badger database: %w", d.path, err)
		}
		bdb, err := badger.Open(d.options())
		if err != nil {
			return nil, d.heldErr(err)
		}
		return bdb, nil
	})
}

// heldErr is the error of an open that found badger's lock taken: the
// database refused, naming the lock, where another process holds it.
func (d *db) heldErr(err error) error {
	if errors.Is(err, syscall.EWOULDBLOCK) || errors.Is(err, syscall.EAGAIN) {
		return fmt.Errorf("%w: %s is held by another process (badger's flock on %s): one process at a time may open a badger database; wait for it to end, or give another --db",
			store.ErrInvalid, d.path, filepath.Join(d.path, dataDir))
	}
	return fmt.Errorf("opening badger database %s: %w", d.path, wrap(err))
}

// Init makes the directory gobench's (or checks it is) and removes
// badger's files, holding badger's lock on them while it does: the run
// starts from a new database, and a database another process has open is
// refused, not emptied under it.
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
	if f, err := os.Open(filepath.Join(d.path, dataDir)); err == nil {
		defer f.Close()
		if err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB); err != nil {
			return d.heldErr(err)
		}
	}
	for _, e := range entries {
		if e.Name() != Marker {
			if err := os.RemoveAll(filepath.Join(d.path, e.Name())); err != nil {
				return fmt.Errorf("emptying %s: %w", d.path, err)
			}
		}
	}
	return nil
}

func (d *db) Conn(context.Context) (store.Conn, error) {
	bdb, err := d.open()
	if err != nil {
		return nil, err
	}
	return newConn(bdb, d.table), nil
}

func (d *db) Close() error { return d.bdb.Close() }

// wrap classifies a badger error.
func wrap(err error) error {
	var se *store.Error
	switch {
	case err == nil:
		return nil
	case errors.Is(err, badger.ErrKeyNotFound):
		return store.ErrNotFound
	case errors.Is(err, badger.ErrConflict):
		return store.Wrap(store.Busy, err)
	case errors.As(err, &se), store.Classify(err) != store.Other, errors.Is(err, store.ErrForeign), errors.Is(err, store.ErrInvalid):
		return err // classified already
	case errors.Is(err, syscall.ENOSPC), errors.Is(err, syscall.EDQUOT):
		return store.Wrap(store.Full, err)
	case errors.Is(err, syscall.EIO), errors.Is(err, fs.ErrPermission):
		return store.Wrap(store.IO, err)
	}
	return store.Wrap(store.Other, err)
}

var _ store.DiskFiler = Driver{}

// DiskFiles says the directory is the store's: badger's files in badger/,
// its memtables' logs (*.mem) and value log (*.vlog) the write-ahead log
// (RoleWAL), its tables and the rest the database.
func (Driver) DiskFiles(cfg store.Config) (store.DiskFiles, error) {
	return store.DiskFiles{Dir: cfg.Path, Roles: []store.RoleSuffix{{Suffix: ".mem", Role: store.RoleWAL}, {Suffix: ".vlog", Role: store.RoleWAL}}}, nil
}

var _ store.Checker = (*db)(nil)

// Check verifies the checksums of every table badger keeps.
func (d *db) Check(context.Context) ([]string, error) {
	bdb, err := d.open()
	if err != nil {
		return nil, err
	}
	if err := bdb.VerifyChecksum(); err != nil {
		return []string{err.Error()}, nil
	}
	return nil, nil
}
