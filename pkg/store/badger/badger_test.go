package badger

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/store/storetest"
)

func TestConformance(t *testing.T) {
	t.Parallel()
	storetest.Run(t, Driver{}, func(t storetest.T) store.Config {
		o := DefaultOptions()
		o.CacheMiB, o.MemTableMiB = 8, 4
		return store.Config{Path: filepath.Join(t.TempDir(), "db"), Options: o.Encode()}
	})
}

func TestModuleVersion(t *testing.T) {
	t.Parallel()
	storetest.RequiresModule(t, engine.Module, engine.ModuleVersion)
}

func initAt(t *testing.T, path string) (store.Store, error) {
	t.Helper()
	st, err := Driver{}.Open(context.Background(), store.Config{Path: path})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st, st.Init(context.Background())
}

// Whatever is not a gobench badger directory is refused and left as it
// was: a file, someone else's directory, another engine's.
func TestRefusesForeign(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	file := filepath.Join(dir, "sqlite.db")
	theirs := filepath.Join(dir, "theirs")
	pebble := filepath.Join(dir, "pebble")
	for path, body := range map[string]string{file: "SQLite format 3\x00", filepath.Join(theirs, "MANIFEST"): "badger's", filepath.Join(pebble, store.DirMarker): "a gobench pebble database\n"} {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for path, want := range map[string]string{file: "is a file", theirs: "non-empty directory that gobench did not create", pebble: "holds a gobench pebble database, not a gobench badger database"} {
		_, err := initAt(t, path)
		if !errors.Is(err, store.ErrForeign) || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want ErrForeign %q", filepath.Base(path), err, want)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(theirs, "MANIFEST")); string(b) != "badger's" {
		t.Error("a foreign file was touched")
	}
}

// Two transactions that read and write one key: the one that commits
// second fails busy (badger's ErrConflict), its write not made; Live
// counts what is kept.
func TestConflictIsBusy(t *testing.T) {
	t.Parallel()
	st, err := initAt(t, filepath.Join(t.TempDir(), "db"))
	if err != nil {
		t.Fatal(err)
	}
	var conns []store.Conn
	for range 2 {
		c, err := st.Conn(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		conns = append(conns, c)
	}
	if err := conns[0].Put(7, []byte("first")); err != nil {
		t.Fatal(err)
	}
	a, b := conns[0].(store.Batcher), conns[1].(store.Batcher)
	for _, tx := range []store.Batcher{a, b} {
		if err := tx.Begin(); err != nil {
			t.Fatal(err)
		}
	}
	var wg sync.WaitGroup
	for i, c := range conns {
		wg.Go(func() {
			if err := c.(store.Updater).Update(7, []byte{'a' + byte(i)}); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if err := a.Commit(); err != nil {
		t.Fatal(err)
	}
	if err := b.Commit(); store.Classify(err) != store.Busy {
		t.Fatalf("the second commit: %v (class %v), want busy", err, store.Classify(err))
	}
	if v, err := conns[1].Get(7, nil); err != nil || string(v) != "a" {
		t.Errorf("key 7 holds %q, %v; want the first commit's", v, err)
	}
	live, err := st.(store.LiveCounter).Live(context.Background())
	if err != nil || live != (store.Live{Keys: 1, Bytes: 9}) {
		t.Errorf("live %+v, %v", live, err)
	}
}
