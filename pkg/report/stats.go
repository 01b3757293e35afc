package report

import (
	"github.com/gobench/gobench/pkg/judge"
	"github.com/gobench/gobench/pkg/result"
)

// The latency statistics each format's run table lists per op kind
// unless Options.Stats names others: rows of the table of figures
// (judge.LatencyStats), so that any percentile a result's histograms hold
// prints with no code here.
var (
	textStats     = judge.DefaultLatencyStats
	csvStats      = judge.DefaultLatencyStats
	markdownStats = []string{"p50", "p90", "p99", "p99.9", "max"}
	htmlStats     = []string{"p50", "p99", "p99.9"}
)

// statsOr returns stats, or when there are none the rows def names (a
// format's own columns, which parse).
func statsOr(stats []*judge.Figure, def []string) []*judge.Figure {
	if len(stats) > 0 {
		return stats
	}
	figs, err := judge.LatencyStats(def)
	if err != nil {
		panic("report: a format's default statistics: " + err.Error()) // a programmer's error, caught by every test
	}
	return figs
}

// statNames returns the statistics' names, as a table's head writes them.
func statNames(stats []*judge.Figure) []string {
	out := make([]string, len(stats))
	for i, f := range stats {
		out[i] = f.Name
	}
	return out
}

// latencyCells renders a latency summary's statistics as a table's
// cells, each as the figure formats it, "–" where it has no value (a
// percentile of a summary that keeps no histogram).
func latencyCells(stats []*judge.Figure, l result.Latency) []string {
	out := make([]string, len(stats))
	for i, f := range stats {
		out[i] = "–"
		if v, ok := f.Latency(l); ok {
			out[i] = f.Format(v)
		}
	}
	return out
}

// anys returns ss as the arguments of a printf.
func anys(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}
