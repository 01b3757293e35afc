package report

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/gobench/gobench/pkg/judge"
	"github.com/gobench/gobench/pkg/result"
)

// What a report says first, in every format that has room for it: the
// gates, whether every run completed, whether ops failed, what power
// cuts lost (--crash), every cell ranked by the headline figures, and
// each varied setting against the baseline's value at every combination
// of the others. The tables of every figure come after.

// failedRunWarning says, for a run whose ops failed, how many of how
// many and of which classes, and what that does to its figures; "" for
// a run none of whose ops failed.
func failedRunWarning(r *result.Result) string {
	var e result.Errors
	var n int64
	for _, ph := range r.Phases {
		e.Add(ph.Total.Errors)
		n += ph.Total.Count
	}
	if e.Total == 0 {
		return ""
	}
	return fmt.Sprintf("WARNING: %d of %d ops failed (%s): ops/s counts the %d that did not; latency includes the failures",
		e.Total, n, errorsShort(e), n-e.Total)
}

// failedSuiteWarning says, for a suite whose runs failed ops, in how many
// of its cells; "" when none did. A scenario's failed ops are what its
// pitfall shows (busy errors a deferred BEGIN cannot avoid): said as part
// of its finding, not as a warning.
func failedSuiteWarning(s *result.Suite) string {
	failed := 0
	var e result.Errors
	for _, c := range s.Cells {
		ce := result.CellErrors(c)
		if ce.Total > 0 {
			failed++
			e.Add(ce)
		}
	}
	if failed == 0 {
		return ""
	}
	lead := "WARNING: ops failed"
	if s.Scenario != nil {
		lead = "as the scenario shows, ops failed"
	}
	return fmt.Sprintf("%s in %d of %d %s (%s in all; the errors column has each cell's): ops/s counts only the ops that did not fail; latency includes the failures",
		lead, failed, len(s.Cells), plural(len(s.Cells), "cell", "cells"), errorsShort(e))
}

// incompleteLines says first what a suite is not the whole of: a shard of
// a job (which shard, which runs), a merge without some shards' runs, a
// matrix of runs that each ran a shard of their workers; then names every
// run that did not complete, and what stopped it.
func incompleteLines(s *result.Suite) []string {
	var out []string
	if line := s.ShardLine(); line != "" {
		out = append(out, line)
	}
	for _, m := range s.Missing {
		out = append(out, "INCOMPLETE: "+m)
	}
	if line := s.Cells[0].Runs[0].WorkerShardLine(); line != "" {
		out = append(out, line)
	}
	for _, c := range s.Cells {
		for i, r := range c.Runs {
			if !r.Complete {
				out = append(out, fmt.Sprintf("INCOMPLETE: %s run %d: %s", c.Settings, i+1, strings.Join(r.Problems, "; ")))
			}
		}
	}
	return out
}

// rankingHead is the head of a ranking table, after the varied
// settings: rank first, then the headline figures, the first against the
// best, then the errors.
func rankingHead(s *result.Suite, rk judge.Ranking) []string {
	head := []string{}
	for i, m := range rk.Metrics {
		head = append(head, metricLabel(s, m))
		if i == 0 {
			head = append(head, "vs best")
		}
	}
	return append(head, "errors")
}

// rankingRow is a ranked cell's figures, as rankingHead names them.
func rankingRow(rk judge.Ranking, c judge.Ranked) []string {
	var row []string
	for i := range rk.Metrics {
		row = append(row, rk.Format(c, i))
		if i == 0 {
			row = append(row, rk.Versus(c))
		}
	}
	return append(row, errorsShort(c.Errors))
}

