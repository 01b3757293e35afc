package history

import (
	"context"
	"path/filepath"
	"slices"
	"testing"

	"github.com/gobench/gobench/pkg/judge"
)

// TestSlowerMachineIsNoRegression: runs from c7 on ran on a machine
// whose calibration is 30% slower, and their figures are 30% slower with
// it. Normalised by the calibration, no figure steps; searched raw, each
// does.
func TestSlowerMachineIsNoRegression(t *testing.T) {
	ctx := context.Background()
	h := openTemp(t)
	base := baseRun(t)
	addTwelve(t, h, twelve(t, base, 0, from7(1.3), func(i int) float64 { return 10 * from7(1.3)(i) }))
	cases := []struct {
		figure string
		basis  Basis
	}{
		{"read p99", BasisCPU},
		{"total ops/s", BasisCPU},
		{"upsert p99", BasisFsync},
		{"upsert ops/s", BasisFsync},
	}
	for _, c := range cases {
		t.Run(c.figure, func(t *testing.T) {
			for _, raw := range []bool{false, true} {
				o := DefaultOptions
				o.Raw = raw
				ss, err := h.Show(ctx, Query{Figure: c.figure}, o)
				if err != nil {
					t.Fatal(err)
				}
				if len(ss) != 1 {
					t.Fatalf("%d series, want 1", len(ss))
				}
				sr := ss[0]
				if sr.Basis != c.basis {
					t.Errorf("normalised by %q, want %q", sr.Basis, c.basis)
				}
				if want := map[bool]int{false: 0, true: 1}[raw]; len(sr.Changes) != want {
					t.Errorf("raw %v: change points %+v, want %d", raw, sr.Changes, want)
				}
			}
		})
	}
}

// TestDriftedRunsLeftOut: a run whose CPU calibration moved by more than
// MaxDrift between before and after is shown, marked, and not searched: a
// point made of it alone (c7, its figures twice as slow) makes no change
// point, and every other point is searched.
func TestDriftedRunsLeftOut(t *testing.T) {
	ctx := context.Background()
	h := openTemp(t)
	base := baseRun(t)
	runs := twelve(t, base, 0, constant(1), constant(10))
	for i := 6; i < 8; i++ { // c7 and c8: two slow points that would make a step
		s := synth{at: runs[i].Cells[0].Runs[0].StartedAt, slow: 2, cpu: 10, fsync: 1000, drift: 0.25}
		runs[i] = s.run(t, base)
	}
	addTwelve(t, h, runs)
	for _, drift := range []float64{0.10, 0.50} {
		o := DefaultOptions
		o.MaxDrift = drift
		ss, err := h.Show(ctx, Query{Figure: "read p99"}, o)
		if err != nil {
			t.Fatal(err)
		}
		sr := ss[0]
		var excluded []string
		for _, e := range sr.Excluded {
			excluded = append(excluded, e.Commit)
		}
		leftOut := drift < 0.25
		if want := map[bool][]string{true: {"c7", "c8"}, false: nil}[leftOut]; !slices.Equal(excluded, want) {
			t.Errorf("max drift %g: runs left out %v, want %v", drift, excluded, want)
		}
		if sr.Points[6].Excluded != leftOut || sr.Points[5].Excluded {
			t.Errorf("max drift %g: c7 excluded %v, c6 %v", drift, sr.Points[6].Excluded, sr.Points[5].Excluded)
		}
		if got := len(sr.Changes) > 0; got == leftOut {
			t.Errorf("max drift %g: change points %+v", drift, sr.Changes)
		}
	}
}

// openTemp opens a new history file in the test's directory, closed with
// the test.
func openTemp(t *testing.T) *Store {
	t.Helper()
	h, err := Open(context.Background(), filepath.Join(t.TempDir(), "h.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	return h
}

// TestBasisOfWritingKinds: every writing op kind's latency and throughput
// are normalised by the fsync probe, a role's by its op's, the others'
// by the CPU loop, counts by none.
func TestBasisOfWritingKinds(t *testing.T) {
	t.Parallel()
	both := []Sample{{Cal: Calibration{CPUBefore: 1, CPUAfter: 1, FsyncBefore: 1, FsyncAfter: 1}}}
	cases := []struct {
		figure string
		want   Basis
	}{
		{"upsert p99", BasisFsync},
		{"append p99", BasisFsync},
		{"append ops/s", BasisFsync},
		{"read-modify-write p99", BasisFsync},
		{"writer append p99", BasisFsync},
		{"writer total ops/s", BasisCPU},
		{"reader read p99", BasisCPU},
		{"read p99", BasisCPU},
		{"total ops/s", BasisCPU},
	}
	for _, c := range cases {
		m, err := judge.ParseMetric(c.figure)
		if err != nil {
			t.Fatalf("%s: %v", c.figure, err)
		}
		if got := basisOf(m, both); got != c.want {
			t.Errorf("%s: normalised by %q, want %q", c.figure, got, c.want)
		}
	}
}
