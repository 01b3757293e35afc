package coord

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/spf13/pflag"

	"github.com/gobench/gobench/pkg/judge"
	"github.com/gobench/gobench/pkg/runner"
	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/store/all"
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
			b.ReportMetric(harnessNsPerOp(b, mode, int64(b.N), nil), "window-ns/op")
		})
	}
}

// BenchmarkHarness25 is what gobench's harness costs per op at 25 worker
// processes, in CPU time (the figure a loaded machine leaves alone, where
// wall time does not): the worker processes' own CPU per op from START to
// their last op (worker-ns/op), the coordinator's over the same span
// (coord-ns/op), and their sum. With the null engine, whose ops cost
// nothing, the sum is all harness (harness-ns/op); with capi (WAL,
// synchronous=NORMAL) it is SQLite and the harness together (cpu-ns/op),
// of which the coordinator's part is all harness.
// bench/baseline/harness.sh sets capi's against a bare program's.
func BenchmarkHarness25(b *testing.B) {
	reg := all.Registry()
	for _, tc := range []struct {
		driver string
		ops    int64 // per process
		total  string
	}{
		{"null", 100_000, "harness-ns/op"},
		{"capi", 10_000, "cpu-ns/op"},
	} {
		b.Run(tc.driver, func(b *testing.B) {
			var options json.RawMessage
			if tc.driver != "null" {
				if _, err := reg.Lookup(tc.driver); err != nil {
					b.Skipf("%s: %v", tc.driver, err) // a build without cgo
				}
				options = mixVariants(b, reg, tc.driver)[0].options // WAL
			}
			var workers, coord float64
			for b.Loop() {
				p := nullPlan(25, 1, tc.ops)
				if tc.driver != "null" {
					p = mixPlan(b, reg, tc.driver, options)
					p.Phases[0].Ops = tc.ops
				}
				res, err := Run(context.Background(), Config{Plan: p, Registry: reg, Command: helper("serve"), ReadyTimeout: time.Minute, StallTimeout: 10 * time.Minute})
				if err != nil {
					b.Fatal(err)
				}
				ph := res.Phases[0]
				if ph.Total.Count != 25*tc.ops || ph.Total.Errors.Total > 0 || ph.CPU == nil || ph.CPU.Coordinator == nil {
					b.Fatalf("%d ops, %d errors, cpu %+v: not the run this benchmark measures", ph.Total.Count, ph.Total.Errors.Total, ph.CPU)
				}
				workers += ph.CPU.MicrosPerOp * 1e3
				coord += ph.CPU.Coordinator.MicrosPerOp * 1e3
			}
			n := float64(b.N)
			b.ReportMetric(workers/n, "worker-ns/op")
			b.ReportMetric(coord/n, "coord-ns/op")
			b.ReportMetric((workers+coord)/n, tc.total)
		})
	}
}

// harnessNsPerOp runs n ops on one worker of the null engine, the mix's
// or, with sql, a script's, and returns the time per op inside the run's
// window.
func harnessNsPerOp(b *testing.B, mode string, n int64, sql *workload.SQL) float64 {
	p := nullPlan(1, 1, n)
	p.Mode = mode
	p.Keys.Count, p.Preload = 1000, 0
	if sql != nil {
		p.SQL, p.Phases[0].Mix = sql, sql.Mix()
	}
	res, err := Run(context.Background(), Config{Plan: p, Registry: all.Registry(), Command: helper("serve")})
	if err != nil {
		b.Fatal(err)
	}
	ph := res.Phases[0]
	if ph.Total.Count != n {
		b.Fatalf("count %d, want %d", ph.Total.Count, n)
	}
	return ph.WallSeconds * 1e9 / float64(n)
}

