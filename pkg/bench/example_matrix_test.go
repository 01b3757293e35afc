package bench_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/gobench/gobench/pkg/bench"
	"github.com/gobench/gobench/pkg/judge"
	"github.com/gobench/gobench/pkg/result"
	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/store/sqlite"
	"github.com/gobench/gobench/pkg/workload"
)

// runJournals runs the same write-heavy mix once per journal mode, each on
// a database of its own, with SQLite's options typed (no JSON keys), and
// groups the runs into a suite of one cell per journal, the first the
// baseline.
func runJournals(dir string, journals ...string) *result.Suite {
	var runs []*result.Result
	for _, j := range journals {
		plan := workload.DefaultPlan()
		plan.Mode, plan.Goroutines = workload.ModeGoroutine, 2
		plan.Keys.Count, plan.Preload = 500, 500
		plan.Phases[0].Ops = 300
		plan.Phases[0].Mix = workload.Mix{{Op: workload.OpRead, Percent: 50}, {Op: workload.OpUpsert, Percent: 50}}
		opts := sqlite.DefaultOptions()
		opts.Journal, opts.Sync = j, "normal"
		plan.Store = store.Config{Path: filepath.Join(dir, j+".db"), Options: opts.Encode()}
		r, err := bench.Run(context.Background(), plan, sqlite.Modernc())
		if err != nil {
			log.Fatal(err)
		}
		runs = append(runs, r)
	}
	baseline := "" // one cell is its own baseline
	if len(journals) > 1 {
		baseline = "journal=" + journals[0]
	}
	s, err := result.NewSuite("library", "interleaved", runs, baseline)
	if err != nil {
		log.Fatal(err)
	}
	return s
}

// Compare two journal modes as a matrix: one cell each, the rollback
// journal the baseline, and read each cell's factor on total throughput
// (a rank test over repeats says whether it is significant; with one run
// a cell it cannot be).
func Example_matrix() {
	dir, err := os.MkdirTemp("", "gobench-example-")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)

	s := runJournals(dir, "rollback", "wal")
	total, _ := judge.ParseMetric("total ops/s")
	sum := judge.Summarize(s, []judge.Metric{total})
	for _, c := range sum.Metrics[0].Cells {
		if c.Factor == nil {
			fmt.Println(c.Settings, "baseline")
			continue
		}
		fmt.Println(c.Settings, "factor measured:", c.Factor.Ratio > 0, "significant:", c.Factor.Significant)
	}
	// Output:
	// journal=rollback baseline
	// journal=wal factor measured: true significant: false
}

// Gate a result as --expect does: parse the gate, evaluate it on the
// suite, read each verdict: pass, fail, or inconclusive. A percentile of
// a few ops is judged on its distribution-free interval: a p99 of some
// hundred upserts is surely below an hour and surely above a nanosecond,
// while a limit inside its interval would be inconclusive, with the ops
// that would decide it.
func Example_gate() {
	dir, err := os.MkdirTemp("", "gobench-example-")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)

	s := runJournals(dir, "wal")
	var gates []judge.Expectation
	for _, g := range []string{"upsert p50 <= 3600s", "upsert p99 <= 3600s", "upsert p99 <= 1ns"} {
		gate, err := judge.ParseExpectation(g)
		if err != nil {
			log.Fatal(err)
		}
		gates = append(gates, gate)
	}
	verdicts, err := judge.Evaluate(s, gates)
	if err != nil {
		log.Fatal(err)
	}
	for _, v := range verdicts {
		fmt.Println(v.Expression+":", v.OutcomeOf())
	}
	// Output:
	// upsert p50 <= 3600s: pass
	// upsert p99 <= 3600s: pass
	// upsert p99 <= 1ns: fail
}
