package badger

import (
	"context"
	"strconv"

	"github.com/dgraph-io/badger/v4"

	"github.com/gobench/gobench/pkg/store"
)

var (
	_ store.Summarizer = Driver{}
	_ store.Versioned  = Driver{}
)

// The badger module this package is built against, as go.mod requires
// it (a test holds the two together).
const (
	module        = "github.com/dgraph-io/badger/v4"
	moduleVersion = "v4.9.6"
)

// EngineVersion names the badger module compiled in.
func (Driver) EngineVersion() (string, error) { return "badger " + moduleVersion, nil }

// Describe gives the engine's version, its options, and how its commits
// reach the disk.
func (d *db) Describe(context.Context) ([]store.Fact, error) {
	v, _ := Driver{}.EngineVersion()
	return append([]store.Fact{
		{Name: "driver", Value: "badger"},
		{Name: "badger_version", Value: v},
		{Name: store.FactSyncPrimitive, Value: syncPrimitive},
		{Name: store.FactIOTrace, Value: "not traced: badger writes its logs through memory maps, which no file-system seam gobench has sees (the syncs per commit are not counted)"},
	}, declared.Facts(d.opts)...), nil
}

// Summarize gives badger's version as the engine, its options as the
// headline, and whether commits sync.
func (Driver) Summarize(facts []store.Fact) []store.Fact {
	v := store.FactValue(facts, "badger_version")
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

var _ store.Promiser = Driver{}

// Promise says what badger promises at a power cut, by its sync level
// (normal is off: badger has nothing between).
func (Driver) Promise(facts []store.Fact) (store.Promise, bool) {
	may := store.Promise{Level: store.PromiseMayLose, Says: "SyncWrites off: survives a process crash, not a power cut, which may lose recent writes"}
	return store.PromiseBySync(facts, may, may,
		store.Promise{Level: store.PromiseKeeps, Says: "SyncWrites: a commit returns after the logs holding it are synced"})
}
