package pebble

import (
	"context"
	"errors"

	"github.com/gobench/gobench/pkg/store"
)

// The pebble module this package is built against, as go.mod requires it
// (a test holds the two together).
const (
	module        = "github.com/cockroachdb/pebble/v2"
	moduleVersion = "v2.1.7"
)

// Describe gives the engine's version, its options, and how its commits
// reach the disk.
func (d *db) Describe(context.Context) ([]store.Fact, error) { return engine.Describe(d.opts), nil }

// Live counts the keys and records the database holds, and their bytes
// (a key-value key as its 8 bytes, a record's as its text).
func (d *db) Live(context.Context) (store.Live, error) {
	pdb, err := d.open()
	if err != nil {
		return store.Live{}, err
	}
	it, err := pdb.NewIter(nil)
	if err != nil {
		return store.Live{}, wrap(err)
	}
	var l store.Live
	for ok := it.First(); ok; ok = it.Next() {
		l.Keys++
		l.Bytes += int64(len(it.Key())-1) + int64(len(it.Value()))
	}
	return l, wrap(errors.Join(it.Error(), it.Close()))
}
