package judge

import (
	"fmt"
	"strings"

	"github.com/gobench/gobench/pkg/result"
)

// capacityMetric names what a capacity gate reads: each cell's
// sustainable rate.
const capacityMetric = "sustainable rate"

// ParseCapacityGate reads a gate on the sustainable rates a capacity
// search found, in the forms of ParseExpectation with the metric
// "sustainable rate": relative, "sustainable rate: wal >= 3x rollback", or
// absolute, "[CELLS:] sustainable rate >= 500" (a rate, with k or M).
func ParseCapacityGate(s string) (Expectation, error) {
	want := fmt.Errorf("--expect %q: want 'sustainable rate: A OP FACTOR B' (such as 'sustainable rate: wal >= 3x rollback') or '[CELLS:] sustainable rate OP LIMIT' (such as 'sustainable rate >= 500')", s)
	if strings.Count(s, capacityMetric) != 1 {
		return Expectation{}, want
	}
	e, err := ParseExpectation(strings.Replace(s, capacityMetric, "total ops/s", 1))
	if err != nil {
		return Expectation{}, want
	}
	e.Text = strings.TrimSpace(s)
	return e, nil
}

// EvaluateCapacity judges capacity gates on c's cells: each cell's
// figure is its confirmed sustainable rate, 0 where none was found (so
// such a cell fails a gate).
func EvaluateCapacity(c *result.Capacity, gates []Expectation) ([]result.Gate, error) {
	out, err := EvaluateFigures(capacitySuite(c), gates)
	for i := range out {
		out[i].Statistic = "confirmed rate"
		out[i].Verdict = gateVerdict(out[i])
	}
	return out, err
}

// capacitySuite presents c as a suite of one run per cell whose total
// throughput is the cell's sustainable rate: the suite's selectors and
// gates then read capacity cells as they read any other.
func capacitySuite(c *result.Capacity) *result.Suite {
	s := &result.Suite{Kind: "suite", Command: c.Command, Varied: c.Varied, Baseline: c.Baseline}
	for _, cv := range c.Cells {
		rate := 0.0
		if cv.Found {
			rate = cv.Rate
		}
		run := &result.Result{Complete: true, Phases: []result.Phase{{Total: result.OpStats{Kind: "total", OpsPerSec: rate}}}}
		s.Cells = append(s.Cells, result.Cell{Settings: cv.Settings.Only(c.Varied), Runs: []*result.Result{run}})
	}
	return s
}
