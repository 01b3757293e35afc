package bbolt

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"time"

	bolt "go.etcd.io/bbolt"
	bolterr "go.etcd.io/bbolt/errors"

	"github.com/gobench/gobench/pkg/store"
)

// The buckets of a gobench bbolt file.
var (
	markBucket    = []byte("gobench")
	kvBucket      = []byte("kv")
	recordsBucket = []byte("records")
)

// lockTimeout is how long Open waits for another process's lock on the
// file before it refuses the database (bbolt's own default waits forever).
const lockTimeout = time.Second

// Driver is the bbolt engine: store.Base over its description
// (Engine).
type Driver struct{ store.Base[Driver, Options] }

// Engine describes bbolt to store.Base.
func (Driver) Engine() *store.Engine[Options] { return &engine }

var _ store.Driver = Driver{}

// engine is bbolt as store.Base knows it: a file, opened with newDB.
var engine = store.Engine[Options]{
	Off: store.Promise{Level: store.PromiseNone, Says: "NoSync, \"unsafe\" in bbolt's words: a power cut may lose or corrupt the database"},
	// normal is full: bbolt has nothing between
	Normal: keeps, Full: keeps,
	Name: "bbolt", Keeps: "a file", Declared: declared, New: newDB, SyncPrimitive: syncPrimitive,
	Module: "go.etcd.io/bbolt", ModuleVersion: "v1.5.0",
	Lock:    "it takes an exclusive flock on the database file",
	IOTrace: "not traced: bbolt writes its file through its own handle (the syncs per commit are not counted; bbolt makes two per commit)",
}

var keeps = store.Promise{Level: store.PromiseKeeps, Says: "a commit returns after its pages, then its meta page, are synced; the file's creation is not (bbolt syncs no directory): where the file system does not make a new file's entry durable with its first sync, a power cut may leave no database"}

// db is one process's handle on a bbolt file, opened once.
type db struct {
	store.Site[Options]
	bdb store.Handle[*bolt.DB]
}

// newDB returns a store of the file; it is opened on first use.
func newDB(s store.Site[Options]) store.Store { return &db{Site: s} }

var _ store.Prechecker = (*db)(nil)

// Precheck refuses, reading only, a path that holds something else than
// a gobench bbolt file: a directory, another program's file, a SQLite
// database. A missing or empty file is gobench's to make.
func (d *db) Precheck() error {
	fi, err := os.Stat(d.Path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return fmt.Errorf("%w: %s: %v", store.ErrInvalid, d.Path, err)
	case fi.IsDir():
		return fmt.Errorf("%w: %s is a directory (another engine's?): the bbolt engine keeps one file; choose a new path", store.ErrForeign, d.Path)
	case fi.Size() == 0:
		return nil
	}
	return checkHeader(d.Path)
}

// checkHeader refuses a file that is not bbolt's by its first bytes.
func checkHeader(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("%w: %v", store.ErrInvalid, err)
	}
	defer f.Close()
	head := make([]byte, 64)
	n, _ := io.ReadFull(f, head)
	head = head[:n]
	switch {
	case bytes.HasPrefix(head, []byte("SQLite format 3\x00")):
		return fmt.Errorf("%w: %s is a SQLite database, not a gobench bbolt file; choose a new path", store.ErrForeign, path)
	case !isBolt(head):
		return fmt.Errorf("%w: %s is not a bbolt file gobench made; choose a new path", store.ErrForeign, path)
	}
	return nil
}

// boltMagic is bbolt's magic number, in the meta page of its first page
// (after the 16-byte page header), in the machine's byte order.
const boltMagic = 0xED0CDAED

// isBolt reports whether head, a file's first bytes, holds bbolt's first
// meta page.
func isBolt(head []byte) bool {
	if len(head) < 20 {
		return false
	}
	m := head[16:20]
	le := uint32(m[0]) | uint32(m[1])<<8 | uint32(m[2])<<16 | uint32(m[3])<<24
	be := uint32(m[3]) | uint32(m[2])<<8 | uint32(m[1])<<16 | uint32(m[0])<<24
	return le == boltMagic || be == boltMagic
}

