package judge

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

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

// Alpha is the two-sided level of the rank test whose p a factor
// reports (P): 1 − Confidence, so that p ≤ Alpha and an interval of the
// ratio at Confidence clear of ×1, the rule every verdict reads, say the
// same of samples without ties (3+3 runs wholly apart: p = 2/20, the
// interval at exactly 90%).
const Alpha = 1 - Confidence

// Factor compares a cell with the baseline on one metric.
type Factor struct {
	// Ratio is the cell's median over the baseline's: the figure tables
	// show.
	Ratio float64 `json:"ratio"`
	// Better says whether the cell is better than the baseline in the
	// metric's direction (ignoring significance); Neutral that the
	// metric has none (Figure.Neutral), so neither is.
	Better  bool `json:"better"`
	Neutral bool `json:"neutral,omitempty"`
	// Low, High and Confidence are the interval of the ratio of the
	// cell's figure to the baseline's that a relative gate reads
	// (RatioInterval), at its true confidence; zero where there is none
	// (Note says why).
	Low        float64 `json:"low,omitempty"`
	High       float64 `json:"high,omitempty"`
	Confidence float64 `json:"confidence,omitempty"`
	// Significant says that interval lies wholly on one side of ×1: the
	// rule a relative gate passes or fails by, so a headline and a gate
	// on one pair of cells never say two things. P is the two-sided
	// p-value of the Mann-Whitney U test (as benchstat's) beside it, for
	// reference.
	P           float64 `json:"p"`
	Significant bool    `json:"significant"`
	// Note explains a comparison that cannot be significant, such as too
	// few repeats, or too few ops under a tail percentile; P is then not
	// a figure to read.
	Note string `json:"note,omitempty"`
}

// compareStats computes the factor of other against base on metric m:
// the ratio of their medians, as tables show it, and significance on a
// relative gate's rule, the interval of the ratio (RatioInterval) clear
// of ×1.
func compareStats(m Metric, base, other Stats) Factor {
	f := Factor{P: 1, Neutral: m.Neutral()}
	if base.Median != 0 {
		f.Ratio = other.Median / base.Median
	}
	if m.HigherIsBetter() {
		f.Better = other.Median > base.Median
	} else {
		f.Better = other.Median < base.Median
	}
	if f.Neutral {
		f.Better = false
	}
	th := benchmath.DefaultThresholds
	th.CompareAlpha = Alpha
	c := benchmath.AssumeNothing.Compare(benchmath.NewSample(slices.Clone(base.Values), &th), benchmath.NewSample(slices.Clone(other.Values), &th))
	f.P = c.P
	iv, ok := RatioInterval(other.Values, base.Values)
	switch {
	case ok && allEqual(base.Values, other.Values):
		// The test has nothing to rank (a figure at its resolution's
		// floor): no test, and not for want of repeats.
		f.Note = fmt.Sprintf("all %d runs measured the same", base.N+other.N)
	case ok:
		f.Low, f.High, f.Confidence = iv.Lo, iv.Hi, iv.Confidence
		f.Significant = iv.Lo > 1 || iv.Hi < 1
	case base.N >= MinRatioRepeats && other.N >= MinRatioRepeats &&
		(slices.ContainsFunc(base.Values, notPositive) || slices.ContainsFunc(other.Values, notPositive)):
		f.Note = "a figure of 0 has no ratio" // too few repeats says it first
	default:
		f.Note = fmt.Sprintf("n=%d+%d: too few repeats to tell", base.N, other.N)
	}
	return f
}

// Interval renders the factor's interval with its true confidence:
// "90% ×1.69–×2.41"; "" where it has none.
func (f Factor) Interval() string {
	if f.Confidence == 0 {
		return ""
	}
	return fmt.Sprintf("%s%% ×%s–×%s", ConfidenceLabel(f.Confidence), units.Sig3(f.Low), units.Sig3(f.High))
}