// BenchmarkSQLHarness is what running a script instead of a key-value op
// costs gobench, end to end on one worker process of the null engine
// (whose statements do nothing): dealing the script, running its \set
// lines, binding its parameters, clocking and recording it. Two scripts:
// a statement whose parameter is a predefined variable (the harness
// alone), and pgbench's usual \set of a random key before it (the harness
// and one expression). It runs the three in interleaved rounds (so that
// what else the machine does falls on all alike) and reports each
// against the mix's op, as medians; it fails only when the statement
// alone costs more than 1.2× a mix op beyond doubt: when the whole 90%
// interval of the ratio (judge.RatioInterval) lies above 1.2. One round on
// a shared machine measured 1.29× once, where the interval straddles.
func BenchmarkSQLHarness(b *testing.B) {
	script := func(text string) *workload.SQL {
		return &workload.SQL{Scale: 1, Scripts: []workload.SQLFile{{File: "get.sql", Text: text, Weight: 1}}}
	}
	const rounds = 5
	bound, set := script("SELECT v FROM kv WHERE k = :client_id;"), script("\\set k random(1, 1000)\nSELECT v FROM kv WHERE k = :k;")
	for b.Loop() {
		var mixes, bounds, sets []float64
		for range rounds {
			mixes = append(mixes, harnessNsPerOp(b, workload.ModeProcess, 500_000, nil))
			bounds = append(bounds, harnessNsPerOp(b, workload.ModeProcess, 500_000, bound))
			sets = append(sets, harnessNsPerOp(b, workload.ModeProcess, 500_000, set))
		}
		mix, bm, sm := judge.StatsOf(mixes).Median, judge.StatsOf(bounds).Median, judge.StatsOf(sets).Median
		b.ReportMetric(mix, "mix-ns/op")
		b.ReportMetric(bm, "sql-ns/op")
		b.ReportMetric(sm, "sql+set-ns/op")
		b.ReportMetric(bm/mix, "sql/mix")
		b.ReportMetric(sm/mix, "sql+set/mix")
		if iv, ok := judge.RatioInterval(bounds, mixes); ok && iv.Lo > 1.2 {
			b.Fatalf("a script of one statement costs the harness %.0f ns, %.2f× a mix op's %.0f ns (90%% interval ×%.2f–×%.2f over %d interleaved rounds): more than 1.2×", bm, bm/mix, mix, iv.Lo, iv.Hi, rounds)
		}
	}
}

// BenchmarkMix is the 25-worker mix, 2,000 ops per worker, per driver
// and in each journal mode its engine has (WAL and rollback for SQLite,
// at synchronous=NORMAL): the figures the README compares with a bare
// program doing the same work (bench/baseline). Workers are processes, or
// goroutines for an engine whose data lives in one process's memory; every
// engine gets only the options it binds, and a read that finds no row
// fails the benchmark (the keys are preloaded: it would be measuring
// nothing).
func BenchmarkMix(b *testing.B) {
	reg := all.Registry()
	for _, driver := range reg.Names() {
		if driver == "null" {
			continue
		}
		for _, v := range mixVariants(b, reg, driver) {
			b.Run(driver+v.name, func(b *testing.B) {
				var reads, writes, p99, cpu float64
				for b.Loop() {
					p := mixPlan(b, reg, driver, v.options)
					// Ten minutes without a completion before a worker counts as
					// stalled: behind a saturated disk, 25 rollback-journal
					// writers may queue that long for their fsyncs.
					res, err := Run(context.Background(), Config{Plan: p, Registry: reg, Command: helper("serve"), ReadyTimeout: time.Minute, StallTimeout: 10 * time.Minute})
					if err != nil {
						b.Fatal(err)
					}
					r, _ := res.Phases[0].Op("read")
					u, _ := res.Phases[0].Op("upsert")
					if r.Count == 0 || r.NotFound > 0 || res.Phases[0].Total.Errors.Total > 0 {
						b.Fatalf("%d reads, %d found no row, %d errors: not the mix this benchmark measures", r.Count, r.NotFound, res.Phases[0].Total.Errors.Total)
					}
					reads += r.OpsPerSec
					writes += u.OpsPerSec
					p99 += res.Phases[0].Total.P99Micros
					if c := res.Phases[0].CPU; c != nil {
						cpu += c.MicrosPerOp
					}
				}
				n := float64(b.N)
				b.ReportMetric(reads/n, "reads/s")
				b.ReportMetric(writes/n, "writes/s")
				b.ReportMetric(p99/n, "p99-µs")
				b.ReportMetric(cpu/n, "cpu-µs/op")
			})
		}
	}
}

// mixVariant is one configuration of an engine: its name as a
// sub-benchmark suffix and the store options.
type mixVariant struct {
	name    string
	options json.RawMessage
}

