//go:build cgo

package lmdb

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sync"

	mdb "github.com/PowerDNS/lmdb-go/lmdb"

	"github.com/gobench/gobench/pkg/store"
)

// Marker is the file that marks an environment directory as gobench's.
const Marker = "gobench.marker"

// maxReaders bounds the reader slots: one per connection of every process.
const maxReaders = 8192

// Driver is the LMDB engine.
type Driver struct{}

var _ store.Driver = Driver{}

// Name returns "lmdb".
func (Driver) Name() string { return "lmdb" }

// Open checks the options; the environment is opened on first use.
func (Driver) Open(_ context.Context, cfg store.Config) (store.Store, error) {
	o, err := store.OpenOptions(declared, cfg, "a directory", "an environment it did not create: it would empty its database")
	if err != nil {
		return nil, err
	}
	return &db{path: cfg.Path, opts: o, table: cfg.Table}, nil
}

var _ store.CrashCheckIsolator = Driver{}

// CrashCheckAborts says yes: LMDB 0.9 trusts its pages, and a page torn
// by a power cut can fail one of its assertions, which aborts the
// process (mdb.c: Assertion 'IS_LEAF(mp)' failed in mdb_cursor_next()).
func (Driver) CrashCheckAborts() bool { return true }

var _ store.DiskFiler = Driver{}

// DiskFiles says the environment's directory is the store's: data.mdb,
// and lock.mdb, whose reader table is no data (RoleOther) and which LMDB
// makes anew when no process has it open.
func (Driver) DiskFiles(cfg store.Config) (store.DiskFiles, error) {
	return store.DiskFiles{Dir: cfg.Path, Roles: []store.RoleSuffix{{Suffix: "lock.mdb", Role: store.RoleOther}}, Scratch: []string{"lock.mdb"}}, nil
}

type db struct {
	path string
	opts Options
	// table is the record table, if any: its records are kept in the
	// same database, under their text keys (see records.go).
	table *store.Table

	mu  sync.Mutex
	env *mdb.Env
	dbi mdb.DBI
}

var (
	_ store.Store     = (*db)(nil)
	_ store.Describer = (*db)(nil)
)

// open opens the environment once per process.
func (d *db) open() (*mdb.Env, mdb.DBI, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.env != nil {
		return d.env, d.dbi, nil
	}
	if _, err := os.Stat(filepath.Join(d.path, Marker)); err != nil {
		return nil, 0, fmt.Errorf("opening %s: not an initialised gobench LMDB environment: %w", d.path, err)
	}
	env, err := mdb.NewEnv()
	if err != nil {
		return nil, 0, err
	}
	flags := uint(mdb.NoTLS)
	switch d.opts.Sync {
	case store.SyncOff:
		flags |= mdb.NoSync
	case store.SyncNormal:
		flags |= mdb.NoMetaSync
	}
	steps := []func() error{
		func() error { return env.SetMapSize(d.opts.MapSizeMiB << 20) },
		func() error { return env.SetMaxReaders(maxReaders) },
		func() error { return env.Open(d.path, flags, 0o644) },
	}
	for _, s := range steps {
		if err := s(); err != nil {
			env.Close()
			return nil, 0, fmt.Errorf("opening LMDB environment %s: %w", d.path, wrap(err))
		}
	}
	var dbi mdb.DBI
	if err := env.View(func(txn *mdb.Txn) (err error) { dbi, err = txn.OpenRoot(0); return err }); err != nil {
		env.Close()
		return nil, 0, fmt.Errorf("opening the LMDB database in %s: %w", d.path, wrap(err))
	}
	d.env, d.dbi = env, dbi
	return env, dbi, nil
}

// Init makes the directory gobench's (or checks it is) and empties the
// database.
func (d *db) Init(context.Context) error {
	if _, err := store.ClaimDir(d.path, Marker, "a gobench LMDB environment"); err != nil {
		return err
	}
	env, dbi, err := d.open()
	if err != nil {
		return err
	}
	return wrap(env.Update(func(txn *mdb.Txn) error { return txn.Drop(dbi, false) }))
}

func (d *db) Conn(context.Context) (store.Conn, error) {
	env, dbi, err := d.open()
	if err != nil {
		return nil, err
	}
	rtxn, err := env.BeginTxn(nil, mdb.Readonly)
	if err != nil {
		return nil, fmt.Errorf("starting a read transaction: %w", wrap(err))
	}
	rtxn.RawRead = true
	rtxn.Reset()
	return &conn{env: env, dbi: dbi, rtxn: rtxn, table: d.table}, nil
}

func (d *db) Close() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.env != nil {
		err := d.env.Close()
		d.env = nil
		return err
	}
	return nil
}

var _ store.Checker = (*db)(nil)

