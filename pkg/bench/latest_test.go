package bench_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/gobench/gobench/pkg/bench"
	"github.com/gobench/gobench/pkg/result"
	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/store/pebble"
	"github.com/gobench/gobench/pkg/store/sqlite"
	"github.com/gobench/gobench/pkg/workload"
)

// A reader role that appends nothing reads, with latest, what the writer
// role appended: once the writer's warm-up has appended (the warm-up ends
// at a barrier before the measured phase starts), every latest read of
// the phase finds a row, on a real SQLite file and on pebble; its scans
// run beside them, and the writer's appends are all acknowledged.
func TestLatestReadsWhatAnotherRoleAppended(t *testing.T) {
	t.Parallel()
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
			t.Parallel()
			const ops = 200
			r, err := bench.Run(context.Background(), latestPlan(t, tc.drv.Name(), tc.cfg(t.TempDir()), ops), tc.drv)
			if err != nil {
				t.Fatal(err)
			}
			ph := r.Phases[len(r.Phases)-1]
			latest, scan, appends := opOf(ph, "latest"), opOf(ph, "scan"), opOf(ph, "append")
			if latest.Count == 0 || latest.NotFound != 0 || latest.Errors.Total != 0 {
				t.Errorf("latest: %d reads, %d not found, %d errors; want reads, every one finding a row the writer appended", latest.Count, latest.NotFound, latest.Errors.Total)
			}
			if scan.Count == 0 || scan.Errors.Total != 0 || latest.Count+scan.Count != ops {
				t.Errorf("reader: %d latest and %d scans (%d errors), want %d ops", latest.Count, scan.Count, scan.Errors.Total, ops)
			}
			if appends.Count != ops || appends.Errors.Total != 0 {
				t.Errorf("writer: %d appends, %d errors; want %d, none", appends.Count, appends.Errors.Total, ops)
			}
		})
	}
}

// latestPlan is a writer role appending and a reader role reading the
// latest appends and scanning, ops of each per worker, after a warm-up
// in which the writer appends first.
func latestPlan(t *testing.T, driver string, cfg store.Config, ops int64) workload.Plan {
	t.Helper()
	var rs workload.Roles
	for _, s := range []string{"writer:1:append=100", "reader:1:latest=50,scan=50"} {
		if err := rs.Set(s); err != nil {
			t.Fatal(err)
		}
	}
	p := workload.DefaultPlan()
	p.Driver, p.Store, p.Mode, p.Procs, p.Roles = driver, cfg, workload.ModeGoroutine, rs.Workers(), rs
	p.Keys.Count, p.Preload = 1000, 1000
	p.Phases[0].Mix, p.Phases[0].Ops = workload.RolesMix(rs), ops
	warm := p.Phases[0]
	warm.Name, warm.Ops = "warmup", 20
	p.Warmup = &warm
	if err := p.Validate(); err != nil {
		t.Fatal(err)
	}
	return p
}

// opOf returns the stats of ph's op kind, zero when it has none.
func opOf(ph result.Phase, kind string) result.OpStats {
	for _, o := range ph.Ops {
		if o.Kind == kind {
			return o
		}
	}
	return result.OpStats{}
}
