package judge

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/gobench/gobench/pkg/result"
)

// Expectation is an in-run gate, in one of two forms. Relative, between
// cells:
//
//	METRIC: A OP FACTOR B
//
// for example "upsert ops/s: wal >= 3x rollback" or "read p99: wal <= 0.5x
// rollback". A and B select cells by values or name=value pairs (see
// result.Suite.Select). Each cell A picks is paired with the cell that has
// B's settings and agrees with it on every other varied setting, so one
// gate checks "wal against rollback" at every sync level of a matrix.
// Absolute, a threshold:
//
//	[CELLS:] METRIC OP LIMIT
//
// for example "read p99 <= 2ms", "upsert ops/s >= 500" or "wal: upsert p99
// <= 10ms"; without CELLS every cell is checked. LIMIT carries its unit: a
// latency in ns, µs (or us), ms or s; a rate as a number, optionally with k
// or M; a share of the fsync ceiling optionally with %.
//
// METRIC is an op kind and a statistic (see ParseMetric), or one of the
// metrics of several words ("lost acked writes == 0"); OP is >=, >, <=,
// < or ==. A gate's figure is the median over a cell's repeats (their
// ratio for a relative gate); its verdict reads the interval of that
// figure (Evaluate) or, for a capacity search's figures, the figure alone
// (EvaluateFigures).
type Expectation struct {
	Text   string
	Metric Metric
	Op     string
	// A, B and Factor are a relative gate's; Cells and Limit an absolute
	// one's (Limit in the metric's unit: µs for latencies).
	A, B     string
	Factor   float64
	Absolute bool
	Cells    string
	Limit    float64
}

// ParseExpectation parses one --expect value.
func ParseExpectation(s string) (Expectation, error) {
	e := Expectation{Text: strings.TrimSpace(s)}
	head, rest, colon := strings.Cut(e.Text, ":")
	if colon {
		if m, err := ParseMetric(head); err == nil && relativeWords(strings.Fields(rest)) {
			e.Metric = m
			return e, e.parseRelative(strings.Fields(rest))
		}
	} else {
		head, rest = "", e.Text
	}
	f := strings.Fields(rest)
	if len(f) < 3 { // METRIC OP LIMIT, the metric of one word or more ("errors == 0")
		return e, fmt.Errorf("--expect %q: want 'METRIC: A OP FACTOR B' (such as 'upsert ops/s: wal >= 3x rollback') or '[CELLS:] METRIC OP LIMIT' (such as 'read p99 <= 2ms')", s)
	}
	n := len(f)
	if err := spacedLimit(f); err != nil {
		return e, fmt.Errorf("--expect %q: %w", s, err)
	}
	m, err := ParseMetric(strings.Join(f[:n-2], " "))
	if err != nil {
		return e, fmt.Errorf("--expect %q: %w", s, err)
	}
	e.Metric, e.Absolute, e.Cells, e.Op = m, true, strings.TrimSpace(head), f[n-2]
	if err := checkOp(e.Op); err != nil {
		return e, fmt.Errorf("--expect %q: %w", s, err)
	}
	if e.Limit, err = parseLimit(m, f[n-1]); err != nil {
		return e, fmt.Errorf("--expect %q: %w", s, err)
	}
	if fig := m.Figure(); fig != nil {
		if err := fig.checkLimit(m.String(), e.Op, e.Limit, f[n-1]); err != nil {
			return e, fmt.Errorf("--expect %q: %w", s, err)
		}
	}
	return e, nil
}

// relativeWords reports whether the words after a relative gate's
// metric are A OP FACTOR B: four words, or more when a cell's value has a
// space of its own (a replay's "settings=as captured"), told by the
// comparison and the factor (3x) that follows it.
func relativeWords(f []string) bool {
	if len(f) == 4 {
		return true
	}
	i := opWord(f)
	return i >= 1 && i+2 < len(f) && strings.HasSuffix(f[i+1], "x")
}

// opWord is the index of the first comparison among f, or -1.
func opWord(f []string) int {
	for i, w := range f {
		if checkOp(w) == nil {
			return i
		}
	}
	return -1
}