// open opens the file once per process; create lets it make a new one.
func (d *db) open(create bool) (*bolt.DB, error) {
	return d.bdb.Get(func() (*bolt.DB, error) {
		if !create {
			if _, err := os.Stat(d.Path); err != nil {
				return nil, fmt.Errorf("opening %s: not an initialised gobench bbolt file: %w", d.Path, err)
			}
		}
		freelist := bolt.FreelistArrayType
		if d.Options.Freelist == "map" {
			freelist = bolt.FreelistMapType
		}
		bdb, err := bolt.Open(d.Path, 0o644, &bolt.Options{
			Timeout:      lockTimeout,
			NoSync:       d.Options.Sync == store.SyncOff,
			FreelistType: freelist,
		})
		if errors.Is(err, bolterr.ErrTimeout) {
			return nil, fmt.Errorf("%w: %s is held by another process (bbolt's exclusive flock on the file, not released within %v): one process at a time may open a bbolt file; wait for it to end, or give another --db",
				store.ErrInvalid, d.Path, lockTimeout)
		}
		if err != nil {
			return nil, fmt.Errorf("opening bbolt file %s: %w", d.Path, wrap(err))
		}
		return bdb, nil
	})
}

// Init makes the file gobench's (or checks it is) and empties its data.
func (d *db) Init(context.Context) error {
	if err := d.Precheck(); err != nil {
		return err
	}
	bdb, err := d.open(true)
	if err != nil {
		return err
	}
	return wrap(bdb.Update(func(tx *bolt.Tx) error {
		if tx.Bucket(markBucket) == nil {
			var names []string
			_ = tx.ForEach(func(name []byte, _ *bolt.Bucket) error { names = append(names, string(name)); return nil })
			if len(names) > 0 { // the transaction rolls back: nothing is written
				return fmt.Errorf("%w: %s is a bbolt file gobench did not make (it holds buckets %q); choose a new path", store.ErrForeign, d.Path, names)
			}
		}
		if _, err := tx.CreateBucketIfNotExists(markBucket); err != nil {
			return err
		}
		for _, b := range [][]byte{kvBucket, recordsBucket} {
			if err := tx.DeleteBucket(b); err != nil && !errors.Is(err, bolterr.ErrBucketNotFound) {
				return err
			}
			if _, err := tx.CreateBucket(b); err != nil {
				return err
			}
		}
		return nil
	}))
}

var _ store.Store = (*db)(nil)

func (d *db) Conn(context.Context) (store.Conn, error) {
	bdb, err := d.open(false)
	if err != nil {
		return nil, err
	}
	return newConn(bdb, d.Options.Batch, d.Table), nil
}

func (d *db) Close() error { return d.bdb.Close() }

var _ store.DiskFiler = Driver{}

// DiskFiles says the database is one file, which bbolt keeps nothing
// beside.
func (Driver) DiskFiles(cfg store.Config) (store.DiskFiles, error) {
	name := filepath.Base(cfg.Path)
	return store.DiskFiles{Dir: filepath.Dir(cfg.Path), Prefix: name, Path: name}, nil
}

var _ store.Checker = (*db)(nil)

// Check runs bbolt's own consistency check of the file's pages.
func (d *db) Check(context.Context) ([]string, error) {
	bdb, err := d.open(false)
	if err != nil {
		return nil, err
	}
	var problems []string
	err = bdb.View(func(tx *bolt.Tx) error {
		for e := range tx.Check() {
			problems = append(problems, e.Error())
		}
		return nil
	})
	return problems, err
}

var _ store.LiveCounter = (*db)(nil)

// Live counts the keys and records the database holds, and their bytes
// (store.CountLive).
func (d *db) Live(ctx context.Context) (store.Live, error) { return store.CountLive(ctx, d) }

// wrap classifies a bbolt error.
func wrap(err error) error {
	var se *store.Error
	switch {
	case err == nil:
		return nil
	case errors.As(err, &se), store.Classify(err) != store.Other, errors.Is(err, store.ErrForeign), errors.Is(err, store.ErrInvalid):
		return err // classified already
	case errors.Is(err, syscall.ENOSPC), errors.Is(err, bolterr.ErrMaxSizeReached):
		return store.Wrap(store.Full, err)
	case errors.Is(err, syscall.EIO), errors.Is(err, bolterr.ErrChecksum), errors.Is(err, bolterr.ErrInvalid):
		return store.Wrap(store.IO, err)
	}
	return store.Wrap(store.Other, err)
}
