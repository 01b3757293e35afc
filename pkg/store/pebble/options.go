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
	// Profile is the common --profile: tool sets what pebble bench ycsb
	// opens pebble with (Tool), library leaves pebble's defaults.
	Profile string `json:"profile,omitempty" flag:"profile"`
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
	return Options{Sync: store.SyncFull, Profile: store.ProfileLibrary, CacheMiB: 8, MemTableMiB: 4}
}

// The sizes pebble bench opens pebble with (pebble v2.1.7's
// cmd/pebble/db.go: a 1 GiB block cache, its --cache default; 64 MiB
// memtables).
const (
	toolCacheMiB    = 1 << 10
	toolMemTableMiB = 64
)

// profile sets the tool profile's sizes where no flag set them; the rest
// of it is set at open (tune).
func profile(o *Options, given store.Given) {
	if o.Profile != store.ProfileTool {
		return
	}
	if given("pebble-cache") == nil {
		o.CacheMiB = toolCacheMiB
	}
	if given("pebble-memtable") == nil {
		o.MemTableMiB = toolMemTableMiB
	}
}

// Validate checks the sizes.
func (o Options) Validate() error {
	return cmp.Or(store.CheckMiB("a block cache", o.CacheMiB, 1, 1<<20), store.CheckMiB("a memtable", o.MemTableMiB, 1, 4<<10))
}

// declared is the declaration of Options.
var declared = store.Declare("the pebble engine", DefaultOptions).Profile(profile)

// Encode returns the options as a store.Config carries them.
func (o Options) Encode() []byte { return declared.Encode(o) }
