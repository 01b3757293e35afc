package judge

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/gobench/gobench/pkg/result"
	"github.com/gobench/gobench/pkg/units"
)

// Headline is the one-line answer a matrix gives for one varied setting
// at one combination of the others: a cell against the cell that differs
// from it in that setting alone, holding the baseline's value of it, on
// the main metrics (total throughput and each data op's p99). A journal ×
// sync matrix has "journal=wal vs rollback at sync=full" and "… at
// sync=normal".
type Headline struct {
	// Setting is the varied setting's name; Value the cell's value of it
	// and Baseline the baseline's.
	Setting, Value, Baseline string
	// At holds the values of the other varied settings the two cells
	// share (a setting only one of them has, such as the journal of a
	// driver that has none, takes the other's value); empty when one
	// setting varied.
	At result.Settings
	// Factors are the cell's factors against the other, one per main
	// metric, in the order of Metrics: ratios of medians.
	Factors []Factor
	// Metrics name the factors' metrics.
	Metrics []Metric
}

// Line renders the headline without the notes of its factors:
// "journal=wal vs rollback at sync=full: total ops/s ×3.10 better
// (90% ×2.61–×4.55) · read p99 ×0.41 better ~". A significant factor
// shows the interval of the ratio that made it so (a relative gate's,
// Factor.Significant); one that is not is marked "~"; Notes says why,
// where a rule made it so.
func (h Headline) Line() string {
	parts := make([]string, len(h.Factors))
	for i, f := range h.Factors {
		parts[i] = fmt.Sprintf("%s %s", h.Metrics[i], f.Short())
		if f.Significant {
			parts[i] += " (" + f.Interval() + ")"
		} else {
			parts[i] += " ~"
		}
	}
	return fmt.Sprintf("%s: %s", h.Pair(), strings.Join(parts, " · "))
}

// Pair names the two cells: "journal=wal vs rollback at sync=full".
func (h Headline) Pair() string {
	s := fmt.Sprintf("%s=%s vs %s", h.Setting, h.Value, h.Baseline)
	if len(h.At) > 0 {
		s += " at " + h.At.String()
	}
	return s
}

// Notes returns the distinct notes of the headline's factors: why one
// could not be significant.
func (h Headline) Notes() []string {
	var out []string
	for _, f := range h.Factors {
		if f.Note != "" && !slices.Contains(out, f.Note) {
			out = append(out, f.Note)
		}
	}
	return out
}

// String renders the headline with its notes at the end.
func (h Headline) String() string {
	line := h.Line()
	if notes := h.Notes(); len(notes) > 0 {
		line += " — " + strings.Join(notes, "; ")
	}
	return line
}

// isMainMetric reports whether m is one a headline names: total
// throughput, or a data op's p99.
func isMainMetric(m Metric) bool {
	return (m.Kind == "total" && m.Stat == "ops/s") || (m.Kind != "total" && !m.isWhole() && m.Stat == "p99")
}

// Headlines returns, for each varied setting and each of its values
// other than the baseline's, one headline per combination of the other
// settings: the cell with that value against the cell with the
// baseline's value and the same others (where only one of the two has a
// setting, its value stands for both). A cell with no such partner (a
// matrix with a missing combination) gets none.
func (sum *Summary) Headlines() []Headline {
	s := sum.Suite
	var out []Headline
	for _, name := range s.Varied {
		baseValue, _ := s.Baseline.Get(name)
		for ci, c := range s.Cells {
			value, _ := c.Settings.Get(name)
			if value == baseValue {
				continue
			}
			for pi, p := range s.Cells {
				if v, _ := p.Settings.Get(name); v != baseValue || !agreeBut(c.Settings, p.Settings, name) {
					continue
				}
				if tracedCell(c) || tracedCell(p) {
					continue // the recorder's speed, not the setting's (Ranked.Traced)
				}
				h := Headline{Setting: name, Value: value, Baseline: baseValue, At: sharedBut(c.Settings, p.Settings, name)}
				for _, m := range sum.Metrics {
					if !isMainMetric(m.Metric) {
						continue
					}
					if f := m.factor(pi, ci, s.Cells); f != nil {
						h.Factors = append(h.Factors, *f)
						h.Metrics = append(h.Metrics, m.Metric)
					}
				}
				if len(h.Factors) > 0 {
					out = append(out, h)
				}
			}
		}
	}
	return out
}

// traced says whether a cell's runs recorded their I/O for --crash.
func tracedCell(c result.Cell) bool { return c.Runs[0].Plan.Crash != nil }

