package judge

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/gobench/gobench/pkg/result"
	"github.com/gobench/gobench/pkg/units"
	"github.com/gobench/gobench/pkg/workload"
)

// Metric names one figure of a run (a row of Figures): a statistic of one
// op kind, or of all data ops ("total"): "read p99", "total ops/s"; or a
// figure named whole: "cpu µs/op", "io syncs/commit", "lost acked
// writes". Kind is the op kind, or the whole name's first word; Stat the
// statistic, or the rest of the whole name.
type Metric struct {
	Kind string
	Stat string
}

// ParseMetric parses a figure's name: "upsert ops/s", "read p99", "total
// ops/s", or a figure named whole, "lost acked writes" (see Figures).
func ParseMetric(s string) (Metric, error) {
	if f := figureNamed(s); f != nil {
		return wholeMetric(f.Name), nil
	}
	kind, stat, ok := strings.Cut(strings.TrimSpace(s), " ")
	stat = strings.TrimSpace(stat)
	if m, ok := roleMetric(kind, stat); ok {
		return m, nil
	}
	// "write" begins a figure's whole name (write fairness) but is also a
	// script's name users give, with statistics of its own ("write
	// mean"); the other first words (cpu, commits, io…) name only figures.
	if whole := wholeNamesOf(kind); len(whole) > 0 && (kind != "write" || !ok || statFigure(stat) == nil) {
		return Metric{}, fmt.Errorf("metric %q: %s has %s", s, kind, strings.Join(whole, " and "))
	}
	if !ok || statFigure(stat) == nil {
		return Metric{}, fmt.Errorf("metric %q: want an op kind and a statistic, such as \"upsert ops/s\" or \"read p99\" (statistics: %s, or any percentile pN), or one of: %s", s, strings.Join(opStats, ", "), strings.Join(wholeNames(), ", "))
	}
	if kind != "total" && !isOwnKind(kind) {
		if err := workload.CheckScriptName(kind); err != nil {
			return Metric{}, fmt.Errorf("metric %q: %q is not an op kind (want read, upsert, update, delete, append, latest, insert, scan, begin, commit, a script's name, or total)", s, kind)
		}
	}
	return Metric{Kind: kind, Stat: statFigure(stat).Name}, nil // p99.990 reads as p99.99
}

// roleMetric reads a role's statistic, "ROLE KIND STAT" ("reader read
// p99", "writer total ops/s"), split as role and the rest: its Kind is
// "ROLE KIND" (result.Phase.Op reads it from the role's figures).
func roleMetric(role, rest string) (Metric, bool) {
	kind, stat, ok := strings.Cut(rest, " ")
	stat = strings.TrimSpace(stat)
	if !ok || statFigure(stat) == nil || kind != "total" && !isOwnKind(kind) || isOwnKind(role) || role == "total" {
		return Metric{}, false
	}
	return Metric{Kind: role + " " + kind, Stat: statFigure(stat).Name}, true
}

// wholeMetric splits a whole name into a Metric.
func wholeMetric(name string) Metric {
	kind, stat, _ := strings.Cut(name, " ")
	return Metric{Kind: kind, Stat: stat}
}

// wholeNames lists the figures named whole.
func wholeNames() []string {
	var out []string
	for _, f := range Figures {
		if !f.PerKind {
			out = append(out, f.Name)
		}
	}
	return out
}

// wholeNamesOf lists the figures named whole that begin with word
// ("commits": commits ops/s and commits fsync%), and their aliases.
func wholeNamesOf(word string) []string {
	var out []string
	for _, f := range Figures {
		for _, n := range append([]string{f.Name}, f.Aliases...) {
			if !f.PerKind && strings.HasPrefix(n, word+" ") {
				out = append(out, n)
			}
		}
	}
	return out
}

