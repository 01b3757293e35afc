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
	case !o.Explicit && m.Figure().Shown:
		row.Gated, row.Why = false, "shown, not judged: name it with --metric to judge it"
		return
	case o.Interleaved:
		o.judgeInterleaved(row, values(m, oc.Runs), values(m, nc.Runs))
		bound := 1 - o.MaxRegression
		if !m.HigherIsBetter() {
			bound = 1 + o.MaxRegression
		}
		row.PWorse, row.tested = pWorse(values(m, nc.Runs), values(m, oc.Runs), bound, m.HigherIsBetter()), true
	case m.Figure().Machine && !machineHeld(machine):
		row.Gated, row.Why = false, "not judged: "+machineMoved(machine)
		if o.Explicit {
			row.Outcome = OutcomeInconclusive
		}
		return
	case machine != nil && machine.Changed:
		row.Outcome = OutcomeInconclusive
		row.Why = "the machine changed (see above): not a valid comparison"
	default:
		o.judgeSeparate(row)
		row.PWorse, row.tested = pWorse(values(m, nc.Runs), values(m, oc.Runs), 1, m.HigherIsBetter()), true
	}
	if row.quantile {
		o.judgeQuantile(row, m, oc, nc)
	}
	row.Regression = row.Outcome == OutcomeRegression
}

// judgeQuantile holds a verdict on a percentile row of runs with too few
// ops for their figures alone to the quantile intervals of the runs: the
// ratio of the new cell's interval to the old one's (each at 95%) must
// lie wholly beyond the threshold for a regression, and wholly within it
// for a pass; otherwise the row is inconclusive, as a gate would be (a
// default row, not asked for by name, is then shown and not judged).
func (o CompareOptions) judgeQuantile(row *ComparisonRow, m Metric, oc, nc result.Cell) {
	conf := 1 - (1-Confidence)/2
	n, _, _ := cellQuantile(m, nc, conf)
	od, fewest, _ := cellQuantile(m, oc, conf)
	lo, hi := 0.0, math.Inf(1)
	if !math.IsInf(od.Hi, 1) && od.Hi > 0 {
		lo = n.Lo / od.Hi
	}
	if !math.IsInf(n.Hi, 1) && od.Lo > 0 {
		hi = n.Hi / od.Lo
	}
	bound, op := 1-o.MaxRegression, ">="
	if !row.Metric.HigherIsBetter() {
		bound, op = 1+o.MaxRegression, "<="
	}
	want := OutcomePass
	if row.Outcome == OutcomeRegression {
		want = result.OutcomeFail
	}
	if row.Outcome == OutcomeInconclusive || side(lo, hi, op, bound) != want {
		// A default row the data cannot decide is shown, not judged, as
		// before the intervals; one asked for by name is inconclusive.
		row.Outcome, row.Gated = OutcomeInconclusive, true
		if !o.Explicit {
			row.Outcome, row.Gated = "", false
		}
		row.Why = fmt.Sprintf("%s of runs of few ops (the fewest old run had %s): their quantile intervals put new/old at ×%s–×%s, which does not decide a %s%% regression; more ops a run would",
			m.Stat, thousands(fewest.TotalCount()), units.Sig3(lo), sig3High(hi), percent(o.MaxRegression))
	}
}

// machineHeld says the machine's calibration held between two separate
// invocations: both were calibrated, the median calibration moved by no
// more than the comparison's tolerance (half its threshold) either way,
// and the probes' interval does not put the move beyond it. Figures that
// move with the machine's state (Figure.Machine: CPU per op, which a busy
// neighbour raises through caches and shared cores) are judged only then.
func machineHeld(m *MachineShift) bool {
	return m != nil && !m.Changed && m.Ratio <= 1+m.Tolerance && m.Ratio >= 1/(1+m.Tolerance)
}

// machineMoved says why the machine did not hold, for a row not judged.
func machineMoved(m *MachineShift) string {
	if m == nil {
		return "the machine was not calibrated in both files, so it cannot be said to have held"
	}
	return fmt.Sprintf("the machine moved (calibration %s vs %s, ×%s, beyond the %.0f%% this comparison absorbs)",
		units.Micros(m.New), units.Micros(m.Old), units.Sig3(m.Ratio), 100*m.Tolerance)
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
		return line + fmt.Sprintf("%s%% interval of the ratio ×%s–×%s, all of it beyond the %s%% allowed", ConfidenceLabel(r.Confidence), units.Sig3(r.Low), units.Sig3(r.High), percent(c.MaxRegression))
	}
	return line + fmt.Sprintf("beyond the %s%% allowed and the %.0f%% noise, every repeat worse", percent(c.MaxRegression), 100*r.Spread)
}
