package judge

import (
	"fmt"
	"math"
	"slices"

	"golang.org/x/perf/benchmath"

	"github.com/gobench/gobench/pkg/result"
	"github.com/gobench/gobench/pkg/units"
)

// Stats summarises repeated measurements of one metric.
type Stats struct {
	N      int       `json:"n"`
	Mean   float64   `json:"mean"`
	StdDev float64   `json:"stddev"` // sample standard deviation; 0 for one value
	Median float64   `json:"median"`
	Min    float64   `json:"min"`
	Max    float64   `json:"max"`
	Values []float64 `json:"values"`
}

// StatsOf computes Stats of values.
func StatsOf(values []float64) Stats {
	s := Stats{N: len(values), Values: slices.Clone(values)}
	if s.N == 0 {
		return s
	}
	sorted := slices.Sorted(slices.Values(values))
	s.Min, s.Max = sorted[0], sorted[s.N-1]
	if s.N%2 == 1 {
		s.Median = sorted[s.N/2]
	} else {
		s.Median = (sorted[s.N/2-1] + sorted[s.N/2]) / 2
	}
	for _, v := range values {
		s.Mean += v
	}
	s.Mean /= float64(s.N)
	if s.N > 1 {
		var ss float64
		for _, v := range values {
			ss += (v - s.Mean) * (v - s.Mean)
		}
		s.StdDev = math.Sqrt(ss / float64(s.N-1))
	}
	return s
}

// RelStdDev is the standard deviation as a fraction of the mean.
func (s Stats) RelStdDev() float64 {
	if s.Mean == 0 {
		return 0
	}
	return s.StdDev / s.Mean
}

// Alpha is the significance level of every comparison.
const Alpha = 0.05

// Factor compares a cell with the baseline on one metric.
type Factor struct {
	// Ratio is the cell's mean over the baseline's.
	Ratio float64 `json:"ratio"`
	// Better says whether the cell is better than the baseline in the
	// metric's direction (ignoring significance).
	Better bool `json:"better"`
	// P is the p-value of a Mann-Whitney U test (as benchstat's) that the
	// two sets of repeats come from one distribution; Significant is
	// P < Alpha.
	P           float64 `json:"p"`
	Significant bool    `json:"significant"`
	// Note explains a comparison that cannot be significant, such as too
	// few repeats.
	Note string `json:"note,omitempty"`
}

// compareStats computes the factor of other against base on metric m.
func compareStats(m Metric, base, other Stats) Factor {
	f := Factor{P: 1}
	if base.Mean != 0 {
		f.Ratio = other.Mean / base.Mean
	}
	if m.HigherIsBetter() {
		f.Better = other.Mean > base.Mean
	} else {
		f.Better = other.Mean < base.Mean
	}
	th := benchmath.DefaultThresholds
	th.CompareAlpha = Alpha
	c := benchmath.AssumeNothing.Compare(benchmath.NewSample(slices.Clone(base.Values), &th), benchmath.NewSample(slices.Clone(other.Values), &th))
	f.P = c.P
	f.Significant = c.P < Alpha
	if len(c.Warnings) > 0 {
		f.Note = fmt.Sprintf("n=%d+%d: too few repeats to tell", c.N1, c.N2)
	}
	return f
}

// CellStats is one cell's summary of one metric.
type CellStats struct {
	Settings result.Settings `json:"settings"`
	Stats    Stats           `json:"stats"`
	// Factor against the baseline; nil for the baseline itself or where
	// the baseline lacks the metric.
	Factor *Factor `json:"factor,omitempty"`
}

// MetricSummary is one metric across the cells of a suite.
type MetricSummary struct {
	Metric    Metric      `json:"metric"`
	Unit      string      `json:"unit"`
	Direction string      `json:"direction"`
	Cells     []CellStats `json:"cells"`
}

// Summary is a suite's statistics.
type Summary struct {
	Suite   *result.Suite
	Metrics []MetricSummary
}

// Summarize computes the statistics of every metric over every cell's
// repeats, and each cell's factor against the baseline.
func Summarize(s *result.Suite, metrics []Metric) *Summary {
	sum := &Summary{Suite: s}
	base := -1
	for i, c := range s.Cells {
		if c.Settings.String() == s.Baseline.String() {
			base = i
		}
	}
	for _, m := range metrics {
		ms := MetricSummary{Metric: m, Unit: m.Unit(), Direction: m.Direction()}
		var baseStats *Stats
		for i, c := range s.Cells {
			var vals []float64
			for _, r := range c.Runs {
				if v, ok := m.Value(r); ok {
					vals = append(vals, v)
				}
			}
			cs := CellStats{Settings: c.Settings, Stats: StatsOf(vals)}
			if i == base && len(vals) > 0 {
				baseStats = &cs.Stats
			}
			ms.Cells = append(ms.Cells, cs)
		}
		if baseStats != nil {
			for i := range ms.Cells {
				if i != base && ms.Cells[i].Stats.N > 0 && baseStats.Mean != 0 { // no ratio to a baseline of 0
					f := compareStats(m, *baseStats, ms.Cells[i].Stats)
					ms.Cells[i].Factor = &f
				}
			}
		}
		if slices.ContainsFunc(ms.Cells, func(c CellStats) bool { return c.Stats.N > 0 }) {
			sum.Metrics = append(sum.Metrics, ms)
		}
	}
	return sum
}

// String renders the factor: "×3.29 better (p=0.008)", or with "~"
// when the difference is not significant.
func (f Factor) String() string {
	word := "worse"
	if f.Better {
		word = "better"
	}
	if f.Ratio == 1 {
		word = "same"
	}
	s := fmt.Sprintf("×%s %s", units.Sig3(f.Ratio), word)
	switch {
	case f.Significant:
		s += fmt.Sprintf(" (p=%.3f)", f.P)
	case f.Note != "":
		s += " (~: " + f.Note + ")"
	default:
		s += fmt.Sprintf(" (~: p=%.3f, not significant)", f.P)
	}
	return s
}
