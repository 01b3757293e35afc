package files

import (
	"strconv"

	"github.com/gobench/gobench/pkg/store"
)

var (
	_ store.Declarer   = Driver{}
	_ store.Summarizer = Driver{}
)

// Options declares the engine's options (Options): --layout and --sync.
func (Driver) Options() store.Declaration { return declared }

// Summarize gives the files engine as the engine, its options as the
// headline, and whether each written file is synced.
func (Driver) Summarize(facts []store.Fact) []store.Fact {
	if store.FactValue(facts, "layout") == "" {
		return nil
	}
	return []store.Fact{
		{Name: store.FactEngine, Value: "one file per key"},
		{Name: store.FactHeadline, Value: declared.Headline(facts)},
		{Name: store.FactSyncs, Value: strconv.FormatBool(syncs(facts))},
	}
}

// syncs reports whether the files engine synced its writes: its sync
// level, or in results from before --sync, its fsync setting.
func syncs(facts []store.Fact) bool {
	if sync := store.FactValue(facts, "sync"); sync != "" {
		return sync != store.SyncOff
	}
	return store.FactValue(facts, "fsync") == "true"
}

var _ store.Promiser = Driver{}

// Promise says what the files engine promises at a power cut, by its
// sync level.
func (Driver) Promise(facts []store.Fact) (store.Promise, bool) {
	return store.PromiseBySync(facts,
		store.Promise{Level: store.PromiseNone, Says: "no sync: a power cut may lose, or leave half written, any write"},
		store.Promise{Level: store.PromiseMayLose, Says: "each written file synced, not its directory: a file created or deleted since the directory's last sync may come back as it was"},
		store.Promise{Level: store.PromiseKeeps, Says: "each written file synced, and its directory after a creation or deletion"})
}
