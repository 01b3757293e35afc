package judge

import (
	"slices"
	"testing"

	"github.com/gobench/gobench/pkg/result"
)

// A script named like the first word of a whole figure ("write" of
// write fairness) still has its own statistics.
func TestMetricOfAScriptNamedLikeAFigure(t *testing.T) {
	m, err := ParseMetric("write mean")
	if err != nil || m != (Metric{Kind: "write", Stat: "mean"}) {
		t.Errorf("write mean: %+v, %v", m, err)
	}
	if m, err := ParseMetric("write fairness"); err != nil || m.Figure() == nil || m.Figure().Name != "write fairness" {
		t.Errorf("write fairness: %+v, %v", m, err)
	}
	if _, err := ParseMetric("commits"); err == nil {
		t.Error("commits alone parsed")
	}
}

// A replay's headline statements are those that took the most time, of
// those that ran often enough for a p99: a CREATE INDEX run once, however
// long, is no headline.
func TestTopStatementsThin(t *testing.T) {
	r := &result.Result{Phases: []result.Phase{{Ops: []result.OpStats{
		{Kind: "qindex", Latency: result.Latency{Count: 1, MeanMicros: 1e6}},
		{Kind: "qread", Latency: result.Latency{Count: 1000, MeanMicros: 10}},
		{Kind: "qfew", Latency: result.Latency{Count: ThinCount - 1, MeanMicros: 1e3}},
		{Kind: "qwrite", Latency: result.Latency{Count: ThinCount, MeanMicros: 100}},
	}}}}
	s := &result.Suite{Cells: []result.Cell{{Runs: []*result.Result{r}}}}
	if got, want := topStatements(s, 3), []string{"qread", "qwrite"}; !slices.Equal(got, want) {
		t.Errorf("top statements %v, want %v", got, want)
	}
}
