package judge

import (
	"math"
	"strings"
	"testing"

	"github.com/gobench/gobench/pkg/result"
	"github.com/gobench/gobench/pkg/workload"
)

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9*math.Max(1, math.Abs(b)) }

// Statistics against values worked out by hand.
func TestSummarise(t *testing.T) {
	s := StatsOf([]float64{2, 4, 4, 4, 5, 5, 7, 9})
	// mean 40/8 = 5; squared deviations sum to 32; sample variance 32/7.
	if s.N != 8 || s.Mean != 5 || !near(s.StdDev, math.Sqrt(32.0/7)) || s.Median != 4.5 || s.Min != 2 || s.Max != 9 {
		t.Errorf("Summarise = %+v", s)
	}
	s = StatsOf([]float64{3, 1, 2})
	if s.Median != 2 || s.Mean != 2 || s.StdDev != 1 {
		t.Errorf("Summarise(3,1,2) = %+v", s)
	}
	if s := StatsOf([]float64{7}); s.StdDev != 0 || s.Median != 7 {
		t.Errorf("one value: %+v", s)
	}
	if s := StatsOf(nil); s.N != 0 {
		t.Errorf("no values: %+v", s)
	}
}

// Factor direction: higher throughput is better, lower latency is better.
func TestCompareDirection(t *testing.T) {
	base := StatsOf([]float64{100, 101, 99, 100, 100})
	fast := StatsOf([]float64{300, 303, 297, 300, 301})
	tput, _ := ParseMetric("read ops/s")
	lat, _ := ParseMetric("read p99")

	f := compareStats(tput, base, fast)
	if f.Ratio != 3 { // the medians' ratio, 300 / 100, as gates read it (the means' is 3.002)
		t.Errorf("ratio = %v, want 3", f.Ratio)
	}
	if !f.Better || !f.Significant || f.P >= Alpha {
		t.Errorf("3× throughput over 5+5 repeats: %+v, want better and significant", f)
	}
	if f := compareStats(lat, base, fast); f.Better {
		t.Errorf("3× the latency counted as better: %+v", f)
	}
	if f := compareStats(lat, fast, base); !f.Better || !near(f.Ratio, base.Median/fast.Median) {
		t.Errorf("a third of the latency: %+v, want better", f)
	}
	// Three repeats each, every new above every old: the 90% interval of
	// the ratio (the 1st to the 9th of the nine ratios 10/3 … 12/1, its
	// tails 1/20 each) is clear of ×1, so the factor is significant, as a
	// relative gate on the pair passes.
	f = compareStats(tput, StatsOf([]float64{1, 2, 3}), StatsOf([]float64{10, 11, 12}))
	if !f.Significant || f.Note != "" || !near(f.Low, 10.0/3) || f.High != 12 || !near(f.Confidence, 0.9) {
		t.Errorf("3+3 repeats: %+v, want significant on the interval ×3.33–×12", f)
	}
	if got := f.String(); got != "×5.50 better (90% ×3.33–×12.0)" { // 11 / 2
		t.Errorf("FactorText = %q", got)
	}
	// Two repeats a side cannot reach a 90% interval: the factor says so
	// rather than claiming significance.
	f = compareStats(tput, StatsOf([]float64{1, 2}), StatsOf([]float64{10, 11}))
	if f.Significant || f.Note != "n=2+2: too few repeats to tell" || f.String() != "×7.00 better (~: n=2+2: too few repeats to tell)" {
		t.Errorf("2+2 repeats: %+v (%s), want not significant with a note", f, f)
	}
	// Identical samples are never significant.
	if f := compareStats(tput, base, base); f.Significant || f.Ratio != 1 {
		t.Errorf("identical samples: %+v", f)
	}
	// Every run the same (a latency at its resolution's floor): no test,
	// and not for want of repeats.
	same := StatsOf([]float64{30, 30, 30, 30, 30})
	if f := compareStats(lat, same, same); f.Significant || f.Note != "all 10 runs measured the same" {
		t.Errorf("5+5 equal runs: %+v", f)
	}
	if f := compareStats(lat, StatsOf([]float64{30, 30}), StatsOf([]float64{30, 30})); f.Note != "n=2+2: too few repeats to tell" {
		t.Errorf("2+2 equal runs: %+v, want too few repeats first", f)
	}
}