// rankingCaption says what the ranking ranks by and over what.
func rankingCaption(sum *judge.Summary, rk judge.Ranking) string {
	fewest, most := sum.Repeats()
	over := fmt.Sprintf("median of %d runs a cell", most)
	switch {
	case most == 1:
		over = "one run a cell"
	case fewest != most:
		over = fmt.Sprintf("median of %d to %d runs a cell", fewest, most)
	}
	by := "the first figure"
	if len(rk.Metrics) > 0 {
		by = rk.Metrics[0].String()
	}
	traced := ""
	for _, c := range rk.Cells {
		if c.Traced {
			traced = "; traced cells (--crash) last and unranked: their speeds are the recorder's as much as the engine's"
			break
		}
	}
	return fmt.Sprintf("ranking by %s (%s; errors over every run%s)", by, over, traced)
}

// rankLabel is a ranked cell's place, 1 first; "–" for a traced cell,
// which has none.
func rankLabel(c judge.Ranked, i int) string {
	if c.Traced {
		return "–"
	}
	return strconv.Itoa(i + 1)
}

// cellValues are a cell's values of the varied settings, one a column
// whatever the file holds, "–" for a setting it lacks (another
// engine's option).
func cellValues(varied []string, s result.Settings) []string {
	if len(varied) == 0 {
		return []string{"(all)"}
	}
	vals := make([]string, len(varied)) // a cell per column, whatever the file holds
	for i, name := range varied {
		if vals[i], _ = s.Get(name); vals[i] == "" {
			vals[i] = "–"
		}
	}
	return vals
}

// repeatsNote says once what a table's "~" means where no factor could
// be significant for want of repeats (one run a cell, or too few for the
// rank test), instead of on every row; "" where repeats allowed it.
func repeatsNote(sum *judge.Summary) string {
	fewest, most := sum.Repeats()
	if most == 1 {
		return "one run a cell: factors are one run's figure against another's, with no test of significance (--repeat 5, interleaved, tells a difference from noise)"
	}
	var notes []string
	for _, m := range sum.Metrics {
		for _, c := range m.Cells {
			if f := c.Factor; f != nil && strings.Contains(f.Note, "too few repeats") && !slices.Contains(notes, f.Note) {
				notes = append(notes, f.Note)
			}
		}
	}
	if len(notes) == 0 {
		return ""
	}
	return fmt.Sprintf("~: not significant; %s (a %.0f%% interval of the ratio needs %d runs a cell, and %d had fewest: --repeat %d or more, 5 narrows it)", strings.Join(notes, "; "), 100*judge.Confidence, judge.MinRatioRepeats, fewest, judge.MinRatioRepeats)
}

// singleRuns reports whether every cell of the suite ran once.
func singleRuns(sum *judge.Summary) bool {
	_, most := sum.Repeats()
	return most == 1
}

// factorText renders a cell's factor against the baseline in a table:
// "baseline", the ratio of medians with its direction, then the interval
// of the ratio that made it significant (a relative gate's rule), "~"
// where not (a note below or above says
// why), nothing more for single runs; "–" and why where there is none.
func factorText(s *result.Suite, c judge.CellStats, single bool) string {
	switch {
	case c.Settings.String() == s.Baseline.String():
		return "baseline"
	case c.Missing != "":
		return "– (" + c.Missing + ")"
	case c.Factor == nil:
		return "–"
	}
	f := c.Factor
	switch {
	case single:
		return f.Short()
	case f.Significant:
		return fmt.Sprintf("%s (%s)", f.Short(), f.Interval())
	}
	return f.Short() + " ~"
}

// metricNotes are the notes of a metric's factors that are not about
// repeats (repeatsNote says those once): a tail percentile's runs too
// short to read it.
func metricNotes(m judge.MetricSummary) []string {
	var out []string
	for _, c := range m.Cells {
		if f := c.Factor; f != nil && f.Note != "" && !strings.Contains(f.Note, "too few repeats") && !slices.Contains(out, f.Note) {
			out = append(out, f.Note)
		}
	}
	return out
}

// headlineNotes are the notes of the headlines' factors not about
// repeats.
func headlineNotes(hs []judge.Headline) []string {
	var out []string
	for _, h := range hs {
		for _, n := range h.Notes() {
			if !strings.Contains(n, "too few repeats") && !slices.Contains(out, n) {
				out = append(out, n)
			}
		}
	}
	return out
}

