// Package btreestore is the ordered-map ceiling: github.com/google/btree
// behind a sync.RWMutex, registered as "btree". Like the map engine it
// lives in one process's memory (store.ShareProcess); unlike it, keys are
// kept in order, as a database's B-tree keeps them.
package btreestore

import (
	"context"
	"sync"

	"github.com/google/btree"

	"github.com/gobench/gobench/pkg/store"
)

// Driver is the btree engine.
type Driver struct{}

var (
	_ store.Driver   = Driver{}
	_ store.Sharer   = Driver{}
	_ store.Resident = Driver{}
)

// Name returns "btree".
func (Driver) Name() string { return "btree" }

// Share reports that the tree lives in one process's memory.
func (Driver) Share() store.Share { return store.ShareInMemory }

// degree is the B-tree's branching factor (google/btree's own example value).
const degree = 32

type item struct {
	key uint64
	val []byte
}

func less(a, b item) bool { return a.key < b.key }

// InMemory reports that the B-tree lives in memory, whatever cfg says.
func (Driver) InMemory(store.Config) bool { return true }

// Open returns an empty tree; the path is not used.
func (Driver) Open(_ context.Context, cfg store.Config) (store.Store, error) {
	if err := cfg.CheckTable(); err != nil {
		return nil, err
	}
	return &db{t: btree.NewG(degree, less), table: cfg.Table, recs: btree.NewG(degree, lessRecord)}, nil
}

type db struct {
	mu sync.RWMutex
	t  *btree.BTreeG[item]
	// table is the record table, if any; recs its records in key order.
	table *store.Table
	recs  *btree.BTreeG[record]
}

var _ store.Store = (*db)(nil)

func (d *db) Init(context.Context) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.t.Clear(false)
	d.recs.Clear(false)
	return nil
}

func (d *db) Conn(context.Context) (store.Conn, error) { return conn{d}, nil }
func (d *db) Close() error                             { return nil }

type conn struct{ d *db }

var (
	_ store.Conn     = conn{}
	_ store.Updater  = conn{}
	_ store.Deleter  = conn{}
	_ store.Inserter = conn{}
	_ store.Scanner  = conn{}
)

func (c conn) Insert(key uint64, value []byte) error {
	it := item{key: key, val: append([]byte(nil), value...)}
	c.d.mu.Lock()
	defer c.d.mu.Unlock()
	if c.d.t.Has(it) {
		return store.Wrap(store.Constraint, store.ErrConstraint)
	}
	c.d.t.ReplaceOrInsert(it)
	return nil
}

func (c conn) Scan(from uint64, n int) (int, error) {
	read := 0
	c.d.mu.RLock()
	c.d.t.AscendGreaterOrEqual(item{key: from}, func(item) bool {
		read++
		return read < n
	})
	c.d.mu.RUnlock()
	return read, nil
}

func (c conn) Get(key uint64, dst []byte) ([]byte, error) {
	c.d.mu.RLock()
	it, ok := c.d.t.Get(item{key: key})
	dst = append(dst[:0], it.val...)
	c.d.mu.RUnlock()
	if !ok {
		return dst, store.ErrNotFound
	}
	return dst, nil
}

func (c conn) Put(key uint64, value []byte) error {
	it := item{key: key, val: append([]byte(nil), value...)}
	c.d.mu.Lock()
	c.d.t.ReplaceOrInsert(it)
	c.d.mu.Unlock()
	return nil
}

func (c conn) Update(key uint64, value []byte) error {
	it := item{key: key, val: append([]byte(nil), value...)}
	c.d.mu.Lock()
	defer c.d.mu.Unlock()
	if !c.d.t.Has(it) {
		return store.ErrNotFound
	}
	c.d.t.ReplaceOrInsert(it)
	return nil
}

func (c conn) Delete(key uint64) error {
	c.d.mu.Lock()
	defer c.d.mu.Unlock()
	if _, ok := c.d.t.Delete(item{key: key}); !ok {
		return store.ErrNotFound
	}
	return nil
}

func (c conn) Close() error { return nil }
