package judge

import (
	"fmt"
	"strings"

	"github.com/gobench/gobench/pkg/result"
	"github.com/gobench/gobench/pkg/units"
)

// Headline is the one-line answer a matrix gives for one varied setting:
// the cell that differs from the baseline in that setting alone, against
// the baseline, on the main metrics (total throughput and each data op's
// p99).
type Headline struct {
	// Setting is the varied setting's name; Value the cell's value of it
	// and Baseline the baseline's.
	Setting, Value, Baseline string
	// Factors are the cell's factors against the baseline, one per main
	// metric, in the order of Metrics.
	Factors []Factor
	// Metrics name the factors' metrics.
	Metrics []Metric
}

// String renders the headline: "journal=wal vs rollback: total ops/s
// ×3.10 better (p=0.008) · read p99 ×0.41 better (p=0.008)". A factor
// that is not significant is marked "~"; when repeats were too few to
// tell, that is said once at the end.
func (h Headline) String() string {
	parts := make([]string, len(h.Factors))
	note := ""
	for i, f := range h.Factors {
		word := "better"
		switch {
		case f.Ratio == 1:
			word = "same"
		case !f.Better:
			word = "worse"
		}
		parts[i] = fmt.Sprintf("%s ×%s %s", h.Metrics[i], units.Sig3(f.Ratio), word)
		switch {
		case f.Significant:
			parts[i] += fmt.Sprintf(" (p=%.3f)", f.P)
		case f.Note != "":
			parts[i] += " ~"
			note = f.Note
		default:
			parts[i] += fmt.Sprintf(" ~ (p=%.2f)", f.P)
		}
	}
	line := fmt.Sprintf("%s=%s vs %s: %s", h.Setting, h.Value, h.Baseline, strings.Join(parts, " · "))
	if note != "" {
		line += " — " + note
	}
	return line
}

// isMainMetric reports whether m is one a headline names: total
// throughput, or a data op's p99.
func isMainMetric(m Metric) bool {
	return (m.Kind == "total" && m.Stat == "ops/s") || (m.Kind != "total" && !m.isWhole() && m.Stat == "p99")
}

// Headlines returns one headline per value of each varied setting other
// than the baseline's, comparing the cell that differs from the baseline
// in that setting alone. A value with no such cell (a matrix with a
// missing combination) gets none.
func (sum *Summary) Headlines() []Headline {
	s := sum.Suite
	var out []Headline
	for _, name := range s.Varied {
		baseValue, _ := s.Baseline.Get(name)
		for _, c := range s.Cells {
			value, _ := c.Settings.Get(name)
			if value == baseValue || !onlyDiffersIn(c.Settings, s.Baseline, name) {
				continue
			}
			h := Headline{Setting: name, Value: value, Baseline: baseValue}
			for _, m := range sum.Metrics {
				if !isMainMetric(m.Metric) {
					continue
				}
				if f := m.factorOf(c.Settings); f != nil {
					h.Factors = append(h.Factors, *f)
					h.Metrics = append(h.Metrics, m.Metric)
				}
			}
			if len(h.Factors) > 0 {
				out = append(out, h)
			}
		}
	}
	return out
}

// factorOf returns the factor of the cell with the given settings.
func (m MetricSummary) factorOf(settings result.Settings) *Factor {
	for _, c := range m.Cells {
		if c.Settings.String() == settings.String() {
			return c.Factor
		}
	}
	return nil
}

// onlyDiffersIn reports whether a and b hold the same values for every
// setting but name.
func onlyDiffersIn(a, b result.Settings, name string) bool {
	for _, st := range a {
		if st.Name == name {
			continue
		}
		if v, _ := b.Get(st.Name); v != st.Value {
			return false
		}
	}
	return true
}
