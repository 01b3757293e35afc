package report

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"text/tabwriter"

	"github.com/gobench/gobench/pkg/judge"
)

// comparisonText writes the comparison as a table: per cell and metric,
// old and new median with their range, the change and its verdict.
func comparisonText(w io.Writer, c *judge.Comparison) error {
	ew := &errWriter{w: w}
	ew.printf("gobench compare · old %s · new %s", c.OldName, c.NewName)
	if c.MaxRegression > 0 {
		ew.printf(" · regression threshold %s%%", strconv.FormatFloat(100*c.MaxRegression, 'g', 3, 64))
	}
	ew.printf("\n")
	for _, wn := range c.Warnings {
		ew.printf("warning: %s\n", wn)
	}
	for _, u := range c.Unmatched {
		ew.printf("not compared: %s\n", u)
	}
	ew.printf("\n")
	tw := tabwriter.NewWriter(ew, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "cell\tmetric\told median [range]\tnew median [range]\tchange\tverdict\n")
	for _, r := range c.Rows {
		fmt.Fprintf(tw, "%s\t%s (%s)\t%s\t%s\t%+.1f%%\t%s\n", r.Cell, r.Metric, arrow(r.Metric),
			medianRange(r.Metric, r.Old), medianRange(r.Metric, r.New), 100*r.Delta, verdict(r))
	}
	if err := tw.Flush(); err != nil && ew.err == nil {
		ew.err = err
	}
	ew.printf("\n%s\n", compareMethod)
	return ew.err
}

// compareMethod says, under every comparison, what a verdict means.
const compareMethod = `A regression is a change the wrong way beyond the threshold and beyond the noise
(the wider range of either file's repeats), with every new repeat worse than every
old one. Separate invocations drift more than repeats do, so the rank test's p
(shown in brackets) is no verdict between them. "~" is a change within the noise.`

// medianRange renders "55741 [53102–58001] n=5".
func medianRange(m judge.Metric, s judge.Stats) string {
	if s.N < 2 {
		return fmt.Sprintf("%s n=%d", m.Format(s.Median), s.N)
	}
	return fmt.Sprintf("%s [%s–%s] n=%d", m.Format(s.Median), m.Format(s.Min), m.Format(s.Max), s.N)
}

// verdict says what a row's change amounts to.
func verdict(r judge.ComparisonRow) string {
	p := fmt.Sprintf(" (p=%.3f)", r.P)
	switch {
	case r.Regression:
		return "REGRESSION" + p
	case !r.Gated:
		return "not gated: " + r.Why
	case !r.Apart || math.Abs(r.Delta) <= r.Spread:
		return fmt.Sprintf("~ within the %.0f%% noise%s", 100*r.Spread, p)
	case r.Worse:
		return "worse" + p
	}
	return "better" + p
}

func arrow(m judge.Metric) string {
	if m.HigherIsBetter() {
		return "↑ better"
	}
	return "↓ better"
}

// meanSD renders "55741 ± 2% (n=5)".
func meanSD(m judge.Metric, s judge.Stats) string {
	if s.N < 2 {
		return fmt.Sprintf("%s (n=%d)", m.Format(s.Mean), s.N)
	}
	return fmt.Sprintf("%s ± %.0f%% (n=%d)", m.Format(s.Mean), 100*s.RelStdDev(), s.N)
}

// comparisonJSON writes the comparison as JSON.
func comparisonJSON(w io.Writer, c *judge.Comparison) error { return writeJSON(w, c) }