// factor returns the factor of cell ci against cell pi on the metric:
// the baseline's own where pi is the baseline, else computed the same
// way; nil where either lacks the figure.
func (m MetricSummary) factor(pi, ci int, cells []result.Cell) *Factor {
	base, other := m.Cells[pi], m.Cells[ci]
	if base.Stats.N == 0 || other.Stats.N == 0 || base.Stats.Median == 0 {
		return nil
	}
	f := compareStats(m.Metric, base.Stats, other.Stats)
	if why, _, _, _ := sampleShort(m.Metric, []result.Cell{cells[pi], cells[ci]}); why != "" && f.Note == "" { // too few repeats says it first
		f.Significant, f.Note = false, why
	}
	return &f
}

// agreeBut reports whether a and b hold the same value for every setting
// but name, a setting only one of them has (an empty value) agreeing
// with any.
func agreeBut(a, b result.Settings, name string) bool {
	for _, st := range a {
		if st.Name == name {
			continue
		}
		if v, _ := b.Get(st.Name); v != st.Value && v != "" && st.Value != "" {
			return false
		}
	}
	return true
}

// sharedBut is the settings but name that a and b share, each with the
// value one of them has; one neither has is left out.
func sharedBut(a, b result.Settings, name string) result.Settings {
	var out result.Settings
	for _, st := range a {
		if st.Name == name {
			continue
		}
		v, _ := b.Get(st.Name)
		if v = cmp.Or(st.Value, v); v != "" { // neither has it: nothing to name
			out = append(out, result.Setting{Name: st.Name, Value: v})
		}
	}
	return out
}

// Ranked is one cell of a ranking: its settings, its median of each
// headline figure (Ranking's Metrics, NaN-free: Has says which it has)
// and its failed ops over every repeat. Traced is true for a cell whose
// runs recorded their I/O for --crash: its speeds are the recorder's as
// much as the engine's (a traced bbolt ran ×3.9 apart at --sync normal
// and full, the same settings for bbolt), so it is not ranked.
type Ranked struct {
	Settings result.Settings
	Medians  []float64
	Has      []bool
	Runs     int
	Errors   result.Errors
	Traced   bool
}

// Ranking is every cell of a suite ordered by its first headline figure
// (total throughput, best first), with the others beside; traced cells
// (--crash) come last in their order, unranked.
type Ranking struct {
	Metrics []Metric
	Cells   []Ranked
}

// Ranking returns the suite's cells ranked by the headline figures'
// first (total ops/s, the best first); cells without it come last, in
// their order, and after them the traced cells (Ranked.Traced), in their
// order too: a traced speed is not ranked against any other.
func (sum *Summary) Ranking() Ranking {
	var r Ranking
	var ms []MetricSummary
	for _, m := range sum.Metrics {
		if isMainMetric(m.Metric) {
			ms = append(ms, m)
			r.Metrics = append(r.Metrics, m.Metric)
		}
	}
	for i, c := range sum.Suite.Cells {
		rc := Ranked{Settings: c.Settings, Runs: len(c.Runs), Errors: result.CellErrors(c), Traced: tracedCell(c)}
		for _, m := range ms {
			st := m.Cells[i].Stats
			rc.Medians = append(rc.Medians, st.Median)
			rc.Has = append(rc.Has, st.N > 0)
		}
		r.Cells = append(r.Cells, rc)
	}
	if len(ms) == 0 {
		return r
	}
	higher := r.Metrics[0].HigherIsBetter()
	slices.SortStableFunc(r.Cells, func(a, b Ranked) int {
		switch {
		case a.Traced != b.Traced:
			if b.Traced {
				return -1
			}
			return 1
		case a.Traced:
			return 0
		case a.Has[0] != b.Has[0]:
			if a.Has[0] {
				return -1
			}
			return 1
		case higher:
			return cmp.Compare(b.Medians[0], a.Medians[0])
		}
		return cmp.Compare(a.Medians[0], b.Medians[0])
	})
	return r
}

// Format renders a ranked cell's median of metric i, "–" where it has
// none.
func (r Ranking) Format(c Ranked, i int) string {
	if !c.Has[i] {
		return "–"
	}
	return r.Metrics[i].Format(c.Medians[i])
}

// Versus renders the ranked cell's first figure against the best's: "best"
// or "×0.52"; "traced" for a traced cell, and "–" against a traced best
// (every cell traced), as traced speeds are compared with none.
func (r Ranking) Versus(c Ranked) string {
	if c.Traced {
		return "traced"
	}
	if len(r.Cells) == 0 || r.Cells[0].Traced || !c.Has[0] || !r.Cells[0].Has[0] || r.Cells[0].Medians[0] == 0 {
		return "–"
	}
	if c.Settings.String() == r.Cells[0].Settings.String() {
		return "best"
	}
	return "×" + units.Ratio(c.Medians[0]/r.Cells[0].Medians[0])
}
