//go:build cgo

package lmdb

import (
	"context"
	"errors"
	"os"
	"path/filepath"
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
