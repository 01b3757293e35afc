package lmdb

import (
	"encoding/json"
	"fmt"

	"github.com/gobench/gobench/pkg/store"
)

// Options are the LMDB settings of a run.
type Options struct {
	// MapSizeMiB is the size of the memory map, the most the database
	// can grow to.
	MapSizeMiB int64 `json:"map_size_mib"`
	// NoSync skips the fsync at each commit (MDB_NOSYNC): fast, not
	// durable.
	NoSync bool `json:"nosync"`
}

// DefaultOptions returns a 4 GiB map, synced commits.
func DefaultOptions() Options { return Options{MapSizeMiB: 4096} }

// Validate checks the options.
func (o Options) Validate() error {
	if o.MapSizeMiB < 1 || o.MapSizeMiB > 1<<30 {
		return fmt.Errorf("LMDB map size of %d MiB is out of range (want 1 MiB to 1 PiB)", o.MapSizeMiB)
	}
	return nil
}

// Encode returns the options as a store.Config carries them.
func (o Options) Encode() json.RawMessage {
	b, _ := json.Marshal(o)
	return b
}

func decodeOptions(raw json.RawMessage) (Options, error) {
	o := DefaultOptions()
	return o, store.DecodeOptions(raw, &o, "lmdb")
}
