package judge

import "testing"

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
