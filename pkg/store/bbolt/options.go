package bbolt

import (
	"github.com/gobench/gobench/pkg/store"
)

// Options are the bbolt settings of a run, declared once
// (store.Declare): each field's flag, help and values.
type Options struct {
	// Sync is the common --sync: off sets NoSync; normal and full sync
	// every commit (bbolt has no cheaper sync).
	Sync string `json:"sync,omitempty" flag:"sync"`
	// Profile is the common --profile: tool sets what bbolt bench writes
	// with, its writes batched (profile), library leaves bbolt's defaults.
	Profile string `json:"profile,omitempty" flag:"profile"`
	// Batch sends writes outside a batch through DB.Batch, bbolt's group
	// commit.
	Batch bool `json:"batch" flag:"bbolt-batch" help:"bbolt engine: group commit: writes of concurrent workers share a transaction (DB.Batch), each acknowledged when it committed"`
	// Freelist is how bbolt keeps its free pages: "array" (its default)
	// or "map" (hashmap).
	Freelist string `json:"freelist" flag:"bbolt-freelist" values:"array,map" help:"bbolt engine: how free pages are kept, array (bbolt's default) or map"`
}

// DefaultOptions returns synced commits, no group commit, the array
// freelist.
func DefaultOptions() Options {
	return Options{Sync: store.SyncFull, Profile: store.ProfileLibrary, Freelist: "array"}
}

// profile sets the tool profile where no flag set it: bbolt bench
// (bbolt v1.5's cmd/bbolt/command/command_bench.go) opens bbolt with its
// defaults (the array freelist) and writes many keys to a transaction
// (--batch-size, by default the whole run's); the nearest that still
// acknowledges each write when it is committed is group commit,
// DB.Batch.
func profile(o *Options, given store.Given) {
	if o.Profile == store.ProfileTool && given("bbolt-batch") == nil {
		o.Batch = true
	}
}

// Validate checks the options: each is one of its declared values.
func (o Options) Validate() error { return nil }

// declared is the declaration of Options.
var declared = store.Declare("the bbolt engine", DefaultOptions).Profile(profile)

// Encode returns the options as a store.Config carries them.
func (o Options) Encode() []byte { return declared.Encode(o) }
