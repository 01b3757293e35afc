package runner

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/store/sqlite"
	"github.com/gobench/gobench/pkg/workload"
)

// With the record started before the store's setup (--crash-from open),
// a state is checked for the preloaded rows: lost once the preload was
// acknowledged, only held before; a store that does not open is corrupt
// after the setup, and counted apart (nothing acknowledged) in it.
func TestCheckCrashStateFromSetup(t *testing.T) {
	drv := sqlite.Modernc()
	p := workload.DefaultPlan()
	p.Driver = drv.Name()
	p.Store = store.Config{Path: filepath.Join(t.TempDir(), "kv.db"), Options: sqlite.Options{Journal: "wal", Sync: "full", BusyTimeoutMS: 10_000}.Encode()}
	p.Keys.Count, p.Preload, p.Procs = 100, 60, 1
	p.Verify = true
	p.Crash = &workload.Crash{States: 1, Model: store.CrashLose, From: workload.CrashFromOpen, RecordLimit: 1 << 30}
	st, err := OpenStore(context.Background(), &p, drv, Setup{})
	if err != nil {
		t.Fatal(err)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	p.Preload = 100 // the preload acknowledged 100 rows; the state holds 60
	x := NewCrashIndex(&p)
	x.Add(store.Ack{Worker: -1, Phase: store.AckPreload, N: 100, Event: 10})
	if n := x.Acks(); n != 0 {
		t.Errorf("%d acknowledged writes, want the preload's rows apart from them", n)
	}
	gone := filepath.Join(t.TempDir(), "none", "kv.db")
	tests := []struct {
		name    string
		path    string
		event   int64
		want    workload.CrashResult
		corrupt bool
	}{
		{"in the setup", p.Store.Path, 5, workload.CrashResult{InSetup: true, Preloaded: 100, PreloadHeld: 60}, false},
		{"after it", p.Store.Path, 20, workload.CrashResult{Preloaded: 100, PreloadHeld: 60, PreloadLost: 40}, false},
		{"gone in the setup", gone, 5, workload.CrashResult{InSetup: true, NoOpen: true}, false},
		{"gone after it", gone, 20, workload.CrashResult{NoOpen: true}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := CheckCrashState(context.Background(), drv, &p, store.CrashState{Path: tt.path, Event: tt.event}, x)
			if err != nil {
				t.Fatal(err)
			}
			if r.InSetup != tt.want.InSetup || r.NoOpen != tt.want.NoOpen || r.Corrupt != tt.corrupt ||
				r.Preloaded != tt.want.Preloaded || r.PreloadHeld != tt.want.PreloadHeld || r.PreloadLost != tt.want.PreloadLost {
				t.Errorf("got in setup %v, did not open %v, corrupt %v (%s), preload %d held %d lost %d; want %v, %v, %v, %d %d %d",
					r.InSetup, r.NoOpen, r.Corrupt, r.Why, r.Preloaded, r.PreloadHeld, r.PreloadLost,
					tt.want.InSetup, tt.want.NoOpen, tt.corrupt, tt.want.Preloaded, tt.want.PreloadHeld, tt.want.PreloadLost)
			}
		})
	}
}
