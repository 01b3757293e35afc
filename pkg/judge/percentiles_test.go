package judge

import (
	"strings"
	"testing"

	"github.com/gobench/gobench/pkg/result"
)

// Any percentile of an op kind is a figure, read from the histogram every
// result keeps: it agrees with the percentiles results store, parses in
// a canonical spelling, gates with the sample rule of the table's rows,
// and lists in a run's table (LatencyStats).
func TestPercentileFamily(t *testing.T) {
	s := loadSuiteFixture(t, "matrix.json")
	r := s.Cells[0].Runs[0]
	for _, o := range append(r.Phases[0].Ops, r.Phases[0].Total) {
		for stat, want := range map[string]float64{"p50": o.P50Micros, "p90": o.P90Micros, "p99": o.P99Micros, "p99.9": o.P999Micros} {
			if got, ok := percentileFigure(stat).Read(r, o.Kind); !ok || got != want {
				t.Errorf("%s %s from the histogram: %v, %v; stored %v", o.Kind, stat, got, ok, want)
			}
		}
	}
	m, err := ParseMetric("read p99.990")
	if err != nil || m.String() != "read p99.99" || m.Unit() != "µs" || m.HigherIsBetter() {
		t.Fatalf("read p99.990: %v (%s, %s), %v", m, m.Unit(), m.Direction(), err)
	}
	p9999, ok := m.Value(r)
	if p999, _ := (Metric{"read", "p99.9"}).Value(r); !ok || p9999 < p999 {
		t.Errorf("read p99.99 %v (%v) below its p99.9 %v", p9999, ok, p999)
	}

	// 1,140 reads a run: a p95 is read from them, a p99.99 (100,000 ops)
	// is not, and says so.
	for gate, want := range map[string]string{"read p95 <= 1s": "pass", "read p95 <= 1us": "fail", "read p99.99 <= 10s": "inconclusive"} {
		for _, g := range evaluate(t, s, gate) {
			if g.Outcome != want || !strings.Contains(g.Verdict, gate) {
				t.Errorf("%s: %s (%s), want %s", gate, g.Outcome, g.Verdict, want)
			}
		}
	}
	const why = "needs ≥ 100,000 read ops a run for a p99.99 (the fewest run had 1,140): raise --queries to"
	if got := sampleRule(m, s.Cells); !strings.HasPrefix(got, why) || !strings.HasSuffix(got, "or gate p99") {
		t.Errorf("read p99.99's sample rule: %q, want %q… or gate p99", got, why)
	}

	stats, err := LatencyStats([]string{"p50", " p99.99", "max"})
	if err != nil || len(stats) != 3 || stats[1].Name != "p99.99" || stats[1].Quantile != 99.99 {
		t.Errorf("LatencyStats: %v, %v", stats, err)
	}
	if v, ok := stats[1].Latency(r.Phases[0].Total.Latency); !ok || v <= 0 {
		t.Errorf("total p99.99 of the latency summary: %v, %v", v, ok)
	}
	for _, bad := range [][]string{{"ops/s"}, {"p100"}, {"p99", "p"}, nil} {
		if _, err := LatencyStats(bad); err == nil {
			t.Errorf("LatencyStats(%q) succeeded", bad)
		}
	}
	if !strings.Contains(MetricHelp(), "pN") || !strings.Contains(FiguresMarkdown(), "`KIND pN`") {
		t.Error("the tables of figures do not list the percentiles pN")
	}
	// A run recorded without its histograms has no p99.99, and says why.
	bare := *r
	bare.Phases = []result.Phase{r.Phases[0]}
	bare.Phases[0].Ops = []result.OpStats{r.Phases[0].Ops[0]}
	bare.Phases[0].Ops[0].Histogram = ""
	kind := bare.Phases[0].Ops[0].Kind
	if _, ok := (Metric{kind, "p99.99"}).Value(&bare); ok {
		t.Error("a p99.99 read without a histogram")
	}
	if why := (Metric{kind, "p99.99"}).Missing(&bare); !strings.Contains(why, "histogram was not kept") {
		t.Errorf("missing: %q", why)
	}
}
