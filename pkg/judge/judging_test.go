package judge

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/gobench/gobench/pkg/result"
	"github.com/gobench/gobench/pkg/workload"
)

// Worked examples of the ratio interval: every ratio aᵢ/bⱼ sorted, k cut
// off each end, k from the exact distribution of U.
func TestRatioInterval(t *testing.T) {
	near := func(a, b float64) bool { return math.Abs(a-b) < 1e-9 }
	for _, tt := range []struct {
		name         string
		a, b         []float64
		lo, hi, conf float64
		ok           bool
	}{
		// 3+3: P(U=0) = 1/C(6,3) = 1/20, so k=1: the extreme ratios, at exactly 90%.
		{"3+3", []float64{10, 11, 12}, []float64{5, 5.5, 6}, 10.0 / 6, 12.0 / 5, 0.9, true},
		// 5+5: P(U≤4) = 12/252 ≤ 5% < P(U≤5) = 19/252, so k=5 of 25 ratios.
		{"5+5", []float64{1, 2, 3, 4, 5}, []float64{1, 2, 3, 4, 5}, 0.5, 2, 1 - 24.0/252, true},
		{"2+2 is too few", []float64{1, 2}, []float64{1, 2}, 0, 0, 0, false},
		{"3+2 is too few", []float64{1, 2, 3}, []float64{1, 2}, 0, 0, 0, false},
		{"a zero has no ratio", []float64{0, 1, 2}, []float64{1, 2, 3}, 0, 0, 0, false},
	} {
		iv, ok := RatioInterval(tt.a, tt.b)
		if ok != tt.ok || (ok && (!near(iv.Lo, tt.lo) || !near(iv.Hi, tt.hi) || !near(iv.Confidence, tt.conf))) {
			t.Errorf("%s: %+v, %v; want [%v, %v] at %v, %v", tt.name, iv, ok, tt.lo, tt.hi, tt.conf, tt.ok)
		}
	}
	// 30+30 is still exact (a binary search over the U distribution), and
	// the tail it cuts is the one asked for, within a step of U.
	var a30 []float64
	for i := range 30 {
		a30 = append(a30, float64(100+i))
	}
	if iv, ok := RatioInterval(a30, a30); !ok || iv.Lo >= 1 || iv.Hi <= 1 || iv.Confidence < Confidence || iv.Confidence > Confidence+0.01 {
		t.Errorf("30+30: %+v, %v", iv, ok)
	}
	// Large samples take the normal approximation; two equal ones hold ×1.
	var a, b []float64
	for i := range 60 {
		a, b = append(a, float64(100+i)), append(b, float64(100+(i*7)%60))
	}
	if iv, ok := RatioInterval(a, b); !ok || iv.Lo >= 1 || iv.Hi <= 1 || iv.Confidence != Confidence {
		t.Errorf("60+60: %+v, %v", iv, ok)
	}
}

// The median's interval is benchmath's: the range of 5 values at
// 1-2/2⁵; 4 values are too few.
func TestMedianInterval(t *testing.T) {
	if iv, ok := MedianInterval([]float64{5, 1, 4, 2, 3}); !ok || iv.Lo != 1 || iv.Hi != 5 || math.Abs(iv.Confidence-(1-2.0/32)) > 1e-9 {
		t.Errorf("5 values: %+v, %v", iv, ok)
	}
	if _, ok := MedianInterval([]float64{1, 2, 3, 4}); ok {
		t.Error("4 values gave an interval at 90%")
	}
}

// synthetic builds a suite of two cells, rollback and wal, whose runs
// have the given total throughputs and read p99s (µs), n reads each.
func synthetic(rollback, wal []float64, reads int64) *result.Suite {
	cell := func(value string, figures []float64) result.Cell {
		c := result.Cell{Settings: result.Settings{{Name: "journal", Value: value}}}
		for _, f := range figures {
			p := workload.DefaultPlan()
			p.Phases[0].Ops = 1000
			c.Runs = append(c.Runs, &result.Result{Plan: p, Complete: true, Phases: []result.Phase{{
				Total: result.OpStats{Kind: "total", Latency: result.Latency{Count: reads}, OpsPerSec: f},
				Ops:   []result.OpStats{{Kind: "read", Latency: result.Latency{Count: reads, P99Micros: f}}},
			}}})
		}
		return c
	}
	return &result.Suite{Kind: result.SuiteKind, Varied: []string{"journal"}, Baseline: result.Settings{{Name: "journal", Value: "rollback"}},
		Cells: []result.Cell{cell("rollback", rollback), cell("wal", wal)}}
}

