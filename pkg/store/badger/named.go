package badger

import (
	"context"

	"github.com/dgraph-io/badger/v4"

	"github.com/gobench/gobench/pkg/store"
)

// The badger module this package is built against, as go.mod requires
// it (a test holds the two together).
const (
	module        = "github.com/dgraph-io/badger/v4"
	moduleVersion = "v4.9.6"
)

// Describe gives the engine's version, its options, and how its commits
// reach the disk.
func (d *db) Describe(context.Context) ([]store.Fact, error) { return engine.Describe(d.opts), nil }

// Live counts the keys and records the database holds, and their bytes
// (a key-value key as its 8 bytes, a record's as its text).
func (d *db) Live(context.Context) (store.Live, error) {
	bdb, err := d.open()
	if err != nil {
		return store.Live{}, err
	}
	var l store.Live
	err = bdb.View(func(txn *badger.Txn) error {
		it := txn.NewIterator(badger.IteratorOptions{})
		defer it.Close()
		for it.Rewind(); it.Valid(); it.Next() {
			l.Keys++
			l.Bytes += int64(len(it.Item().Key())-1) + it.Item().ValueSize()
		}
		return nil
	})
	return l, wrap(err)
}
