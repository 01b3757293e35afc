package files

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/store/storetest"
)

func TestConformance(t *testing.T) {
	t.Parallel()
	for _, layout := range []string{Flat, Tree} {
		t.Run(layout, func(t *testing.T) {
			storetest.Run(t, Driver{}, func(t storetest.T) store.Config {
				return store.Config{Path: filepath.Join(t.TempDir(), "files"), Options: Options{Layout: layout, Sync: map[string]string{Flat: store.SyncFull, Tree: store.SyncOff}[layout]}.Encode()}
			})
		})
	}
}

// The tree layout is kvtest's: key k at AA/BB/CC (k/10000, k/100%100,
// k%100), at most 100 entries per directory, 2 + 200 directories for
// 20,000 keys (written without syncs: the layout needs none, and 60,000
// fsyncs took a minute and a half of CI).
func TestTreeLayout(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "files")
	st, err := Driver{}.Open(context.Background(), store.Config{Path: dir, Options: Options{Layout: Tree, Sync: store.SyncOff}.Encode()})
	if err != nil {
		t.Fatal(err)
	}
	if err := st.Init(context.Background()); err != nil {
		t.Fatal(err)
	}
	c, _ := st.Conn(context.Background())
	for k := range uint64(20000) {
		if err := c.Put(k, []byte("v")); err != nil {
			t.Fatal(err)
		}
	}
	for key, at := range map[uint64]string{4207: "00/42/07", 12345: "01/23/45", 0: "00/00/00", 1234567: "123/45/67"} {
		if key > 20000 {
			if err := c.Put(key, []byte("v")); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(at))); err != nil {
			t.Errorf("key %d is not at %s: %v", key, at, err)
		}
	}
	if err := c.(store.Deleter).Delete(1234567); err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(filepath.Join(dir, "123")); err != nil {
		t.Fatal(err)
	}
	dirs := 0
	err = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		if p != dir {
			dirs++
		}
		entries, _ := os.ReadDir(p)
		if len(entries) > 101 { // 100 plus the marker at the top
			t.Errorf("%s holds %d entries", p, len(entries))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if dirs != 2+200 {
		t.Errorf("%d directories for 20,000 keys, want 2 + 200", dirs)
	}
}

// A non-empty directory without the marker is refused and left alone.
func TestRefusesForeignDirectory(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	keep := filepath.Join(dir, "thesis.tex")
	if err := os.WriteFile(keep, []byte("precious"), 0o644); err != nil {
		t.Fatal(err)
	}
	st, _ := Driver{}.Open(context.Background(), store.Config{Path: dir})
	if err := st.Init(context.Background()); !errors.Is(err, store.ErrForeign) {
		t.Fatalf("Init on a foreign directory: %v, want ErrForeign", err)
	}
	if b, err := os.ReadFile(keep); err != nil || string(b) != "precious" {
		t.Fatal("the foreign file was touched")
	}
}

// File-system errors fall into their classes: a full disk is "full".
func TestErrorClasses(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		err  error
		want store.Class
	}{
		{&os.PathError{Op: "write", Path: "x", Err: syscall.ENOSPC}, store.Full},
		{&os.PathError{Op: "write", Path: "x", Err: syscall.EDQUOT}, store.Full},
		{&os.PathError{Op: "read", Path: "x", Err: syscall.EIO}, store.IO},
		{&os.PathError{Op: "open", Path: "x", Err: syscall.ENOENT}, store.NotFound},
		{&os.PathError{Op: "open", Path: "x", Err: syscall.EACCES}, store.Other},
	} {
		if got := store.Classify(wrap(tt.err)); got != tt.want {
			t.Errorf("%v: class %v, want %v", tt.err, got, tt.want)
		}
	}
}
