package badger

import (
	"github.com/dgraph-io/badger/v4"

	"github.com/gobench/gobench/pkg/store"
)

// badgerOptions are badger's options for a run in dir: the sync level,
// the sizes, no logging; memory bounded for a small machine at the
// library profile, badger benchmark's tuning at the tool profile (tune).
func (o Options) badgerOptions(dir string) badger.Options {
	opts := badger.DefaultOptions(dir).
		WithLogger(nil).
		WithSyncWrites(o.Sync == store.SyncFull).
		WithBlockCacheSize(o.CacheMiB << 20).
		WithMemTableSize(o.MemTableMiB << 20).
		WithValueThreshold(min(1<<20, o.MemTableMiB<<20/8)). // badger refuses one above a batch's most, 15% of a memtable
		WithNumMemtables(2).
		WithNumLevelZeroTables(2).
		WithNumLevelZeroTablesStall(8).
		WithValueLogFileSize(64 << 20).
		WithNumCompactors(2).
		WithMetricsEnabled(false)
	if o.Profile == store.ProfileTool {
		opts = tune(opts)
	}
	return opts
}

// tune sets what badger v4.9.6's badger benchmark write (badger/cmd/
// write_bench.go) opens badger with beside its sizes: badger's own
// defaults for memtables, level-0 tables, value-log files and compactors,
// and the tool's 1 KiB value threshold and compaction of level 0 at
// close. Left out: the tool turns conflict detection off, which gobench's
// read-modify-write ops need (a lost update would pass for a fast one).
func tune(opts badger.Options) badger.Options {
	def := badger.DefaultOptions(opts.Dir)
	return opts.
		WithNumMemtables(def.NumMemtables).
		WithNumLevelZeroTables(def.NumLevelZeroTables).
		WithNumLevelZeroTablesStall(def.NumLevelZeroTablesStall).
		WithValueLogFileSize(def.ValueLogFileSize).
		WithNumCompactors(def.NumCompactors).
		WithValueThreshold(min(1<<10, opts.MemTableSize*15/100)).
		WithCompactL0OnClose(true)
}
