package history

import (
	"fmt"
	"strings"

	"github.com/gobench/gobench/pkg/judge"
)

// GateVerdict is what Gate found of one series: whether the change point
// at its head fails the gate, and why.
type GateVerdict struct {
	Series *Series `json:"-"`
	Figure string  `json:"figure"`
	Cell   string  `json:"cell"`
	Plan   string  `json:"plan_hash"`
	// Change is the change point at the head; nil when there is none.
	Change *Change `json:"change,omitempty"`
	Fail   bool    `json:"fail"`
	Reason string  `json:"reason"`
}

// Gate judges the change point at the head of each series (its last:
// the head of the branch is at the level after it), within the last
// recent points (0: wherever it is). It fails on one that is the wrong
// way and either confirmed a regression by history confirm, or, not
// confirmed, whose interval of the ratio after/before lies wholly beyond
// maxRegression (a latency up by more, a throughput down by more); a
// change point confirmed otherwise passes.
func Gate(series []*Series, maxRegression float64, recent int) []GateVerdict {
	out := make([]GateVerdict, 0, len(series))
	for _, sr := range series {
		v := GateVerdict{Series: sr, Figure: sr.Figure, Cell: sr.Cell, Plan: sr.Plan}
		if n := len(sr.Changes); n > 0 && (recent <= 0 || sr.Changes[n-1].Index >= len(sr.Points)-recent) {
			v.Change = &sr.Changes[n-1]
		}
		v.Fail, v.Reason = judgeHead(sr, v.Change, maxRegression)
		out = append(out, v)
	}
	return out
}

// judgeHead says whether change c at the head of sr fails the gate.
func judgeHead(sr *Series, c *Change, maxRegression float64) (bool, string) {
	if c == nil {
		if n := len(sr.Points); n > 0 && sr.Points[n-1].Excluded {
			return false, "no change point at the head, but the head (" + ShortCommit(sr.Points[n-1].Commit) +
				") was not searched: the machine's calibration moved during each of its runs; run it again"
		}
		return false, "no change point at the head"
	}
	m, _ := judge.ParseMetric(sr.Figure)
	at := fmt.Sprintf("%s → %s: %s → %s (%+.1f%%, p %.3f)", ShortCommit(c.Before), ShortCommit(c.After),
		m.Format(c.From), m.Format(c.To), 100*c.Step, c.P)
	switch {
	case c.Verdict == VerdictRegression:
		return true, at + ": a regression, confirmed by an interleaved A/B run (" + c.Detail + ")"
	case c.Verdict != "":
		return false, at + ": ab found " + c.Verdict + " (" + c.Detail + ")"
	case !c.Worse:
		return false, at + ": " + improvement(sr)
	case !c.RatioOK:
		return false, at + fmt.Sprintf(": too few points on either side for the interval of the step (%d a side at least); confirm it with gobench history confirm", judge.MinRatioRepeats)
	}
	iv := fmt.Sprintf("%.0f%% interval of after/before [%.3f, %.3f]", 100*c.Ratio.Confidence, c.Ratio.Lo, c.Ratio.Hi)
	beyond := c.Ratio.Lo > 1+maxRegression
	if sr.Higher {
		beyond = c.Ratio.Hi < 1-maxRegression
	}
	if beyond {
		return true, at + ": a regression beyond " + pct(maxRegression) + ", " + iv
	}
	return false, at + ": the wrong way, but its " + iv + " reaches " + pct(maxRegression)
}

// improvement names a change the right way.
func improvement(sr *Series) string {
	if sr.Neutral {
		return "neither way is better"
	}
	return "an improvement"
}

// pct writes a fraction as a percentage.
func pct(f float64) string { return strings.TrimSuffix(fmt.Sprintf("%.1f", 100*f), ".0") + "%" }

// ShortCommit shortens a commit to 12 characters; "(none)" for a run of
// no known commit.
func ShortCommit(commit string) string {
	if commit == "" {
		return "(none)"
	}
	if len(commit) > 12 {
		return commit[:12]
	}
	return commit
}

// ErrRegression is the error of a gate that failed; it is a
// judge.ErrThreshold (exit 3).
func ErrRegression(vs []GateVerdict) error {
	var failed []string
	for _, v := range vs {
		if v.Fail {
			failed = append(failed, v.Figure+" ["+v.Cell+"] "+v.Reason)
		}
	}
	if len(failed) == 0 {
		return nil
	}
	return fmt.Errorf("%w: %s", judge.ErrThreshold, strings.Join(failed, "; "))
}
