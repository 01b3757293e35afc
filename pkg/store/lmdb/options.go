package lmdb

import (
	"fmt"

	"github.com/gobench/gobench/pkg/store"
)

// Options are the LMDB settings of a run, declared once (store.Declare):
// each field's flag, help and values.
type Options struct {
	// MapSizeMiB is the size of the memory map, the most the database
	// can grow to.
	MapSizeMiB int64 `json:"map_size_mib" flag:"lmdb-map-size" help:"lmdb engine: map size in MiB, the most the database can grow to"`
	// Sync is the common --sync: off is MDB_NOSYNC (no sync at a
	// commit), normal MDB_NOMETASYNC (the data pages synced, the meta
	// page left to the next commit's sync: a power cut may lose the last
	// commit), full LMDB's default (both synced).
	Sync string `json:"sync,omitempty" flag:"sync"`
}

// DefaultOptions returns a 4 GiB map, synced commits.
func DefaultOptions() Options { return Options{MapSizeMiB: 4096, Sync: store.SyncFull} }

// Validate checks the options.
func (o Options) Validate() error {
	if o.MapSizeMiB < 1 || o.MapSizeMiB > 1<<30 {
		return fmt.Errorf("LMDB map size of %d MiB is out of range (want 1 MiB to 1 PiB)", o.MapSizeMiB)
	}
	return nil
}

// declared is the declaration of Options.
var declared = store.Declare("the lmdb engine", DefaultOptions)

// Encode returns the options as a store.Config carries them.
func (o Options) Encode() []byte { return declared.Encode(o) }
