package coord

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/store/all"
	"github.com/gobench/gobench/pkg/store/sqlite"
	"github.com/gobench/gobench/pkg/workload"
)

// BenchmarkHarness is gobench's own cost per op: the null store does
// nothing, so the time per op is the lottery, the clock, the sample, the
// pipe to the coordinator, the decode and the histogram, end to end. One
// run of b.N ops on one worker; window-ns/op is measured inside the run's
// own START-to-finish window (the figure in the README), ns/op includes
// spawning the worker.
func BenchmarkHarness(b *testing.B) {
	for _, mode := range []string{workload.ModeProcess, workload.ModeGoroutine} {
		b.Run(mode, func(b *testing.B) {
			p := nullPlan(1, 1, int64(b.N))
			p.Mode = mode
			p.Keys.Count, p.Preload = 1000, 0
			res, err := Run(context.Background(), Config{Plan: p, Registry: all.Registry(), Command: helper("serve")})
			if err != nil {
				b.Fatal(err)
			}
			ph := res.Phases[0]
			if ph.Total.Count != int64(b.N) {
				b.Fatalf("count %d, want %d", ph.Total.Count, b.N)
			}
			b.ReportMetric(ph.WallSeconds*1e9/float64(b.N), "window-ns/op")
		})
	}
}

// BenchmarkMix is the 25-process WAL mix with synchronous=NORMAL per
// driver, 2,000 ops per worker: the figures the README compares with a
// bare program doing the same work (bench/baseline).
func BenchmarkMix(b *testing.B) {
	for _, driver := range all.Registry().Names() {
		if driver == "null" {
			continue
		}
		for _, journal := range []string{"wal", "rollback"} {
			b.Run(fmt.Sprintf("%s/%s", driver, journal), func(b *testing.B) {
				var reads, writes, p99 float64
				for b.Loop() {
					p := nullPlan(25, 1, 2000)
					p.Driver = driver
					o := sqlite.DefaultOptions()
					o.Journal, o.Sync = journal, "normal"
					p.Store = store.Config{Path: filepath.Join(b.TempDir(), "mix.db"), Options: o.Encode()}
					res, err := Run(context.Background(), Config{Plan: p, Registry: all.Registry(), Command: helper("serve"), ReadyTimeout: time.Minute})
					if err != nil {
						b.Fatal(err)
					}
					r, _ := res.Phases[0].Op("read")
					u, _ := res.Phases[0].Op("upsert")
					reads += r.OpsPerSec
					writes += u.OpsPerSec
					p99 += res.Phases[0].Total.P99Micros
				}
				n := float64(b.N)
				b.ReportMetric(reads/n, "reads/s")
				b.ReportMetric(writes/n, "writes/s")
				b.ReportMetric(p99/n, "p99-µs")
			})
		}
	}
}
