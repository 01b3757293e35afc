package judge

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/gobench/gobench/pkg/bytesize"
	"github.com/gobench/gobench/pkg/result"
	"github.com/gobench/gobench/pkg/units"
	"github.com/gobench/gobench/pkg/workload"
)

// Metric is one figure read from a phase of a run: a throughput or a
// latency statistic of one op kind, or of all data ops ("total"); or the
// rate of write commits ("commits ops/s") and the syncs they made per
// second (commits times the syncs each made, counted where the engine
// traces its I/O, else one each) as a percentage of the disk's fsync rate
// measured before the run ("commits fsync%"); or the
// processor time per data op ("cpu µs/op", see result.CPU); or the syncs
// and bytes per acknowledged commit ("io syncs/commit", "io
// bytes/commit"); or what a --crash run's power cuts found: the most
// acknowledged writes one state lost ("lost acked writes"), the states
// that were corrupt ("corrupt states") or lost writes ("lossy states").
type Metric struct {
	Kind string // "read", "upsert", …, "total", "commits", "cpu", "io", "lost", "corrupt" or "lossy"
	Stat string // "ops/s", "mean", "p50", "p90", "p99", "p99.9", "max"; "fsync%" for commits; "µs/op" for cpu; the rest's own
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

// The I/O per acknowledged commit (result.PhaseIO) and what a --crash
// run's power cuts found (result.Durability): counts and per-commit
// figures, lower better. Each reads "KIND STAT", as every metric does.
var countMetrics = []Metric{
	{"io", "syncs/commit"},
	{"io", "bytes/commit"},
	{"lost", "acked writes"},
	{"corrupt", "states"},
	{"lossy", "states"},
}

// countMetric returns the metric s names among countMetrics.
func countMetric(s string) (Metric, bool) {
	for _, m := range countMetrics {
		if m.String() == strings.Join(strings.Fields(s), " ") {
			return m, true
		}
	}
	return Metric{}, false
}

// isCount reports whether m is one of countMetrics.
func (m Metric) isCount() bool { return slices.Contains(countMetrics, m) }

var stats = []string{"ops/s", "mean", "p50", "p90", "p99", "p99.9", "max"}

// ParseMetric parses "upsert ops/s", "read p99" or "total ops/s".
func ParseMetric(s string) (Metric, error) {
	if m, ok := countMetric(s); ok {
		return m, nil
	}
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
	if m.Kind == "total" || m.Kind == kindCommits || m.Kind == kindCPU || m.isCount() || isOwnKind(m.Kind) {
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
	if m.isCount() {
		switch m.Stat {
		case "syncs/commit":
			return unitSyncs
		case "bytes/commit":
			return unitBytes
		case "acked writes":
			return unitLost
		}
		return unitStates
	}
	return "µs"
}

// The units of the count metrics.
const (
	unitSyncs  = "syncs per commit"
	unitBytes  = "bytes per commit"
	unitLost   = "acknowledged writes lost, the most in one crash state"
	unitStates = "crash states"
)

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
			if syncs, traced := r.SyncsPerSec(0); traced {
				return 100 * syncs / c.FsyncPerSec, true
			}
			return 100 * commits / c.FsyncPerSec, true
		}
		return 0, false
	}
	if m.isCount() {
		return m.countValue(r)
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

// countValue reads a count metric from a run: its first phase's I/O
// per commit, or its power cuts' findings; ok is false where the run has
// none (its I/O was not traced, it ran no --crash).
func (m Metric) countValue(r *result.Result) (float64, bool) {
	if m.Kind == "io" {
		io := r.Phases[0].IO
		if io == nil || io.Commits == 0 {
			return 0, false
		}
		if m.Stat == "syncs/commit" {
			return io.SyncsPerCommit, true
		}
		return io.BytesPerCommit, true
	}
	d := r.Durability
	if d == nil {
		return 0, false
	}
	switch m.Kind {
	case "lost":
		return float64(d.MaxLost), true
	case "corrupt":
		return float64(d.Corrupt), true
	}
	return float64(d.Lossy), true
}

// Format renders a value of the metric with its unit.
func (m Metric) Format(v float64) string {
	switch m.Stat {
	case "ops/s":
		return units.Rate(v)
	case statFsyncPercent:
		return units.Sig3(v) + "%"
	case "syncs/commit":
		return units.Fixed(v, 2)
	case "bytes/commit":
		return bytesize.Units{}.Round(int64(math.Round(v)))
	}
	if m.isCount() {
		if v == math.Trunc(v) && math.Abs(v) < 1e15 {
			return fmt.Sprintf("%.0f", v)
		}
		return units.Sig3(v)
	}
	return units.Micros(v)
}

// DefaultMetrics returns the metrics a suite is summarised by: total
// throughput and, where runs measured it, CPU time per op; per data op
// kind its throughput, p50, p99 and p99.9; with a measured fsync ceiling,
// the commit rate and its share of it; where runs have them, the syncs
// and bytes per commit and what --crash found.
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
	for _, m := range countMetrics {
		if anyRun(s, func(r *result.Result) bool { _, ok := m.Value(r); return ok }) {
			ms = append(ms, m)
		}
	}
	return ms
}

// anyRun reports whether f holds for a run of the suite.
func anyRun(s *result.Suite, f func(*result.Result) bool) bool {
	for _, c := range s.Cells {
		for _, r := range c.Runs {
			if f(r) {
				return true
			}
		}
	}
	return false
}

// MarshalText gives the metric's name (String), so that it reads in JSON
// as "read p99".
func (m Metric) MarshalText() ([]byte, error) { return []byte(m.String()), nil }

// UnmarshalText parses a metric's name (ParseMetric).
func (m *Metric) UnmarshalText(b []byte) error {
	v, err := ParseMetric(string(b))
	if err != nil {
		return err
	}
	*m = v
	return nil
}