// A headline and a relative gate on one pair of cells say one thing: on
// the recorded matrix (3+3 runs), wal's upsert ops/s against rollback's
// pass "wal >= 1.5x rollback" on the interval ×1.69–×2.41, and the
// table's factor is significant on that same interval.
func TestFactorAgreesWithRelativeGate(t *testing.T) {
	s := loadSuiteFixture(t, "matrix.json")
	up, _ := ParseMetric("upsert ops/s")
	sum := Summarize(s, []Metric{up})
	f := sum.Metrics[0].Cells[1].Factor
	g := evaluate(t, s, "upsert ops/s: wal >= 1.5x rollback")[0]
	if g.Outcome != result.OutcomePass || f == nil || !f.Significant || f.Low != g.Low || f.High != g.High || f.Confidence != g.Confidence {
		t.Fatalf("gate %s on ×%v–×%v at %v; factor %+v", g.Outcome, g.Low, g.High, g.Confidence, f)
	}
	if !strings.Contains(f.String(), "(90% ×1.69–×2.41)") {
		t.Errorf("factor %s", f)
	}
}

func TestConfidenceLabel(t *testing.T) {
	for _, tt := range []struct {
		c    float64
		want string
	}{{0.9, "90"}, {1 - 2.0/32, "93.8"}, {1 - 2.0/128, "98.4"}, {0.95, "95"}, {1 - 2.0/20, "90"}, {0.9048, "90.5"}} {
		if got := ConfidenceLabel(tt.c); got != tt.want {
			t.Errorf("ConfidenceLabel(%v) = %q, want %q", tt.c, got, tt.want)
		}
	}
}

// A suite table's factor, a comparison and a gate decide a percentile on
// one rule: p99 from 1,600 reads a run is read, with its rank test's p;
// p99.9 from them is not (it needs 10,000), and the table's factor
// carries no p but the reason, in compare's words.
func TestTailPercentileDecidable(t *testing.T) {
	cell := func(value string, scale float64) result.Cell {
		c := result.Cell{Settings: result.Settings{{Name: "journal", Value: value}}}
		for i := range 5 {
			p := workload.DefaultPlan()
			lat := result.Latency{Count: 1600, P99Micros: scale * float64(100+i), P999Micros: scale * float64(400+i)}
			c.Runs = append(c.Runs, &result.Result{Plan: p, Complete: true, Phases: []result.Phase{{
				Total: result.OpStats{Kind: "total", Latency: lat}, Ops: []result.OpStats{{Kind: "read", Latency: lat}}}}})
		}
		return c
	}
	s := &result.Suite{Kind: result.SuiteKind, Varied: []string{"journal"}, Baseline: result.Settings{{Name: "journal", Value: "rollback"}},
		Cells: []result.Cell{cell("rollback", 1), cell("wal", 2)}}
	p99, _ := ParseMetric("read p99")
	p999, _ := ParseMetric("read p99.9")
	sum := Summarize(s, []Metric{p99, p999})
	if len(sum.Metrics) != 2 {
		t.Fatalf("%d metrics summarised", len(sum.Metrics))
	}
	if f := sum.Metrics[0].Cells[1].Factor; f == nil || !f.Significant || f.Note != "" || f.P >= Alpha {
		t.Errorf("read p99 of 1,600 reads, ×2 over 5+5 runs: %+v, want significant", f)
	}
	const why = "needs ≥ 10,000 read ops a run for a p99.9 (the fewest run had 1,600)"
	f := sum.Metrics[1].Cells[1].Factor
	if f == nil || f.Significant || f.Note != why || strings.Contains(f.String(), "p=") {
		t.Errorf("read p99.9 of 1,600 reads: %+v (%s), want no p and %q", f, f, why)
	}
	c, err := Compare("old", &result.Suite{Kind: result.SuiteKind, Cells: s.Cells[:1]}, "new",
		&result.Suite{Kind: result.SuiteKind, Cells: []result.Cell{{Settings: s.Cells[0].Settings, Runs: s.Cells[1].Runs}}},
		[]Metric{p99, p999}, CompareOptions{MaxRegression: 0.1})
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Rows) != 2 || !c.Rows[0].Gated || c.Rows[1].Gated || c.Rows[1].Why != why {
		t.Errorf("compare: rows %+v, want p99 judged and p99.9 not, saying %q", c.Rows, why)
	}
}

func TestParseMetric(t *testing.T) {
	for _, ok := range []string{"upsert ops/s", "read p99", "total ops/s", "read p99.9", "commit p50", "commits ops/s", "commits fsync%", "cpu µs/op", "cpu us/op", "read p98", "read p99.99", "total p0.5"} {
		if _, err := ParseMetric(ok); err != nil {
			t.Errorf("ParseMetric(%q): %v", ok, err)
		}
	}
	for _, bad := range []string{"upsert", "read p100", "read p0", "read p1e1", "read p-5", "read p99.", "read pNaN", "fr#ob ops/s", "total:x p99", "", "commits p99", "read fsync%", "cpu p99", "cpu ops/s"} {
		if _, err := ParseMetric(bad); err == nil {
			t.Errorf("ParseMetric(%q) succeeded", bad)
		}
	}
}