// headlineLine renders a headline for a report: its factors without
// their p-values for single runs.
func headlineLine(h judge.Headline, single bool) string {
	if !single {
		return h.Line()
	}
	parts := make([]string, len(h.Factors))
	for i, f := range h.Factors {
		parts[i] = fmt.Sprintf("%s %s", h.Metrics[i], f.Short())
	}
	return h.Pair() + ": " + strings.Join(parts, " · ")
}

// statCells are a cell's value columns in a metric table: its median,
// then with repeats its spread (relative standard deviation), min and
// max; "–" for each where it has no value.
func statCells(m judge.MetricSummary, c judge.CellStats, single bool) []string {
	st := c.Stats
	if st.N == 0 {
		if single {
			return []string{"–"}
		}
		return []string{"–", "–", "–", "–"}
	}
	if single {
		return []string{m.Metric.Format(st.Median)}
	}
	sd := "–"
	if st.N > 1 {
		sd = fmt.Sprintf("%.0f%%", 100*st.RelStdDev())
	}
	return []string{m.Metric.Format(st.Median), sd, m.Metric.Format(st.Min), m.Metric.Format(st.Max)}
}

// statHead names statCells' columns.
func statHead(single bool) []string {
	if single {
		return []string{"value"}
	}
	return []string{"median", "sd", "min", "max"}
}

// variedOr names the suite's varied settings, the head of a table's
// cell columns: "cell" when nothing varied.
func variedOr(s *result.Suite) []string {
	if len(s.Varied) == 0 {
		return []string{"cell"}
	}
	return s.Varied
}

// rankingTable is every cell of a matrix ranked by the headline
// figures; nil for a suite of one cell.
func rankingTable(sum *judge.Summary) *table {
	rk := sum.Ranking()
	s := sum.Suite
	if len(s.Cells) < 2 || len(rk.Metrics) == 0 {
		return nil
	}
	caption := rankingCaption(sum, rk)
	a := &table{Caption: strings.ToUpper(caption[:1]) + caption[1:], Head: append(append([]string{"#"}, variedOr(s)...), rankingHead(s, rk)...)}
	for i, c := range rk.Cells {
		a.Rows = append(a.Rows, append(append([]string{rankLabel(c, i)}, cellValues(s.Varied, c.Settings)...), rankingRow(rk, c)...))
	}
	return a
}

// headlineTable is a matrix's headlines: each varied setting's value
// against the baseline's at every combination of the others, on the
// headline figures, with the rank test's word on each.
func headlineTable(sum *judge.Summary) *table {
	hs := sum.Headlines()
	if len(hs) == 0 {
		return nil
	}
	single := singleRuns(sum)
	a := &table{Caption: "Each setting against the baseline's value (" + sum.Suite.Baseline.String() + ") at every combination of the others: ratios of medians", Head: []string{"setting"}}
	var names []string // the metrics of the columns after the first
	for _, h := range hs {
		for _, m := range h.Metrics {
			if !slices.Contains(names, m.String()) {
				names = append(names, m.String())
				a.Head = append(a.Head, metricLabel(sum.Suite, m))
			}
		}
	}
	for _, h := range hs {
		row := []string{h.Pair()}
		for _, name := range names {
			cell := "–"
			for i, m := range h.Metrics {
				if m.String() != name {
					continue
				}
				f := h.Factors[i]
				switch cell = f.Short(); {
				case single:
				case f.Significant:
					cell += " (" + f.Interval() + ")"
				default:
					cell += " ~"
				}
			}
			row = append(row, cell)
		}
		a.Rows = append(a.Rows, row)
	}
	if note := repeatsNote(sum); note != "" {
		a.Notes = append(a.Notes, note)
	}
	a.Notes = append(a.Notes, headlineNotes(hs)...)
	return a
}
