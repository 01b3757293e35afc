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
	// Profile is the common --profile: tool sets what badger's own
	// benchmark (badger benchmark write) opens badger with, library
	// leaves gobench's bounded defaults.
	Profile string `json:"profile,omitempty" flag:"profile"`
	// CacheMiB is the block cache's size.
	CacheMiB int64 `json:"cache_mib" flag:"badger-cache" help:"badger engine: block cache in MiB (badger's default, 256, bounded here)"`
	// MemTableMiB is the size of one memtable; badger keeps two.
	MemTableMiB int64 `json:"memtable_mib" flag:"badger-memtable" help:"badger engine: memtable size in MiB, two of them (badger's default, five of 64, bounded here)"`
}

// DefaultOptions returns synced commits and memory bounded for a small
// machine: a 32 MiB block cache, two 16 MiB memtables.
func DefaultOptions() Options {
	return Options{Sync: store.SyncFull, Profile: store.ProfileLibrary, CacheMiB: 32, MemTableMiB: 16}
}

// The sizes badger benchmark write opens badger with (badger v4.9.6's
// badger/cmd/write_bench.go: its --block-cache-mb default, 256, and
// badger's default memtable, 64 MiB).
const (
	toolCacheMiB    = 256
	toolMemTableMiB = 64
)

// profile sets the tool profile's sizes where no flag set them; the rest
// of it is set at open (tune).
func profile(o *Options, given store.Given) {
	if o.Profile != store.ProfileTool {
		return
	}
	if given("badger-cache") == nil {
		o.CacheMiB = toolCacheMiB
	}
	if given("badger-memtable") == nil {
		o.MemTableMiB = toolMemTableMiB
	}
}

// Validate checks the sizes.
func (o Options) Validate() error {
	return cmp.Or(store.CheckMiB("a block cache", o.CacheMiB, 0, 1<<20), store.CheckMiB("a memtable", o.MemTableMiB, 1, 4<<10))
}

// declared is the declaration of Options.
var declared = store.Declare("the badger engine", DefaultOptions).Profile(profile)

// Encode returns the options as a store.Config carries them.
func (o Options) Encode() []byte { return declared.Encode(o) }
