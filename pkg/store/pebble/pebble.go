package pebble

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"syscall"

	"github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/vfs"

	"github.com/gobench/gobench/pkg/store"
)

// Driver is the pebble engine: store.Base over its description
// (Engine).
type Driver struct{ store.Base[Driver, Options] }

// Engine describes pebble to store.Base.
func (Driver) Engine() *store.Engine[Options] { return &engine }

var _ store.Driver = Driver{}

// engine is pebble as store.Base knows it: a directory, opened with
// newDB.
var engine = store.Engine[Options]{
	Off:    store.Promise{Level: store.PromiseMayLose, Says: "DisableWAL: a crash loses every write no flush put in a table, and the database stays consistent"},
	Normal: store.Promise{Level: store.PromiseMayLose, Says: "pebble.NoSync: a crash may lose a recent write, and the database stays consistent"},
	Full:   store.Promise{Level: store.PromiseKeeps, Says: "pebble.Sync: a commit returns after the WAL holding it is synced"},
	Name:   "pebble", Keeps: "a directory", Declared: declared, New: newDB, SyncPrimitive: syncPrimitive,
	Module: "github.com/cockroachdb/pebble/v2", ModuleVersion: "v2.1.7",
	Lock:    "it takes an fcntl lock on LOCK in the database directory",
	IOTrace: "pebble's vfs.FS, counted by gobench",
}

// db is one process's handle on a pebble directory, opened once: its
// files through a counting vfs.FS, and the locks of the keys its ops read
// before they write them.
type db struct {
	store.Site[Options]
	fs   *countingFS
	keys keyLocks
	pdb  store.Handle[*pebble.DB]
}

// newDB returns a store of the directory; the database is opened on
// first use.
func newDB(s store.Site[Options]) store.Store {
	return &db{Site: s, fs: &countingFS{FS: vfs.Default}}
}

var _ store.Prechecker = (*db)(nil)

// Precheck refuses, reading only, a path that is a file (a SQLite or
// bbolt database) or a non-empty directory without the marker.
func (d *db) Precheck() error { return engine.PrecheckDir(d.Path) }

// open opens the database once per process.
func (d *db) open() (*pebble.DB, error) {
	return d.pdb.Get(func() (*pebble.DB, error) {
		if err := engine.Marked(d.Path); err != nil {
			return nil, err
		}
		cache := pebble.NewCache(d.Options.CacheMiB << 20)
		defer cache.Unref() // the database holds its own reference
		pdb, err := pebble.Open(d.Path, d.Options.pebbleOptions(d.fs, cache))
		if err != nil {
			return nil, d.heldErr(err)
		}
		return pdb, nil
	})
}

// writeOptions are the options every commit takes: synced at --sync
// full.
func (d *db) writeOptions() *pebble.WriteOptions {
	if d.Options.Sync == store.SyncFull {
		return pebble.Sync
	}
	return pebble.NoSync
}

// Init makes the directory gobench's (or checks it is) and empties it but
// for the marker and the lock file, holding pebble's lock (store.Engine's
// Reset): the run starts from a new database.
func (d *db) Init(context.Context) error {
	lock := func() (io.Closer, error) {
		l, err := vfs.Default.Lock(filepath.Join(d.Path, "LOCK"))
		if err != nil {
			return nil, d.heldErr(err)
		}
		return l, nil
	}
	if err := engine.Reset(d.Path, d.Close, lock, "LOCK"); err != nil {
		return err
	}
	_, err := d.open()
	return err
}

// heldErr is the error of an open that found pebble's lock taken: the
// database refused, naming the lock, where another process holds it.
func (d *db) heldErr(err error) error {
	if errors.Is(err, syscall.EAGAIN) || errors.Is(err, syscall.EACCES) {
		return fmt.Errorf("%w: %s is held by another process (pebble's fcntl lock on %s): one process at a time may open a pebble database; wait for it to end, or give another --db",
			store.ErrInvalid, d.Path, filepath.Join(d.Path, "LOCK"))
	}
	return fmt.Errorf("opening pebble database %s: %w", d.Path, wrap(err))
}

var _ store.Store = (*db)(nil)

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

var _ store.IOTracer = (*db)(nil)

// IO returns what the database's files received so far.
func (d *db) IO() (store.IOCounts, bool) { return d.fs.IO(), true }

var _ store.Checker = (*db)(nil)

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

var _ store.LiveCounter = (*db)(nil)

// Live counts the keys and records the database holds, and their bytes
// (store.CountLive).
func (d *db) Live(ctx context.Context) (store.Live, error) { return store.CountLive(ctx, d) }

// wrap classifies a pebble error: pebble's not-found is ErrNotFound, the
// rest as the OS said (store.WrapOS).
func wrap(err error) error {
	if errors.Is(err, pebble.ErrNotFound) {
		return store.ErrNotFound
	}
	return store.WrapOS(err)
}
