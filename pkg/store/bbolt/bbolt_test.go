package bbolt

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	bolt "go.etcd.io/bbolt"

	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/store/storetest"
)

func TestConformance(t *testing.T) {
	t.Parallel()
	for _, o := range []Options{DefaultOptions(), {Sync: store.SyncOff, Batch: true, Freelist: "map"}} {
		t.Run("batch="+strconv.FormatBool(o.Batch), func(t *testing.T) {
			storetest.Run(t, Driver{}, func(t storetest.T) store.Config {
				return store.Config{Path: filepath.Join(t.TempDir(), "db.bbolt"), Options: o.Encode()}
			})
		})
	}
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

// Whatever is not a gobench bbolt file is refused, before and by Init,
// and left as it was: a SQLite database, a file of another program, a
// directory (another engine's), another program's bbolt file.
func TestRefusesForeign(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	sqlite := filepath.Join(dir, "sqlite.db")
	other := filepath.Join(dir, "notes.txt")
	engineDir := filepath.Join(dir, "pebble")
	theirs := filepath.Join(dir, "theirs.bbolt")
	for path, body := range map[string]string{sqlite: "SQLite format 3\x00" + strings.Repeat("x", 100), other: "precious"} {
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(engineDir, 0o755); err != nil {
		t.Fatal(err)
	}
	bdb, err := bolt.Open(theirs, 0o644, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := bdb.Update(func(tx *bolt.Tx) error { _, err := tx.CreateBucket([]byte("accounts")); return err }); err != nil {
		t.Fatal(err)
	}
	bdb.Close()
	for path, want := range map[string]string{sqlite: "is a SQLite database", other: "is not a bbolt file", engineDir: "is a directory", theirs: `holds buckets ["accounts"]`} {
		before, _ := os.ReadFile(path)
		st, err := initAt(t, path)
		if !errors.Is(err, store.ErrForeign) || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want ErrForeign %q", filepath.Base(path), err, want)
		}
		st.Close()
		if after, _ := os.ReadFile(path); string(after) != string(before) {
			t.Errorf("%s was changed", filepath.Base(path))
		}
	}
}

// A file gobench made is taken again, emptied; what it holds is counted
// by Live.
func TestInitAgainAndLive(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "db.bbolt")
	for round := range 2 {
		st, err := initAt(t, path)
		if err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		c, err := st.Conn(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if _, err := c.Get(1, nil); store.Classify(err) != store.NotFound {
			t.Fatalf("round %d: key 1 before any write: %v", round, err)
		}
		for k := range uint64(10) {
			if err := c.Put(k, []byte("0123456789")); err != nil {
				t.Fatal(err)
			}
		}
		live, err := st.(store.LiveCounter).Live(context.Background())
		if err != nil || live != (store.Live{Keys: 10, Bytes: 10 * (8 + 10)}) {
			t.Errorf("round %d: live %+v, %v; want 10 keys of 18 bytes", round, live, err)
		}
		c.Close()
		st.Close()
	}
}

// The version results name is the one go.mod requires.
func TestModuleVersion(t *testing.T) {
	t.Parallel()
	storetest.RequiresModule(t, engine.Module, engine.ModuleVersion)
}
