package badger

import (
	"cmp"

	"github.com/gobench/gobench/pkg/store"
)

// Options are the badger settings of a run, declared once
// (store.Declare): each field's flag, help and values.
type Options struct {
	// Sync is the common --sync: full sets SyncWrites; normal and off
	// leave it false.
	Sync string `json:"sync,omitempty" flag:"sync"`
	// CacheMiB is the block cache's size.
	CacheMiB int64 `json:"cache_mib" flag:"badger-cache" help:"badger engine: block cache in MiB (badger's default, 256, bounded here)"`
	// MemTableMiB is the size of one memtable; badger keeps two.
	MemTableMiB int64 `json:"memtable_mib" flag:"badger-memtable" help:"badger engine: memtable size in MiB, two of them (badger's default, five of 64, bounded here)"`
}

// DefaultOptions returns synced commits and memory bounded for a small
// machine: a 32 MiB block cache, two 16 MiB memtables.
func DefaultOptions() Options { return Options{Sync: store.SyncFull, CacheMiB: 32, MemTableMiB: 16} }

// Validate checks the sizes.
func (o Options) Validate() error {
	return cmp.Or(store.CheckMiB("a block cache", o.CacheMiB, 0, 1<<20), store.CheckMiB("a memtable", o.MemTableMiB, 1, 4<<10))
}

// declared is the declaration of Options.
var declared = store.Declare("the badger engine", DefaultOptions)

// Encode returns the options as a store.Config carries them.
func (o Options) Encode() []byte { return declared.Encode(o) }