// Every verdict on every side of its interval, from synthetic repeats:
// an interval wholly on the passing side passes, wholly on the failing
// side fails, across the threshold is inconclusive; for both directions
// of comparison, relative and absolute gates, with and without enough
// runs for an interval.
func TestVerdictsOnEachSide(t *testing.T) {
	five := []float64{100, 104, 96, 102, 98}
	times := func(vs []float64, f float64) []float64 {
		out := make([]float64, len(vs))
		for i, v := range vs {
			out[i] = v * f
		}
		return out
	}
	for _, tt := range []struct {
		gate          string
		rollback, wal []float64
		want, why     string
	}{
		// Relative, higher is better: wal/rollback spans about ±10% of the factor's multiple.
		{"total ops/s: wal >= 2x rollback", five, times(five, 2.5), "pass", ""},
		{"total ops/s: wal >= 2x rollback", five, times(five, 1.5), "fail", ""},
		{"total ops/s: wal >= 2x rollback", five, times(five, 2), "inconclusive", "straddles ×2.00: the figure sits at the threshold"},
		{"total ops/s: wal >= 2x rollback", five, times(five, 2.03), "inconclusive", "runs a cell would decide it if the figure stays at ×2.03"},
		{"total ops/s: wal >= 2x rollback", five, times(five, 2.01), "inconclusive", "at this noise it would take more than 200 runs a cell to decide; gate a threshold further from the figure (×2.01)"},
		{"total ops/s: wal > 2x rollback", five, times(five, 2.5), "pass", ""},
		// Relative, lower is better: the interval below the factor passes.
		{"read p99: wal <= 0.5x rollback", five, times(five, 0.4), "pass", ""},
		{"read p99: wal <= 0.5x rollback", five, times(five, 0.7), "fail", ""},
		{"read p99: wal < 0.5x rollback", five, times(five, 0.5), "inconclusive", "straddles ×0.50"},
		{"read p99: wal <= 0.5x rollback", five[:2], times(five[:2], 0.1), "inconclusive", "a 90% interval of the ratio needs 3 runs a cell: raise --repeat to 3"},
		// Absolute with 5 runs: the median's interval [96, 104].
		{"wal: total ops/s >= 90", five, five, "pass", ""},
		{"wal: total ops/s >= 110", five, five, "fail", ""},
		{"wal: total ops/s >= 100", five, five, "inconclusive", "the interval 96.0 ops/s–104 ops/s straddles 100 ops/s"},
		{"wal: read p99 < 95us", five, five, "fail", ""},
		{"wal: read p99 < 105us", five, five, "pass", ""},
		// Absolute with fewer than 5 runs: every run, or none, or some.
		{"wal: read p99 <= 99us", five, five[2:3], "pass", ""},
		{"wal: read p99 <= 95us", five, five[2:3], "fail", ""},
		{"wal: read p99 <= 101us", five, five[:3], "inconclusive", "2 of 3 runs meet the limit"},
		// A percentile from too few ops a run, with an op count per worker to aim at.
		{"wal: read p99 <= 1s", five, five, "inconclusive", "needs ≥ 1,000 read ops a run for a p99 (the fewest run had 500): raise --queries to 2000, or gate p90"},
	} {
		reads := int64(5000)
		if strings.Contains(tt.why, "fewest run had 500") {
			reads = 500
		}
		gates := evaluate(t, synthetic(tt.rollback, tt.wal, reads), tt.gate)
		g := gates[len(gates)-1]
		if g.Outcome != tt.want || !strings.Contains(g.Verdict, tt.why) || (tt.want == "inconclusive") != (g.Why != "") {
			t.Errorf("%s (wal %v): %s, %q; want %s with %q", tt.gate, tt.wal, g.Outcome, g.Verdict, tt.want, tt.why)
		}
		if tt.want != "inconclusive" && g.Low == 0 && g.High == 0 {
			t.Errorf("%s: no interval recorded: %+v", tt.gate, g)
		}
	}
}

