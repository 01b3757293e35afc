package pebble

import (
	"context"
	"errors"
	"strconv"

	"github.com/gobench/gobench/pkg/store"
)

var (
	_ store.Summarizer = Driver{}
	_ store.Versioned  = Driver{}
)

// The pebble module this package is built against, as go.mod requires it
// (a test holds the two together).
const (
	module        = "github.com/cockroachdb/pebble/v2"
	moduleVersion = "v2.1.7"
)

// EngineVersion names the pebble module compiled in.
func (Driver) EngineVersion() (string, error) { return "pebble " + moduleVersion, nil }

// Describe gives the engine's version, its options, and how its commits
// reach the disk.
func (d *db) Describe(context.Context) ([]store.Fact, error) {
	v, _ := Driver{}.EngineVersion()
	return append([]store.Fact{
		{Name: "driver", Value: "pebble"},
		{Name: "pebble_version", Value: v},
		{Name: store.FactSyncPrimitive, Value: syncPrimitive},
		{Name: store.FactIOTrace, Value: "pebble's vfs.FS, counted by gobench"},
	}, declared.Facts(d.opts)...), nil
}

// Summarize gives pebble's version as the engine, its options as the
// headline, and whether commits sync.
func (Driver) Summarize(facts []store.Fact) []store.Fact {
	v := store.FactValue(facts, "pebble_version")
	if v == "" {
		return nil
	}
	return []store.Fact{
		{Name: store.FactEngine, Value: v},
		{Name: store.FactHeadline, Value: declared.Headline(facts)},
		{Name: store.FactSyncs, Value: strconv.FormatBool(store.FactValue(facts, "sync") == store.SyncFull)},
	}
}

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

var _ store.Promiser = Driver{}

// Promise says what pebble promises at a power cut, by its sync level.
func (Driver) Promise(facts []store.Fact) (store.Promise, bool) {
	return store.PromiseBySync(facts,
		store.Promise{Level: store.PromiseMayLose, Says: "DisableWAL: a crash loses every write no flush put in a table, and the database stays consistent"},
		store.Promise{Level: store.PromiseMayLose, Says: "pebble.NoSync: a crash may lose a recent write, and the database stays consistent"},
		store.Promise{Level: store.PromiseKeeps, Says: "pebble.Sync: a commit returns after the WAL holding it is synced"})
}
