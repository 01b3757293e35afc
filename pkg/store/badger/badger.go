package badger

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"syscall"

	"github.com/dgraph-io/badger/v4"
	"golang.org/x/sys/unix"

	"github.com/gobench/gobench/pkg/store"
)

// db is one process's handle on a badger directory, opened once.
type db struct {
	store.Site[Options]
	bdb store.Handle[*badger.DB]
}

// newDB returns a store of the directory; the database is opened on
// first use.
func newDB(s store.Site[Options]) store.Store { return &db{Site: s} }

// Driver is the badger engine: store.Base over its description
// (Engine).
type Driver struct{ store.Base[Driver, Options] }

// Engine describes badger to store.Base.
func (Driver) Engine() *store.Engine[Options] { return &engine }

var _ store.Driver = Driver{}

// engine is badger as store.Base knows it: a directory, opened with
// newDB.
var engine = store.Engine[Options]{
	// normal is off: badger has nothing between
	Off: noSyncWrites, Normal: noSyncWrites,
	Full: store.Promise{Level: store.PromiseKeeps, Says: "SyncWrites: a commit returns after the logs holding it are synced; their creation is not (no sync of the directory after a new log): where the file system does not make a new file's entry durable with its first sync, a power cut loses the logs whole"},
	Name: "badger", Keeps: "a directory", Declared: declared, New: newDB, SyncPrimitive: syncPrimitive,
	Module: "github.com/dgraph-io/badger/v4", ModuleVersion: "v4.9.6",
	Lock:    "it takes an exclusive flock on its directory",
	IOTrace: "not traced: badger writes its logs through memory maps, which no file-system seam gobench has sees (the syncs per commit are not counted)",
}

// noSyncWrites is badger without SyncWrites: a cut before its first memtable
// flush leaves a store that opens empty (its preload gone) or does not
// open (--crash-from open; LazyFS showed the same).
var noSyncWrites = store.Promise{Level: store.PromiseNone, Says: "SyncWrites off: survives a process crash, not a power cut, which may lose every write no flush put in a table (a preload's too) or leave a store that does not open"}

var _ store.Prechecker = (*db)(nil)

// Precheck refuses, reading only, a path that is a file (a SQLite or
// bbolt database) or a non-empty directory without the marker.
func (d *db) Precheck() error { return engine.PrecheckDir(d.Path) }

// dataDir is where badger keeps its files, inside the database's
// directory (which holds gobench's marker beside it).
const dataDir = "badger"

// options are badger's options for the run (Options.badgerOptions).
func (d *db) options() badger.Options {
	return d.Options.badgerOptions(filepath.Join(d.Path, dataDir))
}

// open opens the database once per process.
func (d *db) open() (*badger.DB, error) {
	return d.bdb.Get(func() (*badger.DB, error) {
		if err := engine.Marked(d.Path); err != nil {
			return nil, err
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
			store.ErrInvalid, d.Path, filepath.Join(d.Path, dataDir))
	}
	return fmt.Errorf("opening badger database %s: %w", d.Path, wrap(err))
}

// Init makes the directory gobench's (or checks it is) and removes
// badger's files, holding badger's lock on them while it does
// (store.Engine's Reset): the run starts from a new database.
func (d *db) Init(context.Context) error {
	return engine.Reset(d.Path, d.Close, d.lockFiles)
}

// lockFiles takes badger's flock on its files' directory, if it exists.
func (d *db) lockFiles() (io.Closer, error) {
	f, err := os.Open(filepath.Join(d.Path, dataDir))
	if err != nil {
		return io.NopCloser(nil), nil // nothing of badger's to lock or remove
	}
	if err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB); err != nil {
		f.Close()
		return nil, d.heldErr(err)
	}
	return f, nil
}

var _ store.Store = (*db)(nil)

func (d *db) Conn(context.Context) (store.Conn, error) {
	bdb, err := d.open()
	if err != nil {
		return nil, err
	}
	return newConn(bdb, d.Table), nil
}

func (d *db) Close() error { return d.bdb.Close() }

var _ store.LiveCounter = (*db)(nil)

// Live counts the keys and records the database holds, and their bytes
// (store.CountLive).
func (d *db) Live(ctx context.Context) (store.Live, error) { return store.CountLive(ctx, d) }

// wrap classifies a badger error: its not-found is ErrNotFound, a
// conflict at commit busy, the rest as the OS said (store.WrapOS).
func wrap(err error) error {
	switch {
	case errors.Is(err, badger.ErrKeyNotFound):
		return store.ErrNotFound
	case errors.Is(err, badger.ErrConflict):
		return store.Wrap(store.Busy, err)
	}
	return store.WrapOS(err)
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
