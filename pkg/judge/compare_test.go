package judge

import (
	"errors"
	"strings"
	"testing"

	"github.com/gobench/gobench/pkg/result"
	"github.com/gobench/gobench/pkg/workload"
)

// fileOf builds a result file of one cell: a run per throughput, each
// with CPU per op cpu (µs) and, when cal is given, the machine's
// calibration before and after (µs per unit).
func fileOf(ops []float64, cpu float64, cal []float64) *result.Suite {
	c := result.Cell{}
	for i, v := range ops {
		r := &result.Result{Plan: workload.DefaultPlan(), Complete: true, Phases: []result.Phase{{
			Total: result.OpStats{Kind: "total", Latency: result.Latency{Count: 100_000}, OpsPerSec: v},
			CPU:   &result.CPU{MicrosPerOp: cpu * (1 + 0.01*float64(i%3))},
		}}}
		if cal != nil {
			r.Environment.Machine = &result.Machine{Before: result.Probe{CPUMicros: cal[i%len(cal)]}, After: result.Probe{CPUMicros: cal[(i+1)%len(cal)]}}
		}
		c.Runs = append(c.Runs, r)
	}
	return &result.Suite{Kind: result.SuiteKind, Cells: []result.Cell{c}}
}

func scaled(vs []float64, f float64) []float64 {
	out := make([]float64, len(vs))
	for i, v := range vs {
		out[i] = v * f
	}
	return out
}

var (
	steady = []float64{100, 102, 98, 101, 99}
	noisy  = []float64{100, 130, 80, 115, 90}
	quiet  = []float64{1.50, 1.52, 1.48, 1.51, 1.49}
	tp     = Metric{"total", "ops/s"}
	cpuM   = Metric{"cpu", "µs/op"}
)

// Two invocations: a change the wrong way beyond the threshold and the
// noise, every repeat worse, regresses; one whose worst case within the
// noise stays within the threshold passes; anything between cannot tell
// and says why; without a threshold nothing is judged.
func TestCompareSeparate(t *testing.T) {
	for _, tt := range []struct {
		name     string
		old, new []float64
		max      float64
		want     string
		why      string
	}{
		{"30% slower", steady, scaled(steady, 0.7), 0.1, OutcomeRegression, ""},
		{"the same", steady, steady, 0.1, OutcomePass, ""},
		{"faster", steady, scaled(steady, 1.5), 0.1, OutcomePass, ""},
		{"noise wider than the threshold", noisy, noisy, 0.1, OutcomeInconclusive, "the noise, 50%, is wider than a 10% regression: these files can rule out only one of 50% or more"},
		{"worse, ranges overlapping", noisy, scaled(noisy, 0.85), 0.1, OutcomeInconclusive, "worse by 15.0%, but not every new repeat is worse than every old one"},
		{"no threshold", steady, scaled(steady, 0.5), 0, "", ""},
	} {
		c, err := Compare("old", fileOf(tt.old, 5, quiet), "new", fileOf(tt.new, 5, quiet), []Metric{tp}, CompareOptions{MaxRegression: tt.max})
		if err != nil {
			t.Fatal(err)
		}
		r := c.Rows[0]
		if r.Outcome != tt.want || c.Outcome != tt.want || !strings.Contains(r.Why, tt.why) || r.Regression != (tt.want == OutcomeRegression) {
			t.Errorf("%s: row %s (%q), comparison %s; want %s with %q", tt.name, r.Outcome, r.Why, c.Outcome, tt.want, tt.why)
		}
		err = c.Err(InconclusiveFails)
		switch tt.want {
		case OutcomeRegression:
			if !errors.Is(err, ErrThreshold) || !strings.Contains(err.Error(), "regression: (all) total ops/s: median 100 → 70.0 (-30.0%, higher is better), beyond the 10% allowed") {
				t.Errorf("%s: Err = %v", tt.name, err)
			}
		case OutcomeInconclusive:
			if !errors.Is(err, ErrInconclusive) || c.Err(InconclusivePasses) != nil {
				t.Errorf("%s: Err = %v", tt.name, err)
			}
		default:
			if err != nil {
				t.Errorf("%s: Err = %v", tt.name, err)
			}
		}
	}
}

