package report

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/gobench/gobench/pkg/judge"
	"github.com/gobench/gobench/pkg/result"
	"github.com/gobench/gobench/pkg/units"
)

// comparisonText writes the comparison: its verdict and the machine's
// move first, then per cell and metric old and new median with their
// range, the change and the row's verdict, then why each row that could
// not decide did not.
func comparisonText(w io.Writer, c *judge.Comparison) error {
	ew := textWriter(w)
	ew.printf("%s\n", comparisonTitle(c))
	if c.Differs != "" {
		ew.printf("differs: %s\n", c.Differs)
	}
	if v := comparisonVerdict(c); v != "" {
		ew.printf("verdict: %s\n", v)
	}
	if m := c.Machine; m != nil {
		ew.printf("machine: %s\n", m.Why)
	}
	if h := c.Holm; h != nil {
		ew.printf("holm: %s\n", h)
	}
	for _, wn := range c.Warnings {
		ew.printf("warning: %s\n", wn)
	}
	for _, u := range c.Unmatched {
		ew.printf("not compared: %s\n", u)
	}
	ew.printf("\n")
	tw := ew.keyedTable(0, 2)
	tw.printf("cell\tmetric\told median [range]\tnew median [range]\tchange\tverdict\n")
	for _, r := range c.Rows {
		tw.printf("%s\t%s (%s)\t%s\t%s\t%+.1f%%\t%s\n", r.Cell, r.Metric, arrow(r.Metric),
			medianRange(r.Metric, r.Old), medianRange(r.Metric, r.New), 100*r.Delta, changeVerdict(c, r))
	}
	tw.flush()
	if whys := undecided(c); len(whys) > 0 {
		ew.printf("\ninconclusive:\n")
		for _, why := range whys {
			ew.printf("  %s\n", why)
		}
	}
	ew.printf("\n%s\n", trusted(compareMethod(c))) // gobench's own lines
	return ew.err
}

// comparisonTitle is the comparison's first line: the files, the
// threshold and how the runs were made.
func comparisonTitle(c *judge.Comparison) string {
	s := "gobench compare · old " + c.OldName + " · new " + c.NewName
	if c.MaxRegression > 0 {
		s += " · regression threshold " + units.Percent(c.MaxRegression) + "%"
	}
	if c.Interleaved {
		s += " · runs interleaved on one machine"
	}
	return s
}

// comparisonVerdict is the comparison's verdict in words: "REGRESSION: 1
// of 6 rows", "INCONCLUSIVE: …", "pass: …"; "" without a threshold.
func comparisonVerdict(c *judge.Comparison) string {
	counts := map[string]int{}
	judged := 0
	for _, r := range c.Rows {
		if r.Judged() {
			counts[r.Outcome]++
			judged++
		}
	}
	tally := fmt.Sprintf("%d of %d rows judged: %d regressed, %d inconclusive, %d passed", judged, len(c.Rows), counts[judge.OutcomeRegression], counts[judge.OutcomeInconclusive], counts[judge.OutcomePass])
	switch c.Outcome {
	case judge.OutcomeRegression:
		return "REGRESSION · " + tally
	case judge.OutcomeInconclusive:
		if m := c.Machine; m != nil && m.Changed && !c.Interleaved {
			return "INCONCLUSIVE: the machine changed · " + tally
		}
		return "INCONCLUSIVE · " + tally
	case judge.OutcomePass:
		return "pass · " + tally
	}
	return ""
}

// undecided lists, for every row that could not decide, what it is and
// why.
func undecided(c *judge.Comparison) []string {
	var out []string
	for _, r := range c.Rows {
		if r.Outcome == judge.OutcomeInconclusive && r.Why != "" {
			out = append(out, fmt.Sprintf("%s %s: %s", r.Cell, r.Metric, r.Why))
		}
	}
	return out
}

// compareMethod says, under every comparison, what a verdict means.
func compareMethod(c *judge.Comparison) string {
	if c.Interleaved {
		return `The runs of both builds alternated on one machine (ABBA), so drift falls on both
alike, and each row is judged on the 90% interval of the ratio new/old over the
runs (the Mann-Whitney U test inverted): a regression when all of it is worse
than the threshold, a pass when all of it is better, inconclusive otherwise.
Over all the rows judged, a regression must also pass Holm's procedure (Holm
1979) at 5% family-wise on the one-sided p of the test against the threshold,
which is each row's interval widened to the confidence Holm's step asks.`
	}
	return `A regression is a change the wrong way beyond the threshold and beyond the noise
(the wider range of either file's repeats), with every new repeat worse than
every old one; a pass, a change whose worst case within the noise stays within
the threshold; anything between is inconclusive. Separate invocations drift more
than repeats do, so the rank test's p (shown in brackets) is no verdict between
them, and throughput and latency are not judged when the machine's calibration
moved by more than half the threshold; CPU per op, which moves with a busy
neighbour too, is judged only when the calibration held within that. Over all
the rows judged, a regression must also pass Holm's procedure on the rows'
one-sided rank-test p at 5% family-wise (Holm 1979): the rows together, not each
alone, are held to one false alarm in twenty where repeats are exchangeable. "~"
is a change within the noise.`
}

// medianRange renders "55741 [53102–58001] n=5".
func medianRange(m judge.Metric, s judge.Stats) string {
	if s.N < 2 {
		return fmt.Sprintf("%s n=%d", m.Format(s.Median), s.N)
	}
	return fmt.Sprintf("%s [%s–%s] n=%d", m.Format(s.Median), m.Format(s.Min), m.Format(s.Max), s.N)
}

