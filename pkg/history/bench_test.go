package history

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/gobench/gobench/pkg/result"
)

// benchRuns is the size of the benchmarks' history: the 10,000
// results.
const benchRuns = 10000

// manyRuns returns n runs of one plan, one commit each, the base run's
// figures 30% slower from the middle on: copies of one decoded run, each
// started a minute after the last.
func manyRuns(b *testing.B, n int) []*result.Suite {
	b.Helper()
	base, err := result.Read(bytes.NewReader(baseRun(b)))
	if err != nil {
		b.Fatal(err)
	}
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	out := make([]*result.Suite, n)
	for i := range out {
		r := *base
		r.StartedAt = start.Add(time.Duration(i) * time.Minute)
		r.Phases = slices.Clone(base.Phases)
		ph := &r.Phases[0]
		ph.Ops = slices.Clone(ph.Ops)
		slow := 1 + 0.01*float64(i%7)/7
		if i >= n/2 {
			slow *= 1.3
		}
		for _, o := range append([]*result.OpStats{&ph.Total}, ptrs(ph.Ops)...) {
			o.OpsPerSec /= slow
			o.P99Micros *= slow
		}
		s, err := result.NewSuite(r.Command, "single", []*result.Result{&r}, "")
		if err != nil {
			b.Fatal(err)
		}
		out[i] = s
	}
	return out
}

// addAll adds runs one Add (one transaction) each, as a CI job's
// history add of its one result file, each its own commit.
func addAll(b *testing.B, h *Store, runs []*result.Suite) {
	b.Helper()
	for j, r := range runs {
		if _, err := h.Add(context.Background(), Meta{Commit: fmt.Sprintf("c%05d", j), Branch: "main"}, r); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkAdd10000 adds 10,000 results, one Add (one transaction) each,
// to a new SQLite history.
func BenchmarkAdd10000(b *testing.B) {
	runs := manyRuns(b, benchRuns)
	for b.Loop() {
		h, err := Open(context.Background(), filepath.Join(b.TempDir(), "h.db"))
		if err != nil {
			b.Fatal(err)
		}
		addAll(b, h, runs)
		h.Close()
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N*benchRuns), "µs/result")
}

// BenchmarkShow10000 reads one figure's series of 10,000 commits and
// finds its change points (the one step in the middle).
func BenchmarkShow10000(b *testing.B) {
	h, err := Open(context.Background(), filepath.Join(b.TempDir(), "h.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer h.Close()
	addAll(b, h, manyRuns(b, benchRuns))
	for b.Loop() {
		ss, err := h.Show(context.Background(), Query{Figure: "read p99", Branch: "main"}, DefaultOptions)
		if err != nil {
			b.Fatal(err)
		}
		if len(ss) != 1 || len(ss[0].Points) != benchRuns || len(ss[0].Changes) != 1 {
			b.Fatalf("%d series; want one of %d points and one change point", len(ss), benchRuns)
		}
	}
}
