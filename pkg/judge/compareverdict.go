package judge

import (
	"fmt"
	"math"
	"strconv"

	"github.com/gobench/gobench/pkg/result"
	"github.com/gobench/gobench/pkg/units"
)

// judge gives a row its verdict (see Compare).
func (o CompareOptions) judge(row *ComparisonRow, m Metric, oc, nc result.Cell, machine *MachineShift) {
	switch {
	case o.MaxRegression <= 0:
		return // a report without verdicts
	case !row.Gated:
		if o.Explicit {
			row.Outcome = OutcomeInconclusive
		}
		return
	case o.Interleaved:
		o.judgeInterleaved(row, values(m, oc.Runs), values(m, nc.Runs))
	case machine != nil && machine.Changed && !m.Figure().Machine:
		row.Outcome = OutcomeInconclusive
		row.Why = "the machine changed (see above): not a valid comparison"
	default:
		o.judgeSeparate(row)
	}
	row.Regression = row.Outcome == OutcomeRegression
}

// judgeSeparate judges a row of two invocations on medians and ranges. A
// regression needs the median to move the wrong way by more than the
// threshold and more than the noise (the wider of the two files' ranges
// relative to their medians), with every new repeat worse than every old
// one. A pass needs the change the wrong way, plus the noise, to stay
// within the threshold: even at the noise's edge the regression would be
// smaller than the one looked for. Anything between is inconclusive: the
// noise is too wide to tell.
func (o CompareOptions) judgeSeparate(row *ComparisonRow) {
	t, change := o.MaxRegression, math.Abs(row.Delta)
	bad := change // how far the median moved the wrong way (negative: the right way)
	if !row.Worse {
		bad = -change
	}
	switch {
	case row.Worse && row.Apart && change > row.Spread && change > t:
		row.Outcome = OutcomeRegression
	case bad+row.Spread <= t:
		row.Outcome = OutcomePass
	default:
		row.Outcome = OutcomeInconclusive
		row.Why = fmt.Sprintf("the noise, %.0f%%, is wider than a %s%% regression: these files can rule out only one of %s%% or more; more repeats, a quieter machine or an interleaved run (gobench ab) resolve less",
			100*row.Spread, percent(t), strconv.FormatFloat(math.Ceil(100*(max(bad, 0)+row.Spread)), 'f', 0, 64))
		if row.Worse && !row.Apart && change > t {
			row.Why = fmt.Sprintf("worse by %.1f%%, but not every new repeat is worse than every old one", 100*change)
		}
	}
}

// judgeInterleaved judges a row of interleaved files as a gate is: the
// interval of the ratio new/old (RatioInterval) against the threshold.
// A regression when the whole interval is worse than the threshold, a
// pass when the whole interval is better than it, inconclusive otherwise.
func (o CompareOptions) judgeInterleaved(row *ComparisonRow, old, new []float64) {
	iv, ok := RatioInterval(new, old)
	if !ok {
		row.Outcome = OutcomeInconclusive
		row.Why = fmt.Sprintf("a %.0f%% interval of the ratio needs %d runs a side", 100*Confidence, MinRatioRepeats)
		return
	}
	row.Low, row.High, row.Confidence = iv.Lo, iv.Hi, iv.Confidence
	// The ratio a regression of the threshold's size reaches, and which
	// side of it is worse.
	bound, op := 1-o.MaxRegression, ">="
	if !row.Metric.HigherIsBetter() {
		bound, op = 1+o.MaxRegression, "<="
	}
	switch side(iv.Lo, iv.Hi, op, bound) {
	case result.OutcomePass:
		row.Outcome = OutcomePass
	case result.OutcomeFail:
		row.Outcome = OutcomeRegression
	default:
		row.Outcome = OutcomeInconclusive
		row.Why = fmt.Sprintf("the interval ×%s–×%s straddles ×%s, a %s%% regression: more rounds would narrow it", units.Sig3(iv.Lo), units.Sig3(iv.Hi), units.Sig3(bound), percent(o.MaxRegression))
	}
}

// percent writes a fraction as a percentage: 0.1 as "10".
func percent(f float64) string { return units.Percent(f) }

// outcome is the comparison's verdict from its rows and its machine.
func (c *Comparison) outcome(o CompareOptions) string {
	if o.MaxRegression <= 0 {
		return ""
	}
	unsure := c.Machine != nil && c.Machine.Changed && !o.Interleaved
	for _, r := range c.Rows {
		switch r.Outcome {
		case OutcomeRegression:
			return OutcomeRegression
		case OutcomeInconclusive:
			unsure = true
		}
	}
	if unsure {
		return OutcomeInconclusive
	}
	return OutcomePass
}

// Err returns the error the comparison's verdict amounts to: a
// ThresholdError naming every regression; else, when an inconclusive
// verdict fails, an InconclusiveError saying what could not decide (the
// machine's change first); else nil.
func (c *Comparison) Err(p Inconclusive) error {
	var fails, unsure []string
	if m := c.Machine; m != nil && m.Changed && !c.Interleaved {
		unsure = append(unsure, "machine changed: "+m.Why)
	}
	for _, r := range c.Rows {
		switch r.Outcome {
		case OutcomeRegression:
			fails = append(fails, c.regressionLine(r))
		case OutcomeInconclusive:
			unsure = append(unsure, fmt.Sprintf("inconclusive: %s %s: median %s → %s (%+.1f%%): %s", r.Cell, r.Metric, r.Metric.Format(r.Old.Median), r.Metric.Format(r.New.Median), 100*r.Delta, r.Why))
		}
	}
	switch {
	case fails != nil:
		return &ThresholdError{Failures: fails}
	case unsure != nil && p != InconclusivePasses:
		return &InconclusiveError{Verdicts: unsure}
	}
	return nil
}

// regressionLine names one regression and what made it one.
func (c *Comparison) regressionLine(r ComparisonRow) string {
	line := fmt.Sprintf("regression: %s %s: median %s → %s (%+.1f%%, %s), ", r.Cell, r.Metric, r.Metric.Format(r.Old.Median), r.Metric.Format(r.New.Median), 100*r.Delta, r.Direction)
	if c.Interleaved {
		return line + fmt.Sprintf("%.0f%% interval of the ratio ×%s–×%s, all of it beyond the %s%% allowed", 100*r.Confidence, units.Sig3(r.Low), units.Sig3(r.High), percent(c.MaxRegression))
	}
	return line + fmt.Sprintf("beyond the %s%% allowed and the %.0f%% noise, every repeat worse", percent(c.MaxRegression), 100*r.Spread)
}
