// Package btreestore is the ordered-map ceiling: github.com/google/btree
// behind a sync.RWMutex, registered as "btree". Like the map engine it
// lives in one process's memory (store.ShareProcess); unlike it, keys are
// kept in order, as a database's B-tree keeps them.
package btreestore

import (
	"cmp"
	"context"

	"github.com/google/btree"

	"github.com/gobench/gobench/pkg/store"
)

// Driver is the btree engine: a store.MemStore over B-trees, whose
// connections scan. Its data lives in one process's memory
// (store.InProcess).
type Driver struct{ store.InProcess }

var (
	_ store.Driver  = Driver{}
	_ store.Tabular = Driver{}
)

// Name returns "btree".
func (Driver) Name() string { return "btree" }

// Tables reports record tables kept in key order: scans walk the tree.
func (Driver) Tables() store.TableSupport { return store.TableSupport{Ordered: true} }

// degree is the B-tree's branching factor (google/btree's own example value).
const degree = 32

// Open returns an empty tree; the path is not used.
func (Driver) Open(_ context.Context, cfg store.Config) (store.Store, error) {
	if err := cfg.CheckTable(); err != nil {
		return nil, err
	}
	d := &db{kv: newTree[uint64](), recs: newTree[string](), table: cfg.Table}
	d.MemStore = store.NewMemStore(d.kv, d.recs, cfg.Table)
	return d, nil
}

// db is a MemStore whose indexes are trees, which its connections scan.
type db struct {
	*store.MemStore
	kv    tree[uint64]
	recs  tree[string]
	table *store.Table
}

// Conn returns a connection that scans.
func (d *db) Conn(ctx context.Context) (store.Conn, error) {
	c, err := d.MemStore.Conn(ctx)
	if err != nil {
		return nil, err
	}
	return conn{c.(store.MemConn), d}, nil
}

// entry is one key's value in a tree.
type entry[K cmp.Ordered] struct {
	key K
	val []byte
}

// tree is a store.MemIndex in key order.
type tree[K cmp.Ordered] struct{ t *btree.BTreeG[entry[K]] }

func newTree[K cmp.Ordered]() tree[K] {
	return tree[K]{btree.NewG(degree, func(a, b entry[K]) bool { return a.key < b.key })}
}

func (t tree[K]) Get(key K) ([]byte, bool) {
	e, ok := t.t.Get(entry[K]{key: key})
	return e.val, ok
}

func (t tree[K]) Set(key K, v []byte) { t.t.ReplaceOrInsert(entry[K]{key, v}) }

func (t tree[K]) Delete(key K) bool {
	_, ok := t.t.Delete(entry[K]{key: key})
	return ok
}

func (t tree[K]) Clear() { t.t.Clear(false) }

// conn is a MemConn that scans the trees.
type conn struct {
	store.MemConn
	d *db
}

var (
	_ store.Scanner       = conn{}
	_ store.Latester      = conn{}
	_ store.Recorder      = conn{}
	_ store.RecordScanner = conn{}
)

// Scan walks n keys from the first at or above from.
func (c conn) Scan(from uint64, n int) (int, error) {
	read := 0
	c.d.Reading(func() {
		c.d.kv.t.AscendGreaterOrEqual(entry[uint64]{key: from}, func(entry[uint64]) bool {
			read++
			return read < n
		})
	})
	return read, nil
}

// Last descends the tree from hi to its first key, when that is at or
// above lo.
func (c conn) Last(lo, hi uint64, dst []byte) (key uint64, _ []byte, err error) {
	err = store.ErrNotFound
	c.d.Reading(func() {
		c.d.kv.t.DescendLessOrEqual(entry[uint64]{key: hi}, func(e entry[uint64]) bool {
			if e.key >= lo {
				key, dst, err = e.key, append(dst[:0], e.val...), nil
			}
			return false
		})
	})
	return key, dst, err
}

// ScanRecords walks the tree from the first key at or above from.
func (c conn) ScanRecords(from []byte, n int, field int, visit func(key []byte, values [][]byte)) (int, error) {
	fields, err := c.d.table.FieldCount()
	if err != nil || n <= 0 {
		return 0, err
	}
	read := 0
	var dst [][]byte
	c.d.Reading(func() {
		c.d.recs.t.AscendGreaterOrEqual(entry[string]{key: string(from)}, func(r entry[string]) bool {
			read++
			if dst, err = store.ReadEncoded(r.val, fields, field, dst); err != nil {
				return false
			}
			if visit != nil {
				visit([]byte(r.key), dst)
			}
			return read < n
		})
	})
	return read, err
}
