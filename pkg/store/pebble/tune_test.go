package pebble

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/vfs"

	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/store/storetest"
)

// Each profile sets what it says: read back from the OPTIONS file pebble
// writes when opened with the cell's options (its effective options),
// and a flag given explicitly wins over the profile.
func TestProfiles(t *testing.T) {
	t.Parallel()
	lib := DefaultOptions()
	for _, tc := range []struct {
		name     string
		args     []string
		cacheMiB int64
		want     []string // lines of pebble's OPTIONS file
		profile  string
	}{
		{"default", nil, lib.CacheMiB, []string{"mem_table_size=" + mib(lib.MemTableMiB), "l0_compaction_threshold=4", "mem_table_stop_writes_threshold=2"}, store.ProfileLibrary},
		{"library", []string{"--profile", "library"}, lib.CacheMiB, []string{"mem_table_size=" + mib(lib.MemTableMiB), "l0_compaction_threshold=4"}, store.ProfileLibrary},
		{"tool", []string{"--profile", "tool"}, toolCacheMiB, []string{"mem_table_size=" + mib(toolMemTableMiB), "l0_compaction_threshold=2", "l0_stop_writes_threshold=1000",
			"lbase_max_bytes=" + mib(64), "max_open_files=16384", "mem_table_stop_writes_threshold=4", "block_size=32768", "index_block_size=262144", "filter_policy=rocksdb.BuiltinBloomFilter"}, store.ProfileTool},
		{"tool, memtable given", []string{"--profile", "tool", "--pebble-memtable", "8"}, toolCacheMiB, []string{"mem_table_size=" + mib(8), "l0_compaction_threshold=2"}, store.ProfileTool},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			o := storetest.Options(t, declared, tc.args...)
			if o.Profile != tc.profile || o.CacheMiB != tc.cacheMiB {
				t.Fatalf("profile %q cache %d MiB, want %q %d", o.Profile, o.CacheMiB, tc.profile, tc.cacheMiB)
			}
			got := openedOptions(t, o)
			for _, w := range tc.want {
				if !strings.Contains(got, "  "+w+"\n") {
					t.Errorf("pebble's OPTIONS lack %q:\n%s", w, got)
				}
			}
		})
	}
}

// A matrix over both profiles spans two cells.
func TestProfileMatrix(t *testing.T) {
	t.Parallel()
	if n := len(storetest.Cells(t, declared, "--profile", "library,tool")); n != 2 {
		t.Fatalf("--profile library,tool: %d cells, want 2", n)
	}
}

// openedOptions opens pebble in a new directory with o's options and
// returns the OPTIONS file it wrote.
func openedOptions(t *testing.T, o Options) string {
	t.Helper()
	dir := t.TempDir()
	cache := pebble.NewCache(o.CacheMiB << 20)
	defer cache.Unref()
	db, err := pebble.Open(dir, o.pebbleOptions(vfs.Default, cache))
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	files, err := filepath.Glob(filepath.Join(dir, "OPTIONS-*"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no OPTIONS file in %s: %v", dir, err)
	}
	b, err := os.ReadFile(files[len(files)-1])
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// mib is n MiB in bytes, as pebble writes sizes.
func mib(n int64) string { return strconv.FormatInt(n<<20, 10) }