// ConfidenceLabel writes a confidence as a percentage to three figures
// at most, as it truly is: 0.9 as "90", 0.9375 as "93.8", 0.984375 as
// "98.4".
func ConfidenceLabel(c float64) string {
	return strconv.FormatFloat(roundSig(100*c, 3), 'f', -1, 64)
}

// roundSig rounds v to n significant figures.
func roundSig(v float64, n int) float64 {
	if v == 0 {
		return 0
	}
	scale := math.Pow(10, float64(n)-math.Ceil(math.Log10(math.Abs(v))))
	return math.Round(v*scale) / scale
}

// allEqual reports whether every value of a and b is one value.
func allEqual(a, b []float64) bool {
	vs := append(slices.Clone(a), b...)
	for _, v := range vs {
		if v != vs[0] {
			return false
		}
	}
	return len(vs) > 0
}

// CellStats is one cell's summary of one metric.
type CellStats struct {
	Settings result.Settings `json:"settings"`
	Stats    Stats           `json:"stats"`
	// Factor against the baseline; nil for the baseline itself or where
	// the baseline lacks the metric.
	Factor *Factor `json:"factor,omitempty"`
	// Missing says why a cell has no value (Stats.N is 0): not measured,
	// which is not zero.
	Missing string `json:"missing,omitempty"`
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

// Repeats returns the fewest and the most runs a cell of the suite has.
func (sum *Summary) Repeats() (fewest, most int) {
	for i, c := range sum.Suite.Cells {
		if i == 0 || len(c.Runs) < fewest {
			fewest = len(c.Runs)
		}
		most = max(most, len(c.Runs))
	}
	return fewest, most
}

// Summarize computes the statistics of every metric over every cell's
// repeats, and each cell's factor against the baseline: the ratio of
// their medians, with the rank test's p where the repeats allow one and
// the runs hold enough ops for the metric's percentile (a p99.9 needs
// 10,000 ops a run, as gates and compare require).
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
			if len(vals) == 0 && len(c.Runs) > 0 {
				cs.Missing = m.Missing(c.Runs[0])
			}
			if i == base && len(vals) > 0 {
				baseStats = &cs.Stats
			}
			ms.Cells = append(ms.Cells, cs)
		}
		if baseStats != nil {
			for i := range ms.Cells {
				if isSpeed(m) && (tracedCell(s.Cells[base]) || tracedCell(s.Cells[i])) {
					continue // a traced speed is the recorder's as much as the engine's (Ranked.Traced)
				}
				if i != base && ms.Cells[i].Stats.N > 0 && baseStats.Median != 0 { // no ratio to a baseline of 0
					f := compareStats(m, *baseStats, ms.Cells[i].Stats)
					if why, _, _, _ := sampleShort(m, []result.Cell{s.Cells[base], s.Cells[i]}); why != "" && f.Note == "" { // too few repeats says it first
						f.Significant, f.Note = false, why
					}
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

// Word says which way the factor goes: "better", "worse", "same", or
// nothing for a metric without a direction.
func (f Factor) Word() string {
	switch {
	case f.Ratio == 1:
		return "same"
	case f.Neutral:
		return ""
	case f.Better:
		return "better"
	}
	return "worse"
}

// Short renders the ratio and its direction alone: "×3.29 better".
func (f Factor) Short() string {
	return strings.TrimSpace("×" + units.Ratio(f.Ratio) + " " + f.Word())
}

// String renders the factor: "×3.29 better (90% ×2.61–×4.55)", the
// interval that made it significant, or with "~" when it is not.
func (f Factor) String() string {
	s := f.Short()
	switch {
	case f.Significant:
		s += " (" + f.Interval() + ")"
	case f.Note != "":
		s += " (~: " + f.Note + ")"
	default:
		s += " (~: " + f.Interval() + ", not significant)"
	}
	return s
}

// isSpeed says whether a metric is a speed or a latency, which a traced
// run (--crash) measures through its recorder.
func isSpeed(m Metric) bool {
	u := m.Unit()
	return u == "ops/s" || strings.HasPrefix(u, "µs")
}
