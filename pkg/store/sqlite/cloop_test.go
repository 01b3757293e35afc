//go:build cgo

package sqlite

import (
	"context"
	"testing"

	"github.com/gobench/gobench/pkg/store"
)

// RunInC runs the mix's ops on a capi connection of the store, leaves the
// connection as any op does (in autocommit, its next op through the
// engine's own path works), reports a busy upsert in the engine's error
// class, and refuses other connections and an open batch.
func TestRunInC(t *testing.T) {
	t.Parallel()
	o := DefaultOptions()
	o.Journal = "wal"
	o.BusyTimeoutMS = 0
	_, a, b := twoConns(t, CAPI(), o)
	for k := range uint64(4) {
		if err := a.Put(k, []byte("old")); err != nil {
			t.Fatal(err)
		}
	}
	ops := []LoopOp{{Key: 1, Kind: LoopRead}, {Key: 2, Kind: LoopUpsert}, {Key: 7, Kind: LoopRead}, {Key: 2, Kind: LoopRead}}
	if n, err := RunInC(a, ops, []byte("...new......"), 3, make([]byte, 0, 8)); n != 4 || err != nil {
		t.Fatalf("loop: %d ops, %v", n, err)
	}
	if ops[2].RC != LoopNoRow || ops[0].RC != 0 || ops[1].RC != 0 {
		t.Errorf("results %d %d %d", ops[0].RC, ops[1].RC, ops[2].RC)
	}
	if a.(store.TxProber).InTx() {
		t.Error("a transaction is open after the loop")
	}
	if v, err := a.Get(2, nil); err != nil || string(v) != "new" {
		t.Errorf("read back through the engine: %q, %v", v, err)
	}

	bb := b.(store.Batcher)
	if err := bb.Begin(); err != nil {
		t.Fatal(err)
	}
	if n, err := RunInC(b, ops, make([]byte, 12), 3, nil); n != 0 || err == nil {
		t.Errorf("inside a batch: %d ops, %v", n, err)
	}
	n, err := RunInC(a, []LoopOp{{Key: 3, Kind: LoopUpsert}}, []byte("xyz"), 3, nil)
	if n != 1 || store.Classify(err) != store.Busy {
		t.Errorf("an upsert against a held write lock: %d ops, %v (class %v)", n, err, store.Classify(err))
	}
	if err := bb.Rollback(); err != nil {
		t.Fatal(err)
	}

	m := openInit(t, Modernc(), cfg(t, o))
	t.Cleanup(func() { m.Close() })
	mc, err := m.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { mc.Close() })
	if n, err := RunInC(mc, ops, nil, 0, nil); n != 0 || err == nil {
		t.Errorf("on a modernc connection: %d ops, %v", n, err)
	}
}
