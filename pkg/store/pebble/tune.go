package pebble

import (
	"github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/bloom"
	"github.com/cockroachdb/pebble/v2/vfs"

	"github.com/gobench/gobench/pkg/store"
)

// pebbleOptions are the options pebble is opened with: the sizes and
// sync level of o, and at the tool profile the rest of what pebble bench
// ycsb sets (tune).
func (o Options) pebbleOptions(fs vfs.FS, cache *pebble.Cache) *pebble.Options {
	opts := &pebble.Options{
		FS:           fs,
		Cache:        cache,
		MemTableSize: uint64(o.MemTableMiB) << 20,
		DisableWAL:   o.Sync == store.SyncOff,
		Logger:       quiet{},
	}
	if o.Profile == store.ProfileTool {
		tune(opts)
	}
	return opts
}

// tune sets what pebble v2.1.7's cmd/pebble/db.go (newPebbleDB, which
// pebble bench ycsb opens) sets beside its sizes: L0 thresholds, a 64
// MiB base level, up to 4 memtables before writes stall, 1 to 3
// concurrent compactions, 32 KiB blocks, 256 KiB index blocks, bloom
// filters on every level but the last. Left out, as tied to CockroachDB's
// keys or newer formats: its comparer and key schema, FormatNewest,
// columnar blocks and value separation (for values of 512 bytes or more).
func tune(opts *pebble.Options) {
	opts.L0CompactionThreshold = 2
	opts.L0StopWritesThreshold = 1000
	opts.LBaseMaxBytes = 64 << 20
	opts.MaxOpenFiles = 16384
	opts.MemTableStopWritesThreshold = 4
	opts.CompactionConcurrencyRange = func() (int, int) { return 1, 3 }
	for i := range opts.Levels {
		l := &opts.Levels[i]
		l.BlockSize = 32 << 10
		l.IndexBlockSize = 256 << 10
		l.FilterPolicy = bloom.FilterPolicy(10)
		l.FilterType = pebble.TableFilter
	}
	opts.Levels[len(opts.Levels)-1].FilterPolicy = pebble.NoFilterPolicy
	opts.FlushSplitBytes = opts.TargetFileSizes[0] // as the tool does, before its defaults are set
	opts.EnsureDefaults()
}