// A 2×2 matrix gets a headline per varied setting at each value of the
// other (WAL against rollback at FULL and at NORMAL), each from two
// cells that differ in that setting alone (never the diagonal), on total
// ops/s and each data op's p99.
func TestHeadlines(t *testing.T) {
	m := loadSuiteFixture(t, "matrix.json")
	rollback, wal := m.Cells[0].Runs, m.Cells[1].Runs
	cell := func(journal, sync string, runs []*result.Result) result.Cell {
		return result.Cell{Settings: result.Settings{{Name: "journal", Value: journal}, {Name: "sync", Value: sync}}, Runs: runs}
	}
	s := &result.Suite{Command: m.Command, Order: m.Order, Varied: []string{"journal", "sync"},
		Baseline: result.Settings{{Name: "journal", Value: "rollback"}, {Name: "sync", Value: "full"}},
		Cells: []result.Cell{
			cell("rollback", "full", rollback), cell("wal", "full", wal),
			cell("rollback", "normal", wal[:2]), cell("wal", "normal", rollback),
		}}
	sum := Summarize(s, DefaultMetrics(s))
	hs := sum.Headlines()
	var got []string
	for _, h := range hs {
		got = append(got, h.Pair())
		var names []string
		for _, m := range h.Metrics {
			names = append(names, m.String())
		}
		if strings.Join(names, ",") != "total ops/s,read p99,upsert p99" {
			t.Errorf("%s=%s: metrics %v", h.Setting, h.Value, names)
		}
	}
	if want := "journal=wal vs rollback at sync=full,journal=wal vs rollback at sync=normal,sync=normal vs full at journal=rollback,sync=normal vs full at journal=wal"; strings.Join(got, ",") != want {
		t.Fatalf("headlines %q, want %q", got, want)
	}
	// wal's total ops/s over rollback's, as the metric table has it.
	total := sum.Metrics[0]
	if want := total.Cells[1].Factor.Ratio; hs[0].Factors[0].Ratio != want || want <= 1 {
		t.Errorf("journal headline ratio %v, want the table's %v (> 1)", hs[0].Factors[0].Ratio, want)
	}
	// The headline at NORMAL compares the two NORMAL cells, not either
	// with the baseline: wal,normal ran rollback's runs and rollback,normal
	// wal's, so WAL reads worse there.
	if f := hs[1].Factors[0]; f.Better || f.Ratio >= 1 {
		t.Errorf("journal=wal vs rollback at sync=normal: %+v, want worse (the cells hold each other's runs)", f)
	}
	// Three repeats against two: significant or not, the test is run.
	if f := hs[2].Factors[0]; f.P >= 1 && f.Note == "" {
		t.Errorf("sync headline has neither a p-value nor a note: %+v", f)
	}
	if line := hs[0].String(); !strings.HasPrefix(line, "journal=wal vs rollback at sync=full: total ops/s ×") || !strings.Contains(line, " · upsert p99 ×") {
		t.Errorf("headline text %q", line)
	}
}

// A relative gate prints the estimate its interval is built around, the
// Hodges-Lehmann ratio (the median of every ratio of a wal run to a
// rollback run: of 10, 5, 3.33, 11, 5.5, 3.67, 30, 15, 10, it is 10),
// beside the ratio of medians (11/2 = 5.5), with the interval's true
// confidence (3+3 runs: exactly 90%).
func TestRelativeGateEstimate(t *testing.T) {
	if got := RatioEstimate([]float64{10, 11, 30}, []float64{1, 2, 3}); got != 10 {
		t.Errorf("RatioEstimate = %v, want 10", got)
	}
	if got := RatioEstimate([]float64{4, 9}, []float64{1}); got != 6 { // √(4·9)
		t.Errorf("RatioEstimate of an even count = %v, want 6", got)
	}
	g := evaluate(t, synthetic([]float64{1, 2, 3}, []float64{10, 11, 30}, 1000), "total ops/s: wal >= 2x rollback")[0]
	if g.Estimate != 10 || g.Ratio != 5.5 || !strings.Contains(g.Verdict, "= ×5.50, Hodges-Lehmann ×10.0, 90% interval ×") {
		t.Errorf("gate %+v", g)
	}
}
