//go:build cgo

package lmdb

import (
	"strconv"

	"github.com/gobench/gobench/pkg/store"
)

var (
	_ store.Declarer      = Driver{}
	_ store.Summarizer    = Driver{}
	_ store.Transactional = Driver{}
)

// Options declares the engine's options (Options): --lmdb-map-size and
// --sync.
func (Driver) Options() store.Declaration { return declared }

// Transactional reports that LMDB connections batch ops.
func (Driver) Transactional() bool { return true }

// Summarize gives LMDB's version as the engine, the options as the
// headline, and whether commits sync.
func (Driver) Summarize(facts []store.Fact) []store.Fact {
	v := store.FactValue(facts, "lmdb_version")
	if v == "" {
		return nil
	}
	return []store.Fact{
		{Name: store.FactEngine, Value: v},
		{Name: store.FactHeadline, Value: declared.Headline(facts)},
		{Name: store.FactSyncs, Value: strconv.FormatBool(store.FactValue(facts, "sync") != store.SyncOff)},
	}
}

var _ store.Promiser = Driver{}

// Promise says what LMDB promises at a power cut, by its sync level.
func (Driver) Promise(facts []store.Fact) (store.Promise, bool) {
	return store.PromiseBySync(facts,
		store.Promise{Level: store.PromiseNone, Says: "MDB_NOSYNC: may lose the last transactions, and stays intact only where the file system keeps the order of writes"},
		store.Promise{Level: store.PromiseMayLose, Says: "MDB_NOMETASYNC: may lose the last transaction, and stays intact"},
		store.Promise{Level: store.PromiseKeeps, Says: "a commit returns after its pages and its meta page are synced; the file's creation is not (LMDB syncs no directory): where the file system does not make a new file's entry durable with its first sync, a power cut may leave no database"})
}
