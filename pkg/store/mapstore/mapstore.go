// Package mapstore is the hash-map ceiling: a Go map behind a
// sync.RWMutex, registered as "map". It measures what the harness and a
// lock cost with no storage engine at all. Its data lives in the memory of
// one process, so it runs with worker goroutines only (store.ShareProcess).
package mapstore

import (
	"context"

	"github.com/gobench/gobench/pkg/store"
)

// Driver is the map engine: a store.MemStore over Go maps. Its data
// lives in one process's memory (store.InProcess).
type Driver struct{ store.InProcess }

var (
	_ store.Driver  = Driver{}
	_ store.Tabular = Driver{}
)

// Name returns "map".
func (Driver) Name() string { return "map" }

// Open returns an empty map; the path is not used.
func (Driver) Open(_ context.Context, cfg store.Config) (store.Store, error) {
	if err := cfg.CheckTable(); err != nil {
		return nil, err
	}
	return store.NewMemStore(store.MapIndex[uint64]{}, store.MapIndex[string]{}, cfg.Table), nil
}

// Tables reports record tables kept in a map: in no key order, so no
// scans.
func (Driver) Tables() store.TableSupport { return store.TableSupport{} }
