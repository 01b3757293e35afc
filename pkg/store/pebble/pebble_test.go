package pebble

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/store/storetest"
)

func TestConformance(t *testing.T) {
	t.Parallel()
	for _, sync := range []string{store.SyncFull, store.SyncOff} {
		t.Run("sync="+sync, func(t *testing.T) {
			storetest.Run(t, Driver{}, func(t storetest.T) store.Config {
				o := DefaultOptions()
				o.Sync = sync
				return store.Config{Path: filepath.Join(t.TempDir(), "db"), Options: o.Encode()}
			})
		})
	}
}

func TestModuleVersion(t *testing.T) {
	t.Parallel()
	storetest.RequiresModule(t, engine.Module, engine.ModuleVersion)
}

func initAt(t *testing.T, path string, o Options) (store.Store, error) {
	t.Helper()
	st, err := Driver{}.Open(context.Background(), store.Config{Path: path, Options: o.Encode()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st, st.Init(context.Background())
}

// Whatever is not a gobench pebble directory is refused and left as it
// was: a file (a SQLite or bbolt database), a directory of someone
// else's, another engine's gobench directory.
func TestRefusesForeign(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	file := filepath.Join(dir, "sqlite.db")
	theirs := filepath.Join(dir, "theirs")
	lmdb := filepath.Join(dir, "lmdb")
	for path, body := range map[string]string{file: "SQLite format 3\x00", filepath.Join(theirs, "MANIFEST-000001"): "pebble's", filepath.Join(lmdb, store.DirMarker): "a gobench LMDB environment\n"} {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for path, want := range map[string]string{file: "is a file", theirs: "non-empty directory that gobench did not create", lmdb: "holds a gobench LMDB environment, not a gobench pebble database"} {
		_, err := initAt(t, path, DefaultOptions())
		if !errors.Is(err, store.ErrForeign) || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want ErrForeign %q", filepath.Base(path), err, want)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(theirs, "MANIFEST-000001")); string(b) != "pebble's" {
		t.Error("a foreign file was touched")
	}
}

// Every commit at --sync full makes at least one sync of the WAL, as
// gobench's vfs.FS counts it; at normal none (pebble writes the WAL
// behind the commit there); Live counts what is kept.
func TestSyncsCounted(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		sync     string
		minSyncs int64
	}{{store.SyncFull, 20}, {store.SyncNormal, 0}} {
		o := DefaultOptions()
		o.Sync = tt.sync
		st, err := initAt(t, filepath.Join(t.TempDir(), "db"), o)
		if err != nil {
			t.Fatal(err)
		}
		c, err := st.Conn(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		before, _ := st.(store.IOTracer).IO()
		for k := range uint64(20) {
			if err := c.Put(k, []byte("0123456789")); err != nil {
				t.Fatal(err)
			}
		}
		after, _ := st.(store.IOTracer).IO()
		d := after.Sub(before)
		if tt.minSyncs > 0 && (d.WAL.Writes < 20 || d.WAL.Syncs < tt.minSyncs) || tt.minSyncs == 0 && d.WAL.Syncs != 0 {
			t.Errorf("sync %s: 20 commits made %d WAL writes and %d syncs", tt.sync, d.WAL.Writes, d.WAL.Syncs)
		}
		live, err := st.(store.LiveCounter).Live(context.Background())
		if err != nil || live != (store.Live{Keys: 20, Bytes: 20 * 18}) {
			t.Errorf("live %+v, %v", live, err)
		}
		c.Close()
	}
}
