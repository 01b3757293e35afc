package bbolt

import (
	"context"

	bolt "go.etcd.io/bbolt"

	"github.com/gobench/gobench/pkg/store"
)

var (
	_ store.Summarizer = Driver{}
	_ store.Versioned  = Driver{}
)

// The bbolt module this package is built against, as go.mod requires it
// (a test holds the two together): test binaries carry no module
// versions to read back.
const (
	module        = "go.etcd.io/bbolt"
	moduleVersion = "v1.5.0"
)

// EngineVersion names the bbolt module compiled in.
func (Driver) EngineVersion() (string, error) { return "bbolt " + moduleVersion, nil }

// Describe gives the engine's version, its options, and how its commits
// reach the disk.
func (d *db) Describe(context.Context) ([]store.Fact, error) {
	v, _ := Driver{}.EngineVersion()
	return append([]store.Fact{
		{Name: "driver", Value: "bbolt"},
		{Name: "bbolt_version", Value: v},
		{Name: store.FactSyncPrimitive, Value: syncPrimitive},
		{Name: store.FactIOTrace, Value: "not traced: bbolt writes its file through its own handle (the syncs per commit are not counted; bbolt makes two per commit)"},
	}, declared.Facts(d.opts)...), nil
}

// Summarize gives bbolt's version as the engine, its options as the
// headline, and whether commits sync.
func (Driver) Summarize(facts []store.Fact) []store.Fact {
	v := store.FactValue(facts, "bbolt_version")
	if v == "" {
		return nil
	}
	return []store.Fact{
		{Name: store.FactEngine, Value: v},
		{Name: store.FactHeadline, Value: declared.Headline(facts)},
		{Name: store.FactSyncs, Value: boolText(store.FactValue(facts, "sync") != store.SyncOff)},
	}
}

func boolText(b bool) string {
	if b {
		return "true"
	}
	return "false"
}

// Live counts the keys and records the file holds, and their bytes.
func (d *db) Live(context.Context) (store.Live, error) {
	bdb, err := d.open(false)
	if err != nil {
		return store.Live{}, err
	}
	var l store.Live
	err = bdb.View(func(tx *bolt.Tx) error {
		for _, name := range [][]byte{kvBucket, recordsBucket} {
			if b := tx.Bucket(name); b != nil {
				_ = b.ForEach(func(k, v []byte) error {
					l.Keys++
					l.Bytes += int64(len(k) + len(v))
					return nil
				})
			}
		}
		return nil
	})
	return l, wrap(err)
}

var _ store.Promiser = Driver{}

// Promise says what bbolt promises at a power cut, by its sync level
// (normal is full: bbolt has nothing between).
func (Driver) Promise(facts []store.Fact) (store.Promise, bool) {
	keeps := store.Promise{Level: store.PromiseKeeps, Says: "a commit returns after its pages, then its meta page, are synced"}
	return store.PromiseBySync(facts,
		store.Promise{Level: store.PromiseNone, Says: "NoSync, \"unsafe\" in bbolt's words: a power cut may lose or corrupt the database"},
		keeps, keeps)
}