// parseRelative reads the A OP FACTOR B words of a relative gate.
func (e *Expectation) parseRelative(f []string) error {
	i := 1
	if len(f) > 4 {
		i = opWord(f)
	}
	e.A, e.Op, e.B = strings.Join(f[:i], " "), f[i], strings.Join(f[i+2:], " ")
	if err := checkOp(e.Op); err != nil {
		return fmt.Errorf("--expect %q: %w", e.Text, err)
	}
	var err error
	e.Factor, err = strconv.ParseFloat(strings.TrimSuffix(f[i+1], "x"), 64)
	if err != nil || !(e.Factor > 0) || math.IsInf(e.Factor, 0) {
		return fmt.Errorf("--expect %q: factor %q is not a positive number such as 3x or 0.5x", e.Text, f[i+1])
	}
	return nil
}

// spacedLimit refuses a limit written with a space before its unit
// ("2 ms"), which would otherwise read as a metric ending in a comparison.
func spacedLimit(f []string) error {
	n := len(f)
	if n < 3 || checkOp(f[n-3]) != nil {
		return nil
	}
	if _, err := strconv.ParseFloat(f[n-2], 64); err != nil {
		return nil
	}
	switch f[n-1] {
	case "ns", "µs", "us", "ms", "s", "%", "k", "M":
		return fmt.Errorf("limit %q: write it without the space, as %s", f[n-2]+" "+f[n-1], f[n-2]+f[n-1])
	}
	return nil
}

func checkOp(op string) error {
	switch op {
	case ">=", ">", "<=", "<", "==":
		return nil
	}
	return fmt.Errorf("comparison %q is not one of >=, >, <=, <, ==", op)
}

// parseLimit reads an absolute gate's limit in the metric's scale (see
// Expectation).
func parseLimit(m Metric, s string) (float64, error) { return m.Figure().parseLimit(s) }

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

// selectorNames returns the setting names a selector constrains. A
// scenario's variant (workload.Plan.Variant) brings the settings it
// fixes: those one value of which goes with each variant, such as the
// journal of a variant that is the rollback journal's case.
func selectorNames(s *result.Suite, sel string) []string {
	names := selectedNames(s, sel)
	if slices.Contains(names, "variant") {
		names = append(names, variantBound(s)...)
	}
	return names
}

// variantBound returns the varied settings (but the variant) that take
// one value in every cell of a variant.
func variantBound(s *result.Suite) []string {
	var out []string
	for _, name := range s.Varied {
		if name == "variant" {
			continue
		}
		seen := map[string]string{}
		bound := true
		for _, c := range s.Cells {
			v, _ := c.Settings.Get("variant")
			x, _ := c.Settings.Get(name)
			if prev, ok := seen[v]; ok && prev != x {
				bound = false
				break
			}
			seen[v] = x
		}
		if bound {
			out = append(out, name)
		}
	}
	return out
}

// selectedNames returns the setting names a selector names.
func selectedNames(s *result.Suite, sel string) []string {
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
		if slices.Contains(skip1, st.Name) || slices.Contains(skip2, st.Name) {
			continue
		}
		if v, _ := b.Get(st.Name); v != st.Value {
			return false
		}
	}
	return true
}

// Validate checks, before anything runs, that the expectation's
// selectors resolve in s and that every cell it reads can have its
// metric (an op kind its mix deals, a figure its settings produce); s may
// hold the plans to be, as runs without results. A relative gate needs
// two cells.
func (e Expectation) Validate(s *result.Suite) error {
	if err := e.Metric.checkKind(s); err != nil {
		return fmt.Errorf("--expect %q: %w", e.Text, err)
	}
	if !e.Absolute && len(s.Cells) < 2 {
		return fmt.Errorf("--expect %q compares cells: give a list to at least one setting, such as --journal rollback,wal", e.Text)
	}
	return e.checkPlans(s)
}

// cells resolves an absolute gate's selector: every cell without one.
func (e Expectation) cells(s *result.Suite) ([]int, error) {
	if e.Cells == "" {
		all := make([]int, len(s.Cells))
		for i := range all {
			all[i] = i
		}
		return all, nil
	}
	cs, err := s.Select(e.Cells)
	if err == nil && len(cs) == 0 {
		err = errors.New("no cell matches")
	}
	if err != nil {
		return nil, fmt.Errorf("--expect %q: %s: %w", e.Text, e.Cells, err)
	}
	return cs, nil
}

// Evaluate judges every expectation on the suite, one verdict per cell
// (or pair of cells) each reads, from the interval of its figure over the
// repeats (see judgeInterval): pass, fail or inconclusive. An error means
// a selector did not resolve.
func Evaluate(s *result.Suite, exps []Expectation) ([]result.Gate, error) {
	return evaluateAll(s, exps, Expectation.judgeInterval)
}