// A machine whose calibration moved, beyond its probes' noise, by more
// than half the threshold changed: throughput and latency are refused a
// verdict, with the figures, and CPU per op is not judged. A move within
// that is noted and judged through; files without calibrations warn.
func TestCompareMachine(t *testing.T) {
	hogged := scaled(quiet, 2)
	c, err := Compare("old", fileOf(steady, 5, quiet), "new", fileOf(scaled(steady, 0.6), 5, hogged), []Metric{tp, cpuM}, CompareOptions{MaxRegression: 0.1})
	if err != nil {
		t.Fatal(err)
	}
	if m := c.Machine; m == nil || !m.Changed || m.Ratio != 2 || !strings.HasPrefix(m.Why, "the machine was 100% slower during NEW: calibration 3.00µs vs 1.50µs (medians of 10 and 10 probes, 90% interval ×") ||
		!strings.HasSuffix(m.Why, "beyond the 5% a comparison at this threshold absorbs: not a valid comparison of throughput or latency") {
		t.Fatalf("machine: %+v", c.Machine)
	}
	if c.Rows[0].Outcome != OutcomeInconclusive || !strings.Contains(c.Rows[0].Why, "the machine changed") || c.Rows[1].Outcome != "" || c.Outcome != OutcomeInconclusive {
		t.Errorf("rows %+v, outcome %s", c.Rows, c.Outcome)
	}
	err = c.Err(InconclusiveFails)
	if !errors.Is(err, ErrInconclusive) || !strings.HasPrefix(err.Error(), "machine changed: the machine was 100% slower during NEW") {
		t.Errorf("Err = %v", err)
	}
	// A machine 2% faster, within half the threshold: judged through.
	c, _ = Compare("old", fileOf(steady, 5, quiet), "new", fileOf(steady, 5, scaled(quiet, 0.98)), []Metric{tp}, CompareOptions{MaxRegression: 0.1})
	if c.Machine.Changed || !strings.Contains(c.Machine.Why, "2% faster") || !strings.Contains(c.Machine.Why, "its probes show no move beyond the 5%") || c.Outcome != OutcomePass {
		t.Errorf("a steady machine: %+v, %s", c.Machine, c.Outcome)
	}
	// Without calibrations: a warning, and the rows judged.
	c, _ = Compare("old", fileOf(steady, 5, nil), "new", fileOf(steady, 5, quiet), []Metric{tp}, CompareOptions{MaxRegression: 0.1})
	if c.Machine != nil || !strings.Contains(strings.Join(c.Warnings, "\n"), "the machine was not calibrated in both files") || c.Outcome != OutcomePass {
		t.Errorf("no calibration: %+v, %q, %s", c.Machine, c.Warnings, c.Outcome)
	}
}

// CPU per op is judged between invocations only when the calibration
// says the machine held: its median moved by no more than half the
// threshold (5% at 10%) and its probes do not put the move beyond that.
// A third more CPU per op regresses on a machine that held; on one whose
// calibration moved 8% (within its probes' noise or not), or on files
// not calibrated, the row is not judged, saying why, and fails nothing;
// asked for by name, it is inconclusive.
func TestCompareCPUOnlyWhenTheMachineHeld(t *testing.T) {
	jumpy := []float64{1.0, 2.0, 1.4, 1.7, 1.2} // median 1.4: its interval spans ×1
	for _, tt := range []struct {
		name     string
		old, new []float64 // calibrations
		explicit bool
		want     string
		why      string
	}{
		{"held", quiet, scaled(quiet, 1.02), false, OutcomeRegression, ""},
		{"moved 8%, beyond the probes' noise", quiet, scaled(quiet, 1.08), false, "", "not judged: the machine moved (calibration 1.62µs vs 1.50µs, ×1.08, beyond the 5% this comparison absorbs)"},
		{"moved 8% within the probes' noise", jumpy, scaled(jumpy, 1.08), false, "", "not judged: the machine moved (calibration 1.51µs vs 1.40µs, ×1.08"},
		{"moved, asked for by name", quiet, scaled(quiet, 1.5), true, OutcomeInconclusive, "not judged: the machine moved (calibration 2.25µs vs 1.50µs, ×1.50"},
		{"not calibrated", nil, quiet, false, "", "not judged: the machine was not calibrated in both files"},
	} {
		c, err := Compare("old", fileOf(steady, 5, tt.old), "new", fileOf(steady, 6.6, tt.new), []Metric{cpuM}, CompareOptions{MaxRegression: 0.1, Explicit: tt.explicit})
		if err != nil {
			t.Fatal(err)
		}
		r := c.Rows[0]
		if r.Outcome != tt.want || !strings.Contains(r.Why, tt.why) || r.Gated != (tt.want == OutcomeRegression) {
			t.Errorf("%s: row %q (%q), gated %v; want %q with %q", tt.name, r.Outcome, r.Why, r.Gated, tt.want, tt.why)
		}
		if tt.want == "" && c.Err(InconclusiveFails) != nil && c.Machine != nil && !c.Machine.Changed {
			t.Errorf("%s: a row not judged failed the comparison: %v", tt.name, c.Err(InconclusiveFails))
		}
		if tt.want == OutcomeRegression && !errors.Is(c.Err(InconclusiveFails), ErrThreshold) {
			t.Errorf("%s: Err = %v", tt.name, c.Err(InconclusiveFails))
		}
	}
}

