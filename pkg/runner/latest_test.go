package runner

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"testing"

	"github.com/gobench/gobench/pkg/deal"
	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/store/pebble"
	"github.com/gobench/gobench/pkg/store/sqlite"
	"github.com/gobench/gobench/pkg/workload"
)

// A latest read reads the newest appended records, the newest most: on
// a real SQLite file and on pebble, with preloaded keys below the
// appends and two appending workers, every read finds an appended key
// at or below the newest, the newest is the key read most, and the ten
// newest take more than four times the share a uniform draw would give
// them. Before any append, a latest read is not found.
func TestReadLatestReadsTheNewest(t *testing.T) {
	for _, tc := range []struct {
		drv store.Driver
		cfg func(dir string) store.Config
	}{
		{sqlite.Modernc(), func(dir string) store.Config {
			return store.Config{Path: filepath.Join(dir, "kv.db"), Options: sqlite.Options{Journal: "wal", Sync: "normal", BusyTimeoutMS: 10_000}.Encode()}
		}},
		{pebble.Driver{}, func(dir string) store.Config { return store.Config{Path: filepath.Join(dir, "pebble")} }},
	} {
		t.Run(tc.drv.Name(), func(t *testing.T) {
			p := testPlan(2)
			p.Driver, p.Store, p.Mode = tc.drv.Name(), tc.cfg(t.TempDir()), workload.ModeGoroutine
			p.Phases[0].Mix = workload.Mix{{Op: workload.OpAppend, Percent: 50}, {Op: workload.OpLatest, Percent: 50}}
			st, err := OpenStore(context.Background(), p, tc.drv, Setup{})
			if err != nil {
				t.Fatal(err)
			}
			defer st.Close()
			c, err := st.Conn(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			l := deal.NewLottery(p, 0, 1)
			var d deal.Deal
			for d.Op != workload.OpLatest {
				if err := l.Deal(&d); err != nil {
					t.Fatal(err)
				}
			}
			if _, err := readLatest(c.(store.Latester), d.Recency, nil); !errors.Is(err, store.ErrNotFound) {
				t.Fatalf("latest before any append: %v, want not found", err)
			}
			const appends = 100 // per worker
			for n := range uint64(appends) {
				for w := range 2 {
					if err := c.Put(p.AppendKey(0, w, n), []byte{byte(n)}); err != nil {
						t.Fatal(err)
					}
				}
			}
			byNumber := make([]int, appends) // reads by append number, each the number's two keys
			const reads = 2000
			for range reads {
				v, err := readLatest(c.(store.Latester), d.Recency, nil)
				if err != nil {
					t.Fatal(err)
				}
				byNumber[v[0]]++
			}
			newestTen := byNumber[appends-5] + byNumber[appends-4] + byNumber[appends-3] + byNumber[appends-2] + byNumber[appends-1]
			if slices.Max(byNumber) != byNumber[appends-1] || newestTen*2*appends <= 4*10*reads {
				t.Errorf("reads by append number: %v; want the newest read most, and the ten newest keys more than 4 times a uniform share", byNumber)
			}
		})
	}
}