// Figure returns the metric's row of Figures (a row of no statistic
// gobench knows, for a metric not parsed by ParseMetric).
func (m Metric) Figure() *Figure {
	if f := figureNamed(m.String()); f != nil {
		return f
	}
	if f := statFigure(m.Stat); f != nil {
		return f
	}
	return &Figure{Name: m.String(), Unit: "?", Format: units.Sig3, Tag: units.Sig3, Read: func(*result.Result, string) (float64, bool) { return 0, false }}
}

// isWhole reports whether m names a figure whole, not an op kind's
// statistic.
func (m Metric) isWhole() bool { return figureNamed(m.String()) != nil }

// isOwnKind reports whether kind is one of gobench's own op kinds.
func isOwnKind(kind string) bool {
	_, err := workload.ParseOp(kind)
	return err == nil || kind == workload.OpBegin.String() || kind == workload.OpCommit.String()
}

// checkKind refuses a metric whose kind no run of the suite can have:
// not total or one of gobench's own kinds, and no script's name (or
// statement's, SCRIPT#LINE) in any run's plan.
func (m Metric) checkKind(s *result.Suite) error {
	if m.Kind == "total" || m.isWhole() || isOwnKind(m.Kind) {
		return nil
	}
	if role, _, ok := strings.Cut(m.Kind, " "); ok {
		return m.checkRole(s, role)
	}
	for _, c := range s.Cells {
		for _, r := range c.Runs {
			if names := r.Plan.OpNames(); slices.Contains(names[:], m.Kind) {
				return nil
			}
		}
	}
	return fmt.Errorf("metric %q: %q is not an op kind of these runs (want read, upsert, update, delete, append, latest, insert, scan, begin, commit, total, or a script's name)", m, m.Kind)
}

// String returns the metric's name, as ParseMetric reads it.
func (m Metric) String() string { return strings.TrimSpace(m.Kind + " " + m.Stat) }

// HigherIsBetter reports the metric's direction: throughput (and its share
// of the fsync ceiling) is better higher, latency lower.
func (m Metric) HigherIsBetter() bool { return m.Figure().Higher }

// Neutral reports that neither direction of the metric is better (see
// Figure.Neutral).
func (m Metric) Neutral() bool { return m.Figure().Neutral }

// Direction says which way is better, in words.
func (m Metric) Direction() string {
	switch {
	case m.Neutral():
		return "neither way is better"
	case m.HigherIsBetter():
		return "higher is better"
	}
	return "lower is better"
}

// Missing says why run r has no value of the metric: not measured, which
// a report prints as "–" and this reason, never as zero.
func (m Metric) Missing(r *result.Result) string {
	f := m.Figure()
	switch {
	case len(r.Phases) == 0:
		return "no phase ran"
	case f.Missing != nil:
		return f.Missing(r)
	case f.PerKind:
		if o, ok := opOf(&r.Phases[0], m.Kind); ok && o.Count > 0 {
			return "the " + m.Kind + " ops' latency histogram was not kept" // a percentile read from it
		}
		return "no " + m.Kind + " op ran"
	}
	return "not measured in this run"
}

// Unit returns the metric's unit.
func (m Metric) Unit() string { return m.Figure().Unit }

// Value reads the metric from a run's first phase.
func (m Metric) Value(r *result.Result) (float64, bool) {
	if len(r.Phases) == 0 {
		return 0, false
	}
	return m.Figure().Read(r, m.Kind)
}

// Format renders a value of the metric as a table cell.
func (m Metric) Format(v float64) string { return m.Figure().Format(v) }

