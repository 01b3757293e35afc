package report

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"golang.org/x/perf/benchmath"

	"github.com/gobench/gobench/pkg/result"
	"github.com/gobench/gobench/pkg/workload"
)

// Metric is one figure read from a phase of a run: a throughput or a
// latency statistic of one op kind, or of all data ops ("total"); or the
// rate of write commits ("commits ops/s") and that rate as a percentage of
// the disk's fsync rate measured before the run ("commits fsync%"); or the
// processor time per data op ("cpu µs/op", see result.CPU).
type Metric struct {
	Kind string // "read", "upsert", …, "total", "commits" or "cpu"
	Stat string // "ops/s", "mean", "p50", "p90", "p99", "p99.9", "max"; "fsync%" for commits; "µs/op" for cpu
}

// kindCPU and statPerOp name the CPU metric; "us/op" is read as "µs/op".
const (
	kindCPU   = "cpu"
	statPerOp = "µs/op"
)

// kindCommits names the write-commit metrics.
const kindCommits = "commits"

// statFsyncPercent is commits per second as a percentage of the disk's
// fsync rate.
const statFsyncPercent = "fsync%"

var stats = []string{"ops/s", "mean", "p50", "p90", "p99", "p99.9", "max"}

// ParseMetric parses "upsert ops/s", "read p99" or "total ops/s".
func ParseMetric(s string) (Metric, error) {
	kind, stat, ok := strings.Cut(strings.TrimSpace(s), " ")
	stat = strings.TrimSpace(stat)
	if kind == kindCPU {
		if stat != statPerOp && stat != "us/op" {
			return Metric{}, fmt.Errorf("metric %q: cpu has %s (or us/op): processor time per data op", s, statPerOp)
		}
		return Metric{Kind: kind, Stat: statPerOp}, nil
	}
	if kind == kindCommits {
		if stat != "ops/s" && stat != statFsyncPercent {
			return Metric{}, fmt.Errorf("metric %q: commits have ops/s and %s (the share of the disk's fsync rate, with --ceiling)", s, statFsyncPercent)
		}
		return Metric{Kind: kind, Stat: stat}, nil
	}
	if !ok || !slices.Contains(stats, stat) {
		return Metric{}, fmt.Errorf("metric %q: want an op kind and a statistic, such as \"upsert ops/s\" or \"read p99\" (statistics: %s)", s, strings.Join(stats, ", "))
	}
	if kind != "total" && !isOwnKind(kind) {
		if err := workload.CheckScriptName(kind); err != nil {
			return Metric{}, fmt.Errorf("metric %q: %q is not an op kind (want read, upsert, update, delete, insert, scan, begin, commit, a script's name, or total)", s, kind)
		}
	}
	return Metric{Kind: kind, Stat: stat}, nil
}

// isOwnKind reports whether kind is one of gobench's own op kinds.
func isOwnKind(kind string) bool {
	_, err := workload.ParseOp(kind)
	return err == nil || kind == workload.OpBegin.String() || kind == workload.OpCommit.String()
}

// checkKind refuses a metric whose kind no run of the suite can have:
// not total, commits or one of gobench's own kinds, and no script's name
// (or statement's, SCRIPT#LINE) in any run's plan.
func (m Metric) checkKind(s *result.Suite) error {
	if m.Kind == "total" || m.Kind == kindCommits || m.Kind == kindCPU || isOwnKind(m.Kind) {
		return nil
	}
	for _, c := range s.Cells {
		for _, r := range c.Runs {
			if names := r.Plan.OpNames(); slices.Contains(names[:], m.Kind) {
				return nil
			}
		}
	}
	return fmt.Errorf("metric %q: %q is not an op kind of these runs (want read, upsert, update, delete, insert, scan, begin, commit, total, or a script's name)", m, m.Kind)
}

// String returns the metric's name, as ParseMetric reads it.
func (m Metric) String() string { return m.Kind + " " + m.Stat }

// HigherIsBetter reports the metric's direction: throughput (and its share
// of the fsync ceiling) is better higher, latency lower.
func (m Metric) HigherIsBetter() bool { return m.Stat == "ops/s" || m.Stat == statFsyncPercent }

// Direction says which way is better, in words.
func (m Metric) Direction() string {
	if m.HigherIsBetter() {
		return "higher is better"
	}
	return "lower is better"
}

// Unit returns the metric's unit.
func (m Metric) Unit() string {
	switch m.Stat {
	case "ops/s":
		return "ops/s"
	case statFsyncPercent:
		return "% of the disk's fsync/s"
	case statPerOp:
		return "µs of CPU per op"
	}
	return "µs"
}

