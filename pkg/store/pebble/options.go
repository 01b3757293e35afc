package pebble

import (
	"cmp"

	"github.com/gobench/gobench/pkg/store"
)

// Options are the pebble settings of a run, declared once
// (store.Declare): each field's flag, help and values.
type Options struct {
	// Sync is the common --sync: full commits with pebble.Sync, normal
	// with pebble.NoSync, off disables the WAL.
	Sync string `json:"sync,omitempty" flag:"sync"`
	// CacheMiB is the block cache's size.
	CacheMiB int64 `json:"cache_mib" flag:"pebble-cache" help:"pebble engine: block cache in MiB (pebble's default, 8)"`
	// MemTableMiB is the size of one memtable; pebble keeps up to two
	// before it stalls writes.
	MemTableMiB int64 `json:"memtable_mib" flag:"pebble-memtable" help:"pebble engine: memtable size in MiB (pebble's default, 4)"`
}

// DefaultOptions returns synced commits and pebble's own memory
// defaults: an 8 MiB block cache and 4 MiB memtables, a few tens of MiB
// for a run's one process.
func DefaultOptions() Options {
	return Options{Sync: store.SyncFull, CacheMiB: 8, MemTableMiB: 4}
}

// Validate checks the sizes.
func (o Options) Validate() error {
	return cmp.Or(store.CheckMiB("a block cache", o.CacheMiB, 1, 1<<20), store.CheckMiB("a memtable", o.MemTableMiB, 1, 4<<10))
}

// declared is the declaration of Options.
var declared = store.Declare("the pebble engine", DefaultOptions)

// Encode returns the options as a store.Config carries them.
func (o Options) Encode() []byte { return declared.Encode(o) }
