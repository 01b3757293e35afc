//go:build cgo

package lmdb

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
	storetest.Run(t, Driver{}, func(t storetest.T) store.Config {
		return store.Config{Path: filepath.Join(t.TempDir(), "env"), Options: Options{MapSizeMiB: 64}.Encode()}
	})
}

func TestRefusesForeignDirectory(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "data.mdb"), []byte("someone's LMDB"), 0o644); err != nil {
		t.Fatal(err)
	}
	st, _ := Driver{}.Open(context.Background(), store.Config{Path: dir})
	if err := st.Init(context.Background()); !errors.Is(err, store.ErrForeign) {
		t.Fatalf("Init on a foreign directory: %v, want ErrForeign", err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "data.mdb")); string(b) != "someone's LMDB" {
		t.Fatal("the foreign file was touched")
	}
}

// A full map is class Full.
func TestMapFull(t *testing.T) {
	t.Parallel()
	st, _ := Driver{}.Open(context.Background(), store.Config{Path: filepath.Join(t.TempDir(), "env"), Options: Options{MapSizeMiB: 1}.Encode()})
	if err := st.Init(context.Background()); err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	c, _ := st.Conn(context.Background())
	defer c.Close()
	big := make([]byte, 64<<10)
	var err error
	for k := uint64(0); k < 100 && err == nil; k++ {
		err = c.Put(k, big)
	}
	if store.Classify(err) != store.Full {
		t.Fatalf("filling a 1 MiB map: %v (class %v), want full", err, store.Classify(err))
	}
}

// The sync primitive a run reports is what LMDB calls at its sync level:
// at full a commit's meta page is written through an O_DSYNC descriptor
// after the data's fdatasync, and the fact says so; below full it is not.
func TestSyncPrimitiveNamesTheMetaPageWrite(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ sync, want string }{
		{store.SyncFull, syncPrimitive + " + O_DSYNC write"},
		{store.SyncNormal, syncPrimitive},
		{store.SyncOff, syncPrimitive},
	} {
		t.Run(tc.sync, func(t *testing.T) {
			t.Parallel()
			d := &db{opts: Options{MapSizeMiB: 64, Sync: tc.sync}}
			facts, err := d.Describe(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if got := store.FactValue(facts, store.FactSyncPrimitive); got != tc.want {
				t.Errorf("sync %s: sync_primitive %q, want %q", tc.sync, got, tc.want)
			}
		})
	}
}

// A data file shorter than the pages its meta page counts (a crash state
// whose meta page survived and whose pages did not) is a problem Check
// names, not a read past the map's end (a SIGBUS that would stop the
// process): the file is cut to its first two pages, the meta pages.
func TestCheckNamesAShortFile(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	cfg := store.Config{Path: filepath.Join(t.TempDir(), "env"), Options: Options{MapSizeMiB: 16}.Encode()}
	st, _ := Driver{}.Open(ctx, cfg)
	if err := st.Init(ctx); err != nil {
		t.Fatal(err)
	}
	c, _ := st.Conn(ctx)
	for k := range uint64(2000) {
		if err := c.Put(k, make([]byte, 100)); err != nil {
			t.Fatal(err)
		}
	}
	c.Close()
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		cut   bool
		short bool
	}{{"whole", false, false}, {"cut to its meta pages", true, true}} {
		if tc.cut {
			if err := os.Truncate(filepath.Join(cfg.Path, "data.mdb"), 2*4096); err != nil {
				t.Fatal(err)
			}
		}
		st, _ := Driver{}.Open(ctx, cfg)
		problems, err := st.(store.Checker).Check(ctx)
		st.Close()
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if short := len(problems) > 0 && strings.Contains(problems[0], "the pages past its end are lost"); short != tc.short {
			t.Errorf("%s: problems %q, want a short file said: %v", tc.name, problems, tc.short)
		}
	}
}