// Check reads the whole database with a cursor, every key and value, and
// compares what it read with the count LMDB keeps in the tree: LMDB 0.9
// keeps no checksums, so a broken page shows as an error of the walk
// (MDB_CORRUPTED, MDB_PAGE_NOTFOUND) or a count that does not match.
// Opening the environment picks the newer of its two meta pages whose
// transaction is whole, LMDB's recovery.
func (d *db) Check(ctx context.Context) ([]string, error) {
	env, dbi, err := d.open()
	if err != nil {
		return nil, err
	}
	if short, err := shortFile(env, d.path); err != nil || short != "" {
		if short != "" {
			return []string{short}, nil
		}
		return nil, err
	}
	var problems []string
	err = env.View(func(txn *mdb.Txn) error {
		st, err := txn.Stat(dbi)
		if err != nil {
			return err
		}
		cur, err := txn.OpenCursor(dbi)
		if err != nil {
			return err
		}
		defer cur.Close()
		var n uint64
		for {
			if n%4096 == 0 && ctx.Err() != nil {
				return ctx.Err()
			}
			_, _, err := cur.Get(nil, nil, mdb.Next)
			if mdb.IsNotFound(err) {
				break
			}
			if err != nil {
				problems = append(problems, fmt.Sprintf("walking the database after %d entries: %v", n, err))
				return nil
			}
			n++
		}
		if n != st.Entries {
			problems = append(problems, fmt.Sprintf("the walk read %d entries, the tree counts %d", n, st.Entries))
		}
		return nil
	})
	return problems, err
}

// shortFile says how the data file of env, in dir, is shorter than the
// pages its meta page counts ("" when it is not): LMDB reads its pages
// through a memory map, and a page past the file's end is a SIGBUS that
// would stop gobench, not a verdict. A crash state can hold a meta page
// whose pages were lost (a torn write of the meta page, none of the
// pages' at --sync off).
func shortFile(env *mdb.Env, dir string) (string, error) {
	info, err := env.Info()
	if err != nil {
		return "", wrap(err)
	}
	st, err := env.Stat()
	if err != nil {
		return "", wrap(err)
	}
	fi, err := os.Stat(filepath.Join(dir, "data.mdb"))
	if err != nil {
		return "", err
	}
	if need := (info.LastPNO + 1) * int64(st.PSize); fi.Size() < need {
		return fmt.Sprintf("data.mdb holds %d bytes, and its meta page counts %d pages of %d bytes (%d): the pages past its end are lost", fi.Size(), info.LastPNO+1, st.PSize, need), nil
	}
	return "", nil
}

var _ store.Versioned = Driver{}

// EngineVersion names the LMDB library compiled in.
func (Driver) EngineVersion() (string, error) {
	_, _, _, v := mdb.Version()
	return v, nil
}

func (d *db) Describe(context.Context) ([]store.Fact, error) {
	_, _, _, v := mdb.Version()
	return append([]store.Fact{
		{Name: "driver", Value: "lmdb"},
		{Name: "lmdb_version", Value: v},
		{Name: store.FactSyncPrimitive, Value: syncPrimitiveAt(d.opts.Sync)},
	}, declared.Facts(d.opts)...), nil
}

// metaSyncWrite names how LMDB makes a commit's meta page durable at its
// default sync: it writes the page through a second descriptor of the
// data file opened with O_DSYNC (mdb.c's me_mfd, MDB_O_META), after an
// fdatasync of the data pages: two syncs per commit, one of them no
// fsync-family call (strace -e trace=fdatasync sees one a commit).
const metaSyncWrite = "O_DSYNC write"

// syncPrimitiveAt names the calls LMDB syncs a commit with at sync level
// level: at full, the file's sync and the meta page's O_DSYNC write; at
// normal (MDB_NOMETASYNC) the meta page goes through the plain
// descriptor and the next commit's sync carries it, and at off
// (MDB_NOSYNC) only an explicit environment sync syncs, with the file's.
func syncPrimitiveAt(level string) string {
	switch level {
	case store.SyncOff, store.SyncNormal:
		return syncPrimitive
	}
	return syncPrimitive + " + " + metaSyncWrite
}

type conn struct {
	env  *mdb.Env
	dbi  mdb.DBI
	rtxn *mdb.Txn
	wtxn *mdb.Txn // the open batch, if any
	key  [8]byte

	table *store.Table // the record table, if any
	rec   []byte       // a record being encoded, reused
}

var _ store.KVConn = (*conn)(nil)

// Insert puts with MDB_NOOVERWRITE: an existing key fails with class
// constraint.
func (c *conn) Insert(key uint64, value []byte) error {
	k := c.k(key)
	return c.write(func(txn *mdb.Txn) error { return txn.Put(c.dbi, k, value, mdb.NoOverwrite) })
}

