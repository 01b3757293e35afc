package badger

import (
	"testing"

	"github.com/dgraph-io/badger/v4"

	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/store/storetest"
)

// Each profile sets what it says: read back from the options badger
// reports once opened with the cell's options (DB.Opts), and a flag
// given explicitly wins over the profile.
func TestProfiles(t *testing.T) {
	t.Parallel()
	lib, def := DefaultOptions(), badger.DefaultOptions("")
	type want struct {
		cache, memtable, threshold int64
		memtables, l0              int
		compactOnClose             bool
	}
	for _, tc := range []struct {
		name string
		args []string
		want want
	}{
		{"default", nil, want{lib.CacheMiB << 20, lib.MemTableMiB << 20, min(1<<20, lib.MemTableMiB<<20/8), 2, 2, false}},
		{"library", []string{"--profile", "library"}, want{lib.CacheMiB << 20, lib.MemTableMiB << 20, min(1<<20, lib.MemTableMiB<<20/8), 2, 2, false}},
		{"tool", []string{"--profile", "tool"}, want{toolCacheMiB << 20, toolMemTableMiB << 20, 1 << 10, def.NumMemtables, def.NumLevelZeroTables, true}},
		{"tool, cache given", []string{"--profile", "tool", "--badger-cache", "16"}, want{16 << 20, toolMemTableMiB << 20, 1 << 10, def.NumMemtables, def.NumLevelZeroTables, true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := storetest.Options(t, declared, tc.args...)
			db, err := badger.Open(o.badgerOptions(t.TempDir()))
			if err != nil {
				t.Fatal(err)
			}
			eff := db.Opts()
			if err := db.Close(); err != nil {
				t.Fatal(err)
			}
			got := want{eff.BlockCacheSize, eff.MemTableSize, eff.ValueThreshold, eff.NumMemtables, eff.NumLevelZeroTables, eff.CompactL0OnClose}
			if got != tc.want {
				t.Fatalf("badger opened with %+v, want %+v", got, tc.want)
			}
			if tc.want.cache == toolCacheMiB<<20 && o.Profile != store.ProfileTool {
				t.Fatalf("profile %q recorded, want tool", o.Profile)
			}
		})
	}
}