// One run is judged on its own figure and says so; a cell without the
// figure is inconclusive; EvaluateFigures keeps the old rule, pass or
// fail on the medians, whatever the runs.
func TestOneRunAndFigures(t *testing.T) {
	s := synthetic([]float64{100}, []float64{250}, 10)
	g := evaluate(t, s, "wal: total ops/s >= 200")[0]
	if g.Outcome != result.OutcomePass || !strings.HasSuffix(g.Verdict, "(one run: its own figure, no interval)") {
		t.Errorf("one run: %+v", g)
	}
	if g := evaluate(t, s, "total ops/s: wal >= 2x rollback")[0]; g.Outcome != result.OutcomeInconclusive {
		t.Errorf("a relative gate on one run each: %s", g.Verdict)
	}
	s.Cells[1].Runs[0].Phases[0].Ops = nil
	if g := evaluate(t, s, "wal: read p50 <= 1s")[0]; g.Outcome != result.OutcomeInconclusive || !g.NoFigure || !strings.HasSuffix(g.Verdict, "journal=wal has no read p50 figure: no such op ran") {
		t.Errorf("no figure: %s", g.Verdict)
	}
	zero := synthetic([]float64{0, 0, 0}, []float64{5, 6, 7}, 10)
	if g := evaluate(t, zero, "total ops/s: wal >= 2x rollback")[0]; g.Outcome != result.OutcomeInconclusive || !strings.HasSuffix(g.Verdict, "journal=rollback's total ops/s is 0: no ratio can be taken to it") {
		t.Errorf("a zero to take a ratio to: %s", g.Verdict)
	}
	e, _ := ParseExpectation("total ops/s: wal >= 2x rollback")
	figs, err := EvaluateFigures(synthetic([]float64{100}, []float64{250}, 10), []Expectation{e})
	if err != nil || figs[0].Outcome != result.OutcomePass || figs[0].Verdict != "gate passed: total ops/s: wal >= 2x rollback: journal=wal 250 ops/s / journal=rollback 100 ops/s = ×2.50 (one run)" {
		t.Errorf("EvaluateFigures: %+v, %v", figs, err)
	}
}

// A run bound by a duration is told a longer one; a phase that visits
// every key is told nothing it could set.
func TestMoreOps(t *testing.T) {
	p := workload.DefaultPlan()
	p.Phases[0].Ops, p.Phases[0].Duration = 0, workload.Duration(10*time.Second)
	if got := moreOps(p, 2.5); got != "raise --duration to 25s" {
		t.Errorf("duration: %q", got)
	}
	p.Phases[0].Access = workload.AccessEach
	if got := moreOps(p, 2); got != "" {
		t.Errorf("each-key phase: %q", got)
	}
	for _, tt := range []struct {
		v, want float64
	}{{7312, 7400}, {5000, 5000}, {99.1, 100}, {1, 1}} {
		if got := roundUp2(tt.v); math.Abs(got-tt.want) > 1e-9 {
			t.Errorf("roundUp2(%v) = %v, want %v", tt.v, got, tt.want)
		}
	}
	if got := thousands(1234567); got != "1,234,567" {
		t.Errorf("thousands = %q", got)
	}
}

func TestGatesSummary(t *testing.T) {
	gates := []result.Gate{{Outcome: "pass"}, {Outcome: "fail"}, {Outcome: "inconclusive"}, {Pass: true}}
	if got := GatesSummary(gates); got != "4 gates: 1 failed, 1 inconclusive, 2 passed" {
		t.Errorf("GatesSummary = %q", got)
	}
	if _, err := ParseInconclusive("maybe"); err == nil {
		t.Error("--inconclusive maybe parsed")
	}
}

// A replayed trace has no --queries or --duration: its statements are
// the capture's, and more of them take a longer capture.
func TestMoreOpsReplay(t *testing.T) {
	if got, want := moreOps(workload.Plan{Replay: &workload.Replay{}}, 1000.0/61), "capture a trace of about 17× as many"; got != want {
		t.Errorf("moreOps of a replay: %q, want %q", got, want)
	}
}