// Scan walks a cursor from the first key at or above from.
func (c *conn) Scan(from uint64, n int) (int, error) {
	txn := c.wtxn
	if txn == nil {
		if err := c.rtxn.Renew(); err != nil {
			return 0, wrap(err)
		}
		defer c.rtxn.Reset()
		txn = c.rtxn
	}
	cur, err := txn.OpenCursor(c.dbi)
	if err != nil {
		return 0, wrap(err)
	}
	defer cur.Close()
	read := 0
	_, _, err = cur.Get(c.k(from), nil, mdb.SetRange)
	for err == nil && read < n {
		read++
		if read < n {
			_, _, err = cur.Get(nil, nil, mdb.Next)
		}
	}
	if err != nil && !mdb.IsNotFound(err) {
		return read, wrap(err)
	}
	return read, nil
}

// Last seeks a cursor to the highest key at or below hi: the first at or
// above it when that is hi, else the one before.
func (c *conn) Last(lo, hi uint64, dst []byte) (uint64, []byte, error) {
	txn := c.wtxn
	if txn == nil {
		if err := c.rtxn.Renew(); err != nil {
			return 0, dst[:0], wrap(err)
		}
		defer c.rtxn.Reset()
		txn = c.rtxn
	}
	cur, err := txn.OpenCursor(c.dbi)
	if err != nil {
		return 0, dst[:0], wrap(err)
	}
	defer cur.Close()
	k, v, err := cur.Get(c.k(hi), nil, mdb.SetRange)
	switch {
	case mdb.IsNotFound(err):
		k, v, err = cur.Get(nil, nil, mdb.Last)
	case err == nil && binary.BigEndian.Uint64(k) != hi:
		k, v, err = cur.Get(nil, nil, mdb.Prev)
	}
	switch {
	case mdb.IsNotFound(err):
		return 0, dst[:0], store.ErrNotFound
	case err != nil:
		return 0, dst[:0], wrap(err)
	}
	key := binary.BigEndian.Uint64(k)
	if key < lo {
		return 0, dst[:0], store.ErrNotFound
	}
	return key, append(dst[:0], v...), nil
}

func (c *conn) k(key uint64) []byte {
	binary.BigEndian.PutUint64(c.key[:], key) // big-endian: keys sort numerically
	return c.key[:]
}

func (c *conn) Get(key uint64, dst []byte) ([]byte, error) {
	txn := c.wtxn
	if txn == nil {
		if err := c.rtxn.Renew(); err != nil {
			return dst[:0], wrap(err)
		}
		defer c.rtxn.Reset()
		txn = c.rtxn
	}
	v, err := txn.Get(c.dbi, c.k(key))
	if err != nil {
		return dst[:0], wrap(err)
	}
	return append(dst[:0], v...), nil
}

// write runs fn in the open batch, or in a write transaction of its own.
func (c *conn) write(fn mdb.TxnOp) error {
	if c.wtxn != nil {
		return wrap(fn(c.wtxn))
	}
	return wrap(c.env.Update(fn))
}

func (c *conn) Put(key uint64, value []byte) error {
	k := c.k(key)
	return c.write(func(txn *mdb.Txn) error { return txn.Put(c.dbi, k, value, 0) })
}

func (c *conn) Update(key uint64, value []byte) error {
	k := c.k(key)
	return c.write(func(txn *mdb.Txn) error {
		if _, err := txn.Get(c.dbi, k); err != nil {
			return err
		}
		return txn.Put(c.dbi, k, value, 0)
	})
}

func (c *conn) Delete(key uint64) error {
	k := c.k(key)
	return c.write(func(txn *mdb.Txn) error { return txn.Del(c.dbi, k, nil) })
}

// Begin opens a write transaction; LMDB ties it to this OS thread until
// it ends.
func (c *conn) Begin() error {
	runtime.LockOSThread()
	txn, err := c.env.BeginTxn(nil, 0)
	if err != nil {
		runtime.UnlockOSThread()
		return wrap(err)
	}
	c.wtxn = txn
	return nil
}

func (c *conn) Commit() error {
	if c.wtxn == nil {
		return errors.New("lmdb: commit without a transaction")
	}
	err := c.wtxn.Commit()
	c.wtxn = nil
	runtime.UnlockOSThread()
	return wrap(err)
}

func (c *conn) Rollback() error {
	if c.wtxn != nil {
		c.wtxn.Abort()
		c.wtxn = nil
		runtime.UnlockOSThread()
	}
	return nil
}

func (c *conn) Close() error {
	if c.rtxn == nil {
		return nil
	}
	_ = c.Rollback()
	c.rtxn.Abort()
	c.rtxn = nil
	return nil
}

// wrap classifies an LMDB error.
func wrap(err error) error {
	switch {
	case err == nil:
		return nil
	case mdb.IsNotFound(err):
		return store.ErrNotFound
	case mdb.IsMapFull(err):
		return store.Wrap(store.Full, err)
	case mdb.IsErrno(err, mdb.KeyExist):
		return store.Wrap(store.Constraint, err)
	case errors.Is(err, fs.ErrPermission):
		return store.Wrap(store.IO, err)
	}
	return store.Wrap(store.Other, err)
}
