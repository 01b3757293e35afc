package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/gobench/gobench/pkg/history"
	"github.com/gobench/gobench/pkg/judge"
	"github.com/gobench/gobench/pkg/units"
)

// The results history (gobench history show, gate): per series, a line
// naming its plan and cell and what normalised it, a table of its points
// (one per commit), its change points, the runs left out, and the gate's
// verdict.

// historyText writes a history report as text.
func historyText(w io.Writer, h *history.Report) error {
	tw := textWriter(w)
	tw.printf("history %s: %s%s\n", h.History, strings.Join(h.Figures, ", "), historyScope(h))
	if len(h.Series) == 0 {
		tw.printf("no runs of these figures%s: the history keeps each run's default figures (throughput, p50, p99 and p99.9 of each op kind, CPU per op, …)\n", historyScope(h))
	}
	for i, sr := range h.Series {
		tw.printf("\n")
		seriesText(tw, sr)
		if i < len(h.Gate) {
			gateLine(tw, h.Gate[i])
		}
	}
	return tw.err
}

// historyScope says which runs a history report read.
func historyScope(h *history.Report) string {
	var parts []string
	if h.Branch != "" {
		parts = append(parts, "branch "+h.Branch)
	}
	if h.Where != "" {
		parts = append(parts, "where "+h.Where)
	}
	if !h.Since.IsZero() {
		parts = append(parts, "since "+h.Since.Format("2006-01-02 15:04 MST"))
	}
	if len(parts) == 0 {
		return ""
	}
	return " (" + strings.Join(parts, ", ") + ")"
}

// seriesText writes one series: its head, its points, its change points
// and what was left out of the search.
func seriesText(tw *errWriter, sr *history.Series) {
	m, _ := judge.ParseMetric(sr.Figure)
	tw.printf("%s (%s, %s) · plan %.12s (%s) · %s\n", sr.Figure, sr.Unit, m.Direction(), sr.Plan, sr.Command, sr.Cell)
	tw.printf("%s\n", basisLine(sr, m))
	t := &table{Head: []string{"commit", "runs", "value", "interval", "raw", ""}}
	at := map[int]bool{}
	for _, c := range sr.Changes {
		at[c.Index] = true
	}
	for i, p := range sr.Points {
		mark := ""
		switch {
		case at[i]:
			mark = "◀ change"
		case p.Excluded:
			mark = "left out"
		}
		t.Rows = append(t.Rows, []string{history.ShortCommit(p.Commit), fmt.Sprint(len(p.Runs)), m.Format(p.Value),
			"[" + m.Format(p.Lo) + ", " + m.Format(p.Hi) + "]" + confidenceTag(p.Confidence), m.Format(p.Raw), mark})
	}
	t.writeText(tw)
	changesText(tw, sr, m)
	if len(sr.Excluded) > 0 {
		var runs []string
		for _, e := range sr.Excluded {
			runs = append(runs, fmt.Sprintf("%s (run %.8s, %+.0f%%)", history.ShortCommit(e.Commit), e.RunID, 100*e.Drift))
		}
		tw.printf("left out of the search, their machine's calibration moved by more than %.0f%% during the run: %s\n", 100*sr.MaxDrift, strings.Join(runs, ", "))
	}
}

// basisLine says what the series' values were normalised by.
func basisLine(sr *history.Series, m judge.Metric) string {
	searched := "normalised"
	if sr.Raw {
		searched = "as measured (--raw)"
	}
	switch sr.Basis {
	case history.BasisCPU:
		return fmt.Sprintf("value: normalised by each run's CPU calibration to %s µs a unit (the runs' median); searched %s", units.Sig3(sr.Reference), searched)
	case history.BasisFsync:
		return fmt.Sprintf("value: normalised by each run's fsync calibration to %s µs a write (the runs' median); searched %s", units.Sig3(sr.Reference), searched)
	}
	if m.Figure().Scale == judge.Rate || m.Figure().Scale == judge.Latency {
		return "value: as measured (no run of the series was calibrated)"
	}
	return "value: as measured (the figure does not move with the machine)"
}

// confidenceTag names an interval's confidence, or marks the runs' range.
func confidenceTag(c float64) string {
	if c == 0 {
		return " range"
	}
	return fmt.Sprintf(" %.0f%%", 100*c)
}

// changesText lists the series' change points.
func changesText(tw *errWriter, sr *history.Series, m judge.Metric) {
	d := sr.Detector
	if len(sr.Changes) == 0 {
		tw.printf("no change point (E-divisive means, p ≤ %g over %d shuffles, step ≥ %.0f%%)\n", d.Alpha, d.Permutations, 100*d.MinStep)
		return
	}
	tw.printf("change points (E-divisive means, p ≤ %g over %d shuffles, step ≥ %.0f%%):\n", d.Alpha, d.Permutations, 100*d.MinStep)
	for _, c := range sr.Changes {
		tw.printf("  %s\n", changeLine(c, m))
	}
}

// changeLine says a change point in a line.
func changeLine(c history.Change, m judge.Metric) string {
	way := "better"
	if c.Worse {
		way = "worse"
	} else if m.Neutral() {
		way = "neither way is better"
	}
	s := fmt.Sprintf("%s → %s: %s → %s (%+.1f%%, %s), p %.3f", history.ShortCommit(c.Before), history.ShortCommit(c.After),
		m.Format(c.From), m.Format(c.To), 100*c.Step, way, c.P)
	if c.RatioOK {
		s += fmt.Sprintf(", %.0f%% interval of after/before [%.3f, %.3f]", 100*c.Ratio.Confidence, c.Ratio.Lo, c.Ratio.Hi)
	}
	if c.Verdict != "" {
		s += "; confirmed by ab: " + c.Verdict
		if c.Detail != "" {
			s += " (" + c.Detail + ")"
		}
	}
	return s
}

// gateLine writes the gate's verdict of a series.
func gateLine(tw *errWriter, v history.GateVerdict) {
	verdict := "pass"
	if v.Fail {
		verdict = "FAIL"
	}
	tw.printf("gate: %s: %s\n", verdict, v.Reason)
}

// historyJSON writes a history report as indented JSON.
func historyJSON(w io.Writer, h *history.Report) error { return writeJSON(w, h) }