// DefaultMetrics returns the figures a suite is summarised by: total
// throughput; the figures named whole that go before the op kinds' (CPU
// time per op), where runs have them; per data op kind its throughput,
// p50, p99 and p99.9; then every other figure named whole that a run
// has (see Figure.Summary): the commit rate and its share of the fsync
// ceiling, the syncs and bytes per commit, what --crash found, ….
func DefaultMetrics(s *result.Suite) []Metric {
	ms := []Metric{{"total", "ops/s"}}
	var kinds []string
	for _, c := range s.Cells {
		for _, r := range c.Runs {
			for _, o := range r.Phases[0].Ops {
				if !workload.IsMarkerKind(o.Kind) && !slices.Contains(kinds, o.Kind) {
					kinds = append(kinds, o.Kind)
				}
			}
		}
	}
	whole := func(before bool) {
		for _, f := range Figures {
			if !f.PerKind && f.BeforeKinds == before && anyRun(s, func(r *result.Result) bool { return inSummary(f, r) }) {
				ms = append(ms, wholeMetric(f.Name))
			}
		}
	}
	whole(true)
	stats := []string{"ops/s", "p50", "p99", "p99.9"}
	if anyRun(s, isReplay) {
		// A replay's statements are many: the total's tail and the
		// statements that took the most time.
		stats, kinds = []string{"p99"}, append([]string{"total"}, topStatements(s, 3)...)
	}
	for _, st := range stats {
		for _, k := range kinds {
			ms = append(ms, Metric{k, st})
		}
	}
	ms = append(ms, roleMetrics(s)...)
	whole(false)
	return ms
}

// roleMetrics returns, for runs with roles, each role's throughput and,
// per op kind it ran, its p99: what each role got, beside the kinds'
// figures over every worker.
func roleMetrics(s *result.Suite) []Metric {
	var ms []Metric
	for _, c := range s.Cells {
		for _, r := range c.Runs {
			for _, role := range r.Phases[0].Roles {
				add := func(m Metric) {
					if !slices.Contains(ms, m) {
						ms = append(ms, m)
					}
				}
				add(Metric{role.Name + " total", "ops/s"})
				for _, o := range role.Ops {
					if !workload.IsMarkerKind(o.Kind) {
						add(Metric{role.Name + " " + o.Kind, "p99"})
					}
				}
			}
		}
	}
	return ms
}

// ThinCount is how many times a replayed statement must run for its
// percentiles to be a headline: the p99 of fewer is one of a handful of
// executions (a CREATE INDEX run once), and ranks no setting.
const ThinCount = 20

// topStatements returns a replay's n statements that took the most time
// (count × mean) in the suite's first run, of those that ran ThinCount
// times or more.
func topStatements(s *result.Suite, n int) []string {
	r := s.Cells[0].Runs[0]
	ops := slices.Clone(r.Phases[0].Ops)
	slices.SortStableFunc(ops, func(a, b result.OpStats) int {
		return cmp.Compare(b.MeanMicros*float64(b.Count), a.MeanMicros*float64(a.Count))
	})
	var out []string
	for _, o := range ops {
		if len(out) == n {
			break
		}
		if o.Count >= ThinCount {
			out = append(out, o.Kind)
		}
	}
	return out
}

// inSummary reports whether a run's value of f belongs in a suite's
// default figures.
func inSummary(f *Figure, r *result.Result) bool {
	if len(r.Phases) == 0 {
		return false
	}
	if f.Summary != nil {
		return f.Summary(r)
	}
	_, ok := f.Read(r, "")
	return ok
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

// checkRole refuses a role's metric when no run of the suite has the
// role.
func (m Metric) checkRole(s *result.Suite, role string) error {
	var roles []string
	for _, c := range s.Cells {
		for _, r := range c.Runs {
			if names := r.Plan.RoleNames(); slices.Contains(names, role) {
				return nil
			} else {
				roles = append(roles, names...)
			}
		}
	}
	if len(roles) == 0 {
		return fmt.Errorf("metric %q: %q is no role of these runs, which have none (give --role NAME:COUNT:MIX)", m, role)
	}
	slices.Sort(roles)
	return fmt.Errorf("metric %q: %q is no role of these runs (their roles: %s)", m, role, strings.Join(slices.Compact(roles), ", "))
}