// Value reads the metric from a run's first phase.
func (m Metric) Value(r *result.Result) (float64, bool) {
	if len(r.Phases) == 0 {
		return 0, false
	}
	if m.Kind == kindCommits {
		commits, ok := r.CommitsPerSec(0)
		if !ok || m.Stat == "ops/s" {
			return commits, ok
		}
		if c := r.Environment.Ceiling; c != nil && c.FsyncPerSec > 0 {
			return 100 * commits / c.FsyncPerSec, true
		}
		return 0, false
	}
	ph := &r.Phases[0]
	if m.Kind == kindCPU {
		if ph.CPU == nil {
			return 0, false
		}
		return ph.CPU.MicrosPerOp, true
	}
	o := ph.Total
	if m.Kind != "total" {
		var ok bool
		if o, ok = ph.Op(m.Kind); !ok {
			return 0, false
		}
	}
	switch m.Stat {
	case "ops/s":
		return o.OpsPerSec, true
	case "mean":
		return o.MeanMicros, true
	case "p50":
		return o.P50Micros, true
	case "p90":
		return o.P90Micros, true
	case "p99":
		return o.P99Micros, true
	case "p99.9":
		return o.P999Micros, true
	case "max":
		return o.MaxMicros, true
	}
	return 0, false
}

// Format renders a value of the metric with its unit.
func (m Metric) Format(v float64) string {
	switch m.Stat {
	case "ops/s":
		return Rate(v)
	case statFsyncPercent:
		return sig3(v) + "%"
	}
	return Micros(v)
}

// DefaultMetrics returns the metrics a suite is summarised by: total
// throughput and, where runs measured it, CPU time per op; per data op
// kind its throughput, p50, p99 and p99.9; with a measured fsync ceiling,
// the commit rate and its share of it.
func DefaultMetrics(s *result.Suite) []Metric {
	ms := []Metric{{"total", "ops/s"}}
	var kinds []string
	ceiling, cpu := false, false
	for _, c := range s.Cells {
		for _, r := range c.Runs {
			ceiling = ceiling || r.Environment.Ceiling != nil
			cpu = cpu || r.Phases[0].CPU != nil
			for _, o := range r.Phases[0].Ops {
				if !workload.IsMarkerKind(o.Kind) && !slices.Contains(kinds, o.Kind) {
					kinds = append(kinds, o.Kind)
				}
			}
		}
	}
	if cpu {
		ms = append(ms, Metric{kindCPU, statPerOp})
	}
	for _, st := range []string{"ops/s", "p50", "p99", "p99.9"} {
		for _, k := range kinds {
			ms = append(ms, Metric{k, st})
		}
	}
	if ceiling {
		ms = append(ms, Metric{kindCommits, "ops/s"}, Metric{kindCommits, statFsyncPercent})
	}
	return ms
}

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

// statsOf computes Stats of values.
func statsOf(values []float64) Stats {
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

// alpha is the significance level of every comparison.
const alpha = 0.05

// Factor compares a cell with the baseline on one metric.
type Factor struct {
	// Ratio is the cell's mean over the baseline's.
	Ratio float64 `json:"ratio"`
	// Better says whether the cell is better than the baseline in the
	// metric's direction (ignoring significance).
	Better bool `json:"better"`
	// P is the p-value of a Mann-Whitney U test (as benchstat's) that the
	// two sets of repeats come from one distribution; Significant is
	// P < alpha.
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
	th.CompareAlpha = alpha
	c := benchmath.AssumeNothing.Compare(benchmath.NewSample(slices.Clone(base.Values), &th), benchmath.NewSample(slices.Clone(other.Values), &th))
	f.P = c.P
	f.Significant = c.P < alpha
	if len(c.Warnings) > 0 {
		f.Note = fmt.Sprintf("n=%d+%d: too few repeats to tell", c.N1, c.N2)
	}
	return f
}

// factorText renders a factor: "×3.29 better (p=0.008)", or with "~"
// when the difference is not significant.
func factorText(f Factor) string {
	word := "worse"
	if f.Better {
		word = "better"
	}
	if f.Ratio == 1 {
		word = "same"
	}
	s := fmt.Sprintf("×%s %s", sig3(f.Ratio), word)
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
	Metric    string      `json:"metric"`
	Unit      string      `json:"unit"`
	Direction string      `json:"direction"`
	Cells     []CellStats `json:"cells"`
	metric    Metric
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
		ms := MetricSummary{Metric: m.String(), Unit: m.Unit(), Direction: m.Direction(), metric: m}
		var baseStats *Stats
		for i, c := range s.Cells {
			var vals []float64
			for _, r := range c.Runs {
				if v, ok := m.Value(r); ok {
					vals = append(vals, v)
				}
			}
			cs := CellStats{Settings: c.Settings, Stats: statsOf(vals)}
			if i == base && len(vals) > 0 {
				baseStats = &cs.Stats
			}
			ms.Cells = append(ms.Cells, cs)
		}
		if baseStats != nil {
			for i := range ms.Cells {
				if i != base && ms.Cells[i].Stats.N > 0 {
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