// changeVerdict says what a row's change amounts to: its outcome, with the
// interval (interleaved) or the noise it read; a row not judged says how
// it moved.
func changeVerdict(c *judge.Comparison, r judge.ComparisonRow) string {
	p := fmt.Sprintf(" (p=%.3f)", r.P)
	iv := ""
	if r.Confidence > 0 {
		iv = fmt.Sprintf(", %s%% interval ×%s–×%s", judge.ConfidenceLabel(r.Confidence), units.Sig3(r.Low), units.Sig3(r.High))
	}
	switch {
	case r.Outcome == judge.OutcomeRegression && c.Interleaved:
		return "REGRESSION" + iv
	case r.Outcome == judge.OutcomeRegression:
		return "REGRESSION" + p
	case r.Outcome == judge.OutcomePass && c.Interleaved:
		return "pass" + iv
	case r.Outcome == judge.OutcomePass:
		return fmt.Sprintf("pass: within %s%% with the %.0f%% noise%s", percentOf(c.MaxRegression), 100*r.Spread, p)
	case r.Outcome == judge.OutcomeInconclusive && !r.Gated:
		return "INCONCLUSIVE: " + r.Why
	case !r.Gated && strings.HasPrefix(r.Why, "not judged"):
		return r.Why
	case r.Outcome == judge.OutcomeInconclusive:
		return "INCONCLUSIVE" + iv + inconclusiveNote(c, r) + p
	case !r.Gated:
		return "not gated: " + r.Why
	case !r.Apart || math.Abs(r.Delta) <= r.Spread:
		return fmt.Sprintf("~ within the %.0f%% noise%s", 100*r.Spread, p)
	case r.Worse:
		return "worse" + p
	}
	return "better" + p
}

// inconclusiveNote is the short reason a row shows: the machine, or the
// noise.
func inconclusiveNote(c *judge.Comparison, r judge.ComparisonRow) string {
	switch {
	case r.HolmLimit > 0 && strings.Contains(r.Why, "Holm"):
		return ": not kept by Holm"
	case c.Interleaved:
		return ""
	case c.Machine != nil && c.Machine.Changed:
		return ": machine changed"
	}
	return fmt.Sprintf(": %.0f%% noise", 100*r.Spread)
}

func percentOf(f float64) string { return units.Percent(f) }

func arrow(m judge.Metric) string {
	if m.HigherIsBetter() {
		return "↑ better"
	}
	return "↓ better"
}

// comparisonJSON writes the comparison as JSON.
func comparisonJSON(w io.Writer, c *judge.Comparison) error { return writeJSON(w, c) }

// comparisonRows are the comparison's verdicts as the gates' table shows
// them, what regressed first: the machine's change when it refused a
// verdict, then every judged row.
func comparisonRows(c *judge.Comparison) *gatesView {
	if c.Outcome == "" {
		return nil
	}
	var gates []result.Gate
	if m := c.Machine; m != nil && m.Changed && !c.Interleaved {
		gates = append(gates, result.Gate{Expression: "the machine", Cell: "all", Statistic: fmt.Sprintf("calibration, %d and %d probes", m.OldN, m.NewN),
			Outcome: result.OutcomeInconclusive, Why: m.Why})
	}
	for _, r := range c.Rows {
		if r.Outcome == "" {
			continue
		}
		g := result.Gate{Expression: r.Metric.String(), Cell: r.Cell, Outcome: r.Outcome, Why: r.Why,
			Statistic: fmt.Sprintf("medians of %d and %d runs", r.Old.N, r.New.N)}
		if r.Outcome == judge.OutcomeRegression {
			g.Outcome = result.OutcomeFail
		}
		gates = append(gates, g)
	}
	v := newGatesView(gates)
	if v == nil { // a verdict, and no row judged (too few runs)
		v = &gatesView{}
	}
	v.Summary = "compare: " + comparisonVerdict(c)
	for i := range v.Rows {
		r := &v.Rows[i]
		if r.Gate == "the machine" {
			continue
		}
		row := findRow(c, r.Cell, r.Gate)
		r.Figures = fmt.Sprintf("%s → %s (%+.1f%%)", row.Metric.Format(row.Old.Median), row.Metric.Format(row.New.Median), 100*row.Delta)
		r.Interval = strings.TrimPrefix(verdictDetail(c, row), ", ")
		if r.Outcome == result.OutcomeFail {
			r.Word = "REGRESSION"
		}
	}
	return v
}

// verdictDetail is what a judged row read: its interval, or the noise.
func verdictDetail(c *judge.Comparison, r judge.ComparisonRow) string {
	if r.Confidence > 0 {
		return fmt.Sprintf("%s%% interval ×%s–×%s", judge.ConfidenceLabel(r.Confidence), units.Sig3(r.Low), units.Sig3(r.High))
	}
	return fmt.Sprintf("noise %.0f%%", 100*r.Spread)
}

// findRow returns the row of a cell and metric.
func findRow(c *judge.Comparison, cell, metric string) judge.ComparisonRow {
	for _, r := range c.Rows {
		if r.Cell == cell && r.Metric.String() == metric {
			return r
		}
	}
	return judge.ComparisonRow{}
}

// comparisonHTML writes a comparison as a self-contained HTML page: its
// verdicts first, each on its colour with its interval or noise, then the
// text report.
func comparisonHTML(w io.Writer, c *judge.Comparison) error {
	var text bytes.Buffer
	if err := comparisonText(&text, c); err != nil {
		return err
	}
	return writePage(w, htmlPage{Title: "gobench compare", Gates: comparisonRows(c), Summary: text.String()})
}