// mixVariants returns the configurations BenchmarkMix measures of driver:
// one per journal mode for an engine with a --journal flag (at
// synchronous=NORMAL, busy timeout 1 minute), else the engine's defaults.
func mixVariants(b *testing.B, reg *store.Registry, driver string) []mixVariant {
	settings := reg.Settings().Of(driver)
	if settings == nil || !slices.Contains(settings.Flags(), "journal") {
		cells, err := reg.Settings().Cells(driver, store.Want{})
		if err != nil || len(cells) != 1 {
			b.Fatalf("%s: %d default cells, %v", driver, len(cells), err)
		}
		return []mixVariant{{"", cells[0].Options}}
	}
	var out []mixVariant
	for _, journal := range []string{"wal", "rollback"} {
		s := reg.Settings().Of(driver)
		fs := pflag.NewFlagSet("bench", pflag.ContinueOnError)
		s.AddFlags(fs)
		// A minute's busy timeout: on a loaded machine a lock may be held
		// for seconds (25 writers fsyncing in turn behind a busy disk); the
		// benchmark measures that slowly rather than failing on it.
		if err := fs.Parse([]string{"--journal", journal, "--sync", "normal", "--busy-timeout", "1m"}); err != nil {
			b.Fatal(err)
		}
		cells, err := s.Cells(store.Want{})
		if err != nil || len(cells) != 1 {
			b.Fatalf("%s %s: %d cells, %v", driver, journal, len(cells), err)
		}
		out = append(out, mixVariant{"/" + journal, cells[0].Options})
	}
	return out
}

// mixPlan is the 25-worker mix on driver with options, in a new temporary
// directory.
func mixPlan(b *testing.B, reg *store.Registry, driver string, options json.RawMessage) *workload.Plan {
	p := nullPlan(25, 1, 2000)
	drv, err := reg.Lookup(driver)
	if err != nil {
		b.Fatal(err)
	}
	if store.ShareOf(drv).Sharing != store.ShareProcesses {
		p.Mode, p.Procs, p.Goroutines = workload.ModeGoroutine, 1, 25
	}
	p.Driver = driver
	p.Store = store.Config{Path: filepath.Join(b.TempDir(), "mix.db"), Options: options}
	return p
}

// BenchmarkIngest is the coordinator's capacity to take samples: 1, 2 and
// 4 worker processes of the null engine (whose ops cost nothing) stream
// as fast as they can, and the coordinator's own CPU time (getrusage of
// this process, which its worker processes are not part of) is divided by
// the samples it decoded and merged. coord-ns/sample is that cost and
// samples/s/core its inverse: how many samples one core of coordinator
// takes. Each worker process has its own reader goroutine, and each
// worker its own recorder (the shared timeline is locked once per worker
// and second), so ingest spreads over the coordinator's cores; samples/s
// is what this machine's cores took, worker processes included.
func BenchmarkIngest(b *testing.B) {
	const perProc = 1_000_000
	for _, procs := range []int{1, 2, 4} {
		b.Run(fmt.Sprintf("procs=%d", procs), func(b *testing.B) {
			var cpu time.Duration
			var samples int64
			var wall float64
			for b.Loop() {
				p := nullPlan(procs, 1, perProc)
				before, ok := runner.ProcessCPU()
				if !ok {
					b.Skip("no getrusage on this system")
				}
				res, err := Run(context.Background(), Config{Plan: p, Registry: all.Registry(), Command: helper("serve")})
				if err != nil {
					b.Fatal(err)
				}
				after, _ := runner.ProcessCPU()
				d := after.Sub(before)
				cpu += d.User + d.System
				ph := res.Phases[0]
				if ph.Total.Count != int64(procs*perProc) {
					b.Fatalf("%d samples, want %d", ph.Total.Count, procs*perProc)
				}
				samples += ph.Total.Count
				wall += ph.WallSeconds
			}
			ns := float64(cpu.Nanoseconds()) / float64(samples)
			b.ReportMetric(ns, "coord-ns/sample")
			b.ReportMetric(1e9/ns, "samples/s/core")
			b.ReportMetric(float64(samples)/wall, "samples/s")
		})
	}
}
