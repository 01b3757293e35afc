package report

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/gobench/gobench/pkg/result"
)

// Expectation is an in-run gate, written
//
//	METRIC: A OP FACTOR B
//
// for example "upsert ops/s: wal >= 3x rollback" or "read p99: wal <= 0.5x
// rollback". METRIC is an op kind and a statistic (see ParseMetric); A and
// B select cells by values or name=value pairs (see result.Suite.Select);
// OP is >=, >, <= or <; FACTOR is a number, optionally followed by x. The
// gate compares the means over repeats. Each cell A picks is paired with
// the cell that has B's settings and agrees with it on every other varied
// setting, so one gate checks "wal against rollback" at every sync level
// of a matrix.
type Expectation struct {
	Text   string
	Metric Metric
	A, B   string
	Op     string
	Factor float64
}

// ParseExpectation parses one --expect value.
func ParseExpectation(s string) (Expectation, error) {
	e := Expectation{Text: strings.TrimSpace(s)}
	metric, rest, ok := strings.Cut(s, ":")
	if !ok {
		return e, fmt.Errorf("--expect %q: want METRIC: A OP FACTOR B, for example 'upsert ops/s: wal >= 3x rollback'", s)
	}
	m, err := ParseMetric(metric)
	if err != nil {
		return e, fmt.Errorf("--expect %q: %w", s, err)
	}
	e.Metric = m
	f := strings.Fields(rest)
	if len(f) != 4 {
		return e, fmt.Errorf("--expect %q: after the metric, want A OP FACTOR B (four words, such as wal >= 3x rollback)", s)
	}
	e.A, e.Op, e.B = f[0], f[1], f[3]
	switch e.Op {
	case ">=", ">", "<=", "<":
	default:
		return e, fmt.Errorf("--expect %q: comparison %q is not one of >=, >, <=, <", s, e.Op)
	}
	e.Factor, err = strconv.ParseFloat(strings.TrimSuffix(f[2], "x"), 64)
	if err != nil || !(e.Factor > 0) || math.IsInf(e.Factor, 0) {
		return e, fmt.Errorf("--expect %q: factor %q is not a positive number such as 3x or 0.5x", s, f[2])
	}
	return e, nil
}

// pair is one comparison an expectation makes.
type pair struct{ a, b int }

// pairs resolves the expectation's selectors against cells described by
// their settings, as a suite's cells are. It fails when a selector picks
// no cell or a cell has no partner.
func (e Expectation) pairs(s *result.Suite) ([]pair, error) {
	as, err := s.Select(e.A)
	if err != nil {
		return nil, fmt.Errorf("--expect %q: %s: %w", e.Text, e.A, err)
	}
	bs, err := s.Select(e.B)
	if err != nil {
		return nil, fmt.Errorf("--expect %q: %s: %w", e.Text, e.B, err)
	}
	if len(as) == 0 || len(bs) == 0 {
		return nil, fmt.Errorf("--expect %q: no cell matches %s", e.Text, map[bool]string{true: e.A, false: e.B}[len(as) == 0])
	}
	var out []pair
	for _, a := range as {
		partner := -1
		for _, b := range bs {
			if b != a && sameExcept(s.Cells[a].Settings, s.Cells[b].Settings, selectorNames(s, e.B), selectorNames(s, e.A)) {
				partner = b
				break
			}
		}
		if partner < 0 {
			return nil, fmt.Errorf("--expect %q: cell %s has no %s cell to compare with", e.Text, s.Cells[a].Settings, e.B)
		}
		out = append(out, pair{a, partner})
	}
	return out, nil
}

// selectorNames returns the setting names a selector constrains.
func selectorNames(s *result.Suite, sel string) []string {
	var names []string
	for part := range strings.SplitSeq(sel, ",") {
		if name, _, ok := strings.Cut(part, "="); ok {
			names = append(names, name)
			continue
		}
		for _, name := range s.Varied {
			for _, c := range s.Cells {
				if v, _ := c.Settings.Get(name); v == part {
					names = append(names, name)
				}
			}
		}
	}
	return names
}

// sameExcept reports whether a and b agree on every setting not named in
// either list.
func sameExcept(a, b result.Settings, skip1, skip2 []string) bool {
	for _, st := range a {
		if contains(skip1, st.Name) || contains(skip2, st.Name) {
			continue
		}
		if v, _ := b.Get(st.Name); v != st.Value {
			return false
		}
	}
	return true
}

// Validate checks that the expectation's selectors resolve in s, before
// anything runs (s may hold cells without runs).
func (e Expectation) Validate(s *result.Suite) error {
	_, err := e.pairs(s)
	return err
}

// CheckExpectations evaluates every expectation on the suite's summary and
// returns a ThresholdError listing each that failed (naming the metric,
// both values, the ratio and the threshold), or nil.
func CheckExpectations(sum *Summary, exps []Expectation) error {
	var fails []string
	for _, e := range exps {
		pairs, err := e.pairs(sum.Suite)
		if err != nil {
			return err
		}
		for _, p := range pairs {
			a, okA := meanOf(sum.Suite.Cells[p.a], e.Metric)
			b, okB := meanOf(sum.Suite.Cells[p.b], e.Metric)
			if !okA || !okB || b == 0 {
				fails = append(fails, fmt.Sprintf("expectation %q: %s has no %s to compare", e.Text, sum.Suite.Cells[map[bool]int{true: p.b, false: p.a}[okA]].Settings, e.Metric))
				continue
			}
			ratio := a / b
			if !holds(ratio, e.Op, e.Factor) {
				fails = append(fails, fmt.Sprintf("expectation failed: %s: %s %s / %s %s = ×%s, want %s ×%s",
					e.Metric, sum.Suite.Cells[p.a].Settings, e.Metric.Format(a),
					sum.Suite.Cells[p.b].Settings, e.Metric.Format(b), sig3(ratio), e.Op, strconv.FormatFloat(e.Factor, 'g', -1, 64)))
			}
		}
	}
	if fails == nil {
		return nil
	}
	return &ThresholdError{Failures: fails}
}

func meanOf(c result.Cell, m Metric) (float64, bool) {
	vs := values(m, c.Runs)
	if len(vs) == 0 {
		return 0, false
	}
	return statsOf(vs).Mean, true
}

func holds(ratio float64, op string, factor float64) bool {
	switch op {
	case ">=":
		return ratio >= factor
	case ">":
		return ratio > factor
	case "<=":
		return ratio <= factor
	case "<":
		return ratio < factor
	}
	return false
}