// EvaluateFigures judges every expectation on each cell's median taken as
// exact: pass or fail, no interval and no sample rule. It is for figures
// that are not one noisy measurement among others: a capacity search's
// confirmed rates, and the objectives of one of its steps (the search
// confirms a rate by running it again).
func EvaluateFigures(s *result.Suite, exps []Expectation) ([]result.Gate, error) {
	return evaluateAll(s, exps, Expectation.judgeFigure)
}

// judgeFunc gives one gate its verdict on cell c (against, for a relative
// gate, the cell it is compared with).
type judgeFunc func(e Expectation, c result.Cell, against *result.Cell) result.Gate

func evaluateAll(s *result.Suite, exps []Expectation, judge judgeFunc) ([]result.Gate, error) {
	var out []result.Gate
	for _, e := range exps {
		gs, err := e.evaluate(s, judge)
		if err != nil {
			return nil, err
		}
		out = append(out, gs...)
	}
	return out, nil
}

// unsteady marks g, and its verdict, when a run of the cells it read had
// a phase with no steady state.
func unsteady(g result.Gate, cells ...result.Cell) result.Gate {
	for _, c := range cells {
		for _, r := range c.Runs {
			for _, ph := range r.Phases {
				if ph.Steady != nil && !ph.Steady.Found && !g.Unsteady {
					g.Unsteady = true
					g.Verdict = gateVerdict(g)
				}
			}
		}
	}
	return g
}

func (e Expectation) evaluate(s *result.Suite, judge judgeFunc) ([]result.Gate, error) {
	var out []result.Gate
	if e.Absolute {
		cs, err := e.cells(s)
		if err != nil {
			return nil, err
		}
		for _, c := range cs {
			out = append(out, unsteady(judge(e, s.Cells[c], nil), s.Cells[c]))
		}
		return out, nil
	}
	pairs, err := e.pairs(s)
	if err != nil {
		return nil, err
	}
	for _, p := range pairs {
		out = append(out, unsteady(judge(e, s.Cells[p.a], &s.Cells[p.b]), s.Cells[p.a], s.Cells[p.b]))
	}
	return out, nil
}

// newGate is the gate's record before its verdict: the cells, the
// condition, and the medians of the figures over the cells' repeats (and
// their ratio); NoFigure when a cell has none.
func (e Expectation) newGate(c result.Cell, against *result.Cell) result.Gate {
	g := result.Gate{Expression: e.Text, Cell: cellName(c), Op: e.Op, Unit: e.Metric.Unit(), Threshold: e.Limit}
	v, ok := medianOf(c, e.Metric)
	g.Value = v
	if against != nil {
		g.Against, g.Threshold = cellName(*against), e.Factor
		o, okB := medianOf(*against, e.Metric)
		g.Other = o
		ok = ok && okB && o != 0
		if ok {
			g.Ratio = v / o
		}
	}
	g.NoFigure = !ok
	return g
}

// judgeFigure reads the medians as exact (EvaluateFigures).
func (e Expectation) judgeFigure(c result.Cell, against *result.Cell) result.Gate {
	g := e.newGate(c, against)
	g.Statistic = statistic(len(c.Runs))
	if against != nil {
		g.Statistic = statistic(min(len(c.Runs), len(against.Runs)))
	}
	g.Outcome = result.OutcomeFail
	if !g.NoFigure && holds(figureOf(g), e.Op, g.Threshold) {
		g.Outcome = result.OutcomePass
	}
	return finish(g)
}

// finish sets the gate's Pass and its printed line from its outcome.
func finish(g result.Gate) result.Gate {
	g.Pass = g.Outcome == result.OutcomePass
	g.Verdict = gateVerdict(g)
	return g
}

// cellName names a cell by its varied settings; "the run" when nothing
// varied.
func cellName(c result.Cell) string {
	if len(c.Settings) == 0 {
		return "the run"
	}
	return c.Settings.String()
}

// statistic says which figure of n repeats a gate compares.
func statistic(n int) string {
	if n == 1 {
		return "one run"
	}
	return fmt.Sprintf("median of %d runs", n)
}

func medianOf(c result.Cell, m Metric) (float64, bool) {
	vs := values(m, c.Runs)
	if len(vs) == 0 {
		return 0, false
	}
	return StatsOf(vs).Median, true
}

func holds(v float64, op string, threshold float64) bool {
	switch op {
	case ">=":
		return v >= threshold
	case ">":
		return v > threshold
	case "<=":
		return v <= threshold
	case "<":
		return v < threshold
	case "==":
		return v == threshold
	}
	return false
}
