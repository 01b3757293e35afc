// Package mapstore is the hash-map ceiling: a Go map behind a
// sync.RWMutex, registered as "map". It measures what the harness and a
// lock cost with no storage engine at all. Its data lives in the memory of
// one process, so it runs with worker goroutines only (store.ShareProcess).
package mapstore

import (
	"context"
	"sync"

	"github.com/gobench/gobench/pkg/store"
)

// Driver is the map engine.
type Driver struct{}

var (
	_ store.Driver   = Driver{}
	_ store.Sharer   = Driver{}
	_ store.Resident = Driver{}
)

// Name returns "map".
func (Driver) Name() string { return "map" }

// Share reports that the map lives in one process's memory.
func (Driver) Share() store.Share { return store.ShareInMemory }

// InMemory reports that the map lives in memory, whatever cfg says.
func (Driver) InMemory(store.Config) bool { return true }

// Open returns an empty map; the path is not used.
func (Driver) Open(_ context.Context, cfg store.Config) (store.Store, error) {
	if err := cfg.CheckTable(); err != nil {
		return nil, err
	}
	return &db{m: map[uint64][]byte{}, table: cfg.Table, recs: map[string][]byte{}}, nil
}

type db struct {
	mu sync.RWMutex
	m  map[uint64][]byte
	// table is the record table, if any; recs its records, each encoded
	// as one value (store.AppendRecord).
	table *store.Table
	recs  map[string][]byte
}

var _ store.Store = (*db)(nil)

func (d *db) Init(context.Context) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	clear(d.m)
	clear(d.recs)
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
)

func (c conn) Insert(key uint64, value []byte) error {
	v := append([]byte(nil), value...)
	c.d.mu.Lock()
	defer c.d.mu.Unlock()
	if _, ok := c.d.m[key]; ok {
		return store.Wrap(store.Constraint, store.ErrConstraint)
	}
	c.d.m[key] = v
	return nil
}

func (c conn) Get(key uint64, dst []byte) ([]byte, error) {
	c.d.mu.RLock()
	v, ok := c.d.m[key]
	dst = append(dst[:0], v...)
	c.d.mu.RUnlock()
	if !ok {
		return dst, store.ErrNotFound
	}
	return dst, nil
}

func (c conn) Put(key uint64, value []byte) error {
	v := append([]byte(nil), value...) // the caller reuses value
	c.d.mu.Lock()
	c.d.m[key] = v
	c.d.mu.Unlock()
	return nil
}

func (c conn) Update(key uint64, value []byte) error {
	v := append([]byte(nil), value...)
	c.d.mu.Lock()
	defer c.d.mu.Unlock()
	if _, ok := c.d.m[key]; !ok {
		return store.ErrNotFound
	}
	c.d.m[key] = v
	return nil
}

func (c conn) Delete(key uint64) error {
	c.d.mu.Lock()
	defer c.d.mu.Unlock()
	if _, ok := c.d.m[key]; !ok {
		return store.ErrNotFound
	}
	delete(c.d.m, key)
	return nil
}

func (c conn) Close() error { return nil }
