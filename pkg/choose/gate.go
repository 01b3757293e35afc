package choose

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/gobench/gobench/pkg/judge"
	"github.com/gobench/gobench/pkg/result"
	"github.com/gobench/gobench/pkg/units"
)

// Gate is a gate on the winner's margin over the runner-up (choose
// --expect): "margin >= 1.5" passes when the whole interval of the ratio
// of their median ops/s lies at or above ×1.5, fails when it lies wholly
// below, and is undecided when it straddles ×1.5 or there is no interval
// (too few runs, fewer than two rows ranked).
type Gate struct {
	Text   string
	Op     string
	Factor float64
}

// ParseGate reads "margin OP FACTOR": OP one of >=, >, <=, <; FACTOR a
// positive number, optionally with x (1.5 or 1.5x).
func ParseGate(s string) (Gate, error) {
	g := Gate{Text: strings.TrimSpace(s)}
	f := strings.Fields(g.Text)
	if len(f) != 3 || f[0] != "margin" {
		return g, fmt.Errorf("--expect %q: want 'margin OP FACTOR', such as 'margin >= 1.5' (the winner's lead over the runner-up)", s)
	}
	switch f[1] {
	case ">=", ">", "<=", "<":
		g.Op = f[1]
	default:
		return g, fmt.Errorf("--expect %q: comparison %q: want >=, >, <= or <", s, f[1])
	}
	v, err := strconv.ParseFloat(strings.TrimSuffix(f[2], "x"), 64)
	if err != nil || !(v > 0) || math.IsInf(v, 0) {
		return g, fmt.Errorf("--expect %q: factor %q is not a positive number such as 1.5 or 1.5x", s, f[2])
	}
	g.Factor = v
	return g, nil
}

// Judge judges c's margin (by its ranking role's ops/s, which the
// verdict names, for roles): the gate with its outcome and verdict line,
// and an error wrapping judge.ErrThreshold where it failed or
// judge.ErrInconclusive where the answer cannot decide it.
func (g Gate) Judge(c *result.Choice) (result.Gate, error) {
	out := result.Gate{Expression: g.Text, Cell: c.Winner, Statistic: "ratio of medians", Unit: "×", Op: g.Op, Threshold: g.Factor}
	label := g.Text
	if c.RankBy != "" {
		out.Statistic += " of " + c.RankBy + " ops/s"
		label += " (" + c.RankBy + " ops/s)"
	}
	m := c.Margin
	if m != nil {
		out.Against, out.Ratio, out.Value = m.RunnerUp, m.Ratio, m.Ratio
		out.Low, out.High, out.Confidence = m.Low, m.High, m.Confidence
	}
	above := g.Op == ">=" || g.Op == ">"
	switch {
	case m == nil || m.Confidence == 0:
		out.Outcome = result.OutcomeInconclusive
		out.Verdict = fmt.Sprintf("%s: undecided: %s", label, noInterval(c))
	case holds(g.Op, m.Low, g.Factor) && holds(g.Op, m.High, g.Factor):
		out.Outcome, out.Pass = result.OutcomePass, true
		out.Verdict = fmt.Sprintf("%s: pass (%s%% interval of the ratio ×%s–×%s)", label, judge.ConfidenceLabel(m.Confidence), units.Ratio(m.Low), units.Ratio(m.High))
	case !holds(g.Op, m.Low, g.Factor) && !holds(g.Op, m.High, g.Factor):
		out.Outcome = result.OutcomeFail
		side := "below"
		if !above {
			side = "above"
		}
		out.Verdict = fmt.Sprintf("%s: fail (%s%% interval of the ratio ×%s–×%s, all of it %s ×%s)", label, judge.ConfidenceLabel(m.Confidence), units.Ratio(m.Low), units.Ratio(m.High), side, units.Ratio(g.Factor))
	default:
		out.Outcome = result.OutcomeInconclusive
		out.Verdict = fmt.Sprintf("%s: undecided (%s%% interval of the ratio ×%s–×%s holds ×%s; a larger --budget may decide it)", label, judge.ConfidenceLabel(m.Confidence), units.Ratio(m.Low), units.Ratio(m.High), units.Ratio(g.Factor))
	}
	switch out.Outcome {
	case result.OutcomeFail:
		return out, fmt.Errorf("%w: %s", judge.ErrThreshold, out.Verdict)
	case result.OutcomeInconclusive:
		return out, fmt.Errorf("%w: %s", judge.ErrInconclusive, out.Verdict)
	}
	return out, nil
}

// holds reports whether v op factor.
func holds(op string, v, factor float64) bool {
	switch op {
	case ">=":
		return v >= factor
	case ">":
		return v > factor
	case "<=":
		return v <= factor
	}
	return v < factor
}

// noInterval says why c has no interval of the margin.
func noInterval(c *result.Choice) string {
	switch {
	case c.Winner == "":
		return "no winner: no engine and setting kept the promise"
	case c.Margin == nil:
		return "only one row was ranked: no runner-up to lead"
	}
	return "too few runs for an interval of the ratio"
}