// A default metric that cannot be judged is shown; one asked for by name
// is inconclusive.
func TestCompareExplicit(t *testing.T) {
	p99 := Metric{"total", "p99"}
	old, new := fileOf(steady, 5, quiet), fileOf(steady, 5, quiet)
	for _, f := range []*result.Suite{old, new} {
		for _, r := range f.Cells[0].Runs {
			r.Phases[0].Total.Count, r.Phases[0].Total.P99Micros = 500, 100
		}
	}
	for _, explicit := range []bool{false, true} {
		c, err := Compare("old", old, "new", new, []Metric{p99}, CompareOptions{MaxRegression: 0.1, Explicit: explicit})
		if err != nil {
			t.Fatal(err)
		}
		want := ""
		if explicit {
			want = OutcomeInconclusive
		}
		if r := c.Rows[0]; r.Gated || r.Outcome != want || !strings.Contains(r.Why, "needs ≥ 1,000 total ops a run for a p99 (the fewest run had 500)") {
			t.Errorf("explicit %v: %+v", explicit, r)
		}
	}
}

// Interleaved files (gobench ab) are judged on the interval of the ratio:
// wholly worse than the threshold regresses, wholly better passes,
// across it cannot tell; a changed machine is no reason to refuse.
func TestCompareInterleaved(t *testing.T) {
	for _, tt := range []struct {
		name     string
		new      []float64
		want     string
		interval string
	}{
		{"30% slower", scaled(steady, 0.7), OutcomeRegression, ""},
		{"the same", steady, OutcomePass, ""},
		{"at the threshold", scaled(steady, 0.9), OutcomeInconclusive, "straddles ×0.90, a 10% regression: more rounds would narrow it"},
	} {
		c, err := Compare("old", fileOf(steady, 5, quiet), "new", fileOf(tt.new, 5, scaled(quiet, 3)), []Metric{tp}, CompareOptions{MaxRegression: 0.1, Interleaved: true})
		if err != nil {
			t.Fatal(err)
		}
		r := c.Rows[0]
		if r.Outcome != tt.want || c.Outcome != tt.want || r.Confidence < Confidence || r.Low > r.High || !strings.Contains(r.Why, tt.interval) {
			t.Errorf("%s: %+v, %s", tt.name, r, c.Outcome)
		}
	}
	// 5+5 runs: the interval is at 1 − 2·12/252 = 90.5%, and says so.
	c, _ := Compare("old", fileOf(steady, 5, nil), "new", fileOf(scaled(steady, 0.7), 5, nil), []Metric{tp}, CompareOptions{MaxRegression: 0.1, Interleaved: true})
	if err := c.Err(InconclusiveFails); !errors.Is(err, ErrThreshold) || !strings.Contains(err.Error(), "90.5% interval of the ratio ×0.") || !strings.Contains(err.Error(), "all of it beyond the 10% allowed") {
		t.Errorf("Err = %v", err)
	}
}

// A percentile read from runs of too few ops for the ops rule (60
// upserts a run: a p90 wants 100) is judged on the runs' quantile
// intervals: the same runs on both sides put new/old in an interval
// that cannot rule out a 10% regression, so the row asked for by name is
// inconclusive, and a default row is shown and not judged.
func TestComparePercentileOfFewOps(t *testing.T) {
	s := loadSuiteFixture(t, "matrix.json")
	cell := &result.Suite{Kind: s.Kind, Command: s.Command, Cells: []result.Cell{s.Cells[0]}}
	m := Metric{"upsert", "p90"}
	for _, explicit := range []bool{true, false} {
		c, err := Compare("old", cell, "new", cell, []Metric{m}, CompareOptions{MaxRegression: 0.1, Interleaved: true, Explicit: explicit})
		if err != nil {
			t.Fatal(err)
		}
		r := c.Rows[0]
		want := OutcomeInconclusive
		if !explicit {
			want = ""
		}
		if r.Outcome != want || !strings.Contains(r.Why, "their quantile intervals put new/old at") {
			t.Errorf("explicit %v: outcome %q, why %q", explicit, r.Outcome, r.Why)
		}
		// Holm's family is the rows judged: the row asked for by name,
		// not the one only shown.
		rows := 0
		if c.Holm != nil {
			rows = c.Holm.Rows
		}
		if judged := btoi(r.Judged()); rows != judged || !explicit && r.PWorse != 0 {
			t.Errorf("explicit %v: Holm over %d rows, %d judged (p_worse %v)", explicit, rows, judged, r.PWorse)
		}
	}
}

// Holm's family is exactly the rows judged, over a comparison of every
// default row of a recorded cell against itself, interleaved: the thin
// percentiles its quantile intervals cannot decide are shown, not judged,
// and stay out of the family.
func TestHolmFamilyIsTheRowsJudged(t *testing.T) {
	s := loadSuiteFixture(t, "matrix.json")
	cell := &result.Suite{Kind: s.Kind, Command: s.Command, Cells: []result.Cell{s.Cells[0]}}
	c, err := Compare("old", cell, "new", cell, DefaultMetrics(cell), CompareOptions{MaxRegression: 0.1, Interleaved: true})
	if err != nil {
		t.Fatal(err)
	}
	judged, shown := 0, 0
	for _, r := range c.Rows {
		judged += btoi(r.Judged())
		shown += btoi(!r.Judged())
	}
	if shown == 0 || judged == 0 || c.Holm == nil || c.Holm.Rows != judged {
		t.Fatalf("%d rows judged, %d shown, holm %+v: want Holm over exactly the rows judged", judged, shown, c.Holm)
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
