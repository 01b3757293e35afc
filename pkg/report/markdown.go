package report

import (
	"io"
	"slices"
	"strings"

	"github.com/gobench/gobench/pkg/judge"
	"github.com/gobench/gobench/pkg/result"
	"github.com/gobench/gobench/pkg/units"
)

// runMarkdown writes a run as a GitHub-flavoured markdown table, ready for a
// pull request or a CI job summary.
func runMarkdown(w io.Writer, r *result.Result, stats []*judge.Figure) error {
	service := statsOr(stats, []string{"p50", "p99", "p99.9", "max"})
	stats = statsOr(stats, markdownStats)
	ew := markdownWriter(w)
	gatesMarkdown(ew, r.Gates)
	first := true
	for i, ph := range r.Phases {
		if !first {
			ew.printf("\n")
		}
		first = false
		ew.printf("**gobench %s** · %s · %s · wall %.3f s\n\n", r.Command, result.RunSettings(r), r.Plan.Brief(), ph.WallSeconds)
		runAlertsMarkdown(ew, r, i == 0)
		if lines := originLines(r); i == 0 && len(lines) > 0 {
			ew.printf("%s\n\n", mdBlock(lines))
		}
		if line := tracedText(r); i == 0 && line != "" {
			ew.printf("%s\n\n", line)
		}
		if d := r.Durability; i == 0 && d != nil {
			ew.printf("%s\n\n", durabilityText(d))
			if note := dirSyncNote(r); note != "" {
				ew.printf("%s\n\n", note)
			}
		}
		if r.Plan.Replay != nil {
			replayMarkdown(ew, r, ph)
		}
		kindsMarkdown(ew, ph, stats)
		if hasOpenLoop(ph) {
			scols := strings.Repeat(" %s |", len(service))
			ew.printf("\nService time from the actual start (uncorrected) and schedule lag:\n\n| op |"+scols+" lag p99 | lag max | late | skipped |\n|---|"+strings.Repeat("--:|", len(service))+"--:|--:|--:|--:|\n", anys(statNames(service))...)
			for _, o := range viewRows(ph) {
				if sv, lg := o.Service, o.Lag; sv != nil && lg != nil {
					ew.printf("| %s |"+scols+" %s | %s | %d | %d |\n", append(append([]any{o.Kind}, anys(latencyCells(service, *sv))...), units.Micros(lg.P99Micros), units.Micros(lg.MaxMicros), o.Late, o.Skipped)...)
				}
			}
		}
		if hasLockWaits(ph) {
			ew.printf("\nLock waits (busy BEGIN, busy COMMIT: ops whose BEGIN or COMMIT found the database locked):\n\n| op | retries | ops retried | gave up | wait p50 | wait p99 | wait max | busy BEGIN | busy COMMIT |\n|---|--:|--:|--:|--:|--:|--:|--:|--:|\n")
			counted := waitsCounted(ph)
			for _, o := range viewRows(ph) {
				lw := o.LockWaits
				if lw == nil && counted {
					lw = &result.LockWaits{}
				}
				if lw == nil { // waited inside the driver, uncounted
					ew.printf("| %s | – | – | – | – | – | – | %d | %d |\n", o.Kind, o.BusyBegins, o.BusyCommits)
					continue
				}
				ew.printf("| %s | %d | %d | %d | %s | %s | %s | %d | %d |\n", o.Kind, lw.Retries, lw.OpsRetried, lw.GaveUp, units.Micros(lw.Wait.P50Micros), units.Micros(lw.Wait.P99Micros), units.Micros(lw.Wait.MaxMicros), o.BusyBegins, o.BusyCommits)
			}
		}
		if line := cpuText(ph); line != "" {
			ew.printf("\n%s\n", line)
		}
		if line := walText(ph); line != "" {
			ew.printf("\n%s\n", line)
		}
		if line := ioText(r, i); line != "" {
			ew.printf("\n%s\n", line)
		}
		if line := ceilingText(r, i); line != "" {
			ew.printf("\n%s\n", line)
		}
	}
	if line := ioOutsideText(r); line != "" {
		ew.printf("\n%s\n", line)
	}
	if line := tracedSyncNote(r); line != "" {
		ew.printf("\n%s\n", line)
	}
	if line := figuresText(r); line != "" {
		ew.printf("\n%s\n", mdEscape(line))
	}
	return ew.err
}

// runAlertsMarkdown writes what a run's markdown leads with, as quotes: a
// run that did not complete; under the first phase's head (first), a
// shard of its workers and ops that failed.
func runAlertsMarkdown(ew *errWriter, r *result.Result, first bool) {
	if !r.Complete {
		ew.printf("> **Incomplete:** %s\n\n", strings.Join(r.Problems, "; "))
	}
	if !first {
		return
	}
	for _, line := range []string{r.WorkerShardLine(), failedRunWarning(r)} {
		if line != "" {
			ew.printf("> **%s**\n\n", line)
		}
	}
}

// suiteMarkdown writes a suite's report as markdown, the answer first
// (as suiteText): a scenario's verdict, the precision reached
// (--precision), the gates, runs that did not complete, failed ops, the
// durability table (--crash), the ranking of every cell and the
// headlines; then one table of every figure, a row per figure and cell,
// with its median (and spread) over repeats, its factor against the
// baseline and the cell's failed ops.
func suiteMarkdown(w io.Writer, sum *judge.Summary) error {
	ew := markdownWriter(w)
	s := sum.Suite
	single := singleRuns(sum)
	scenarioMarkdown(ew, s.Scenario)
	if s.Precision != nil {
		ew.printf("%s\n\n", s.Precision.Text)
	}
	gatesMarkdown(ew, s.Gates)
	_, repeats := sum.Repeats()
	ew.printf("**gobench %s** · %d %s × %d %s (%s)", s.Command, len(s.Cells), plural(len(s.Cells), "cell", "cells"), repeats, plural(repeats, "repeat", "repeats"), s.Order)
	if len(s.Varied) > 0 {
		ew.printf(" · baseline %s", mdCode(s.Baseline.String()))
	}
	ew.printf("\n\n")
	for _, line := range incompleteLines(s) {
		ew.printf("> **%s**\n\n", line)
	}
	if line := failedSuiteWarning(s); line != "" {
		ew.printf("> **%s**\n\n", line)
	}
	if line := suiteTraced(s); line != "" {
		ew.printf("%s\n\n", line)
	}
	if line := judge.SuiteVersionsNote(s); line != "" {
		ew.printf("%s\n\n", line)
	}
	if line := suiteVersionLine(s); line != "" {
		ew.printf("%s\n\n", line)
	}
	varied := variedOr(s)
	suiteAnswerMarkdown(ew, sum, varied, single)
	stats := statHead(single)
	ew.printf("| metric | %s | %s | vs baseline | errors |\n|---|%s%s---|---|\n", mdCells(varied), mdCells(stats),
		trusted(strings.Repeat("---|", len(varied))), trusted(strings.Repeat("--:|", len(stats))))
	for _, m := range sum.Metrics {
		for i, c := range m.Cells {
			ew.printf("| %s %s | %s | %s | %s | %s |\n", m.Metric, arrowShort(m.Metric), mdCells(cellValues(s.Varied, c.Settings)),
				mdCells(statCells(m, c, single)), factorText(s, c, single), errorsShort(result.CellErrors(s.Cells[i])))
		}
		if v, ok := capturedStat(s, m.Metric); ok {
			ew.printf("| %s %s | %s | %s | %s | – |\n", m.Metric, arrowShort(m.Metric), mdCells(capturedLabels(len(varied))),
				mdCells(capturedCells(m, v, single, false)[:len(stats)]), capturedNote)
		}
	}
	ew.printf("\n↑ higher is better · ↓ lower is better · ↕ neither · ~ not significant (the %.0f%% interval of the ratio, a relative gate's, holds ×1) · factors are ratios of medians\n", 100*judge.Confidence)
	if legend := suiteStatements(sum); len(legend) > 0 {
		ew.printf("\nstatements:\n\n")
		for _, l := range legend {
			ew.printf("- %s: %s\n", mdCode(l[0]), mdCode(l[1]))
		}
	}
	for _, m := range sum.Metrics {
		for _, n := range metricNotes(m) {
			ew.printf("\n~ %s: %s\n", m.Metric, n)
		}
	}
	return ew.err
}

// suiteAnswerMarkdown writes the answer a suite's markdown report leads
// with: the durability table (--crash), the ranking of every cell and the
// headlines, and once why factors are not significant.
func suiteAnswerMarkdown(ew *errWriter, sum *judge.Summary, varied []string, single bool) {
	s := sum.Suite
	if t := suiteDurabilityTable(s); t != nil {
		ew.printf("**Durability** %s:\n\n", strings.TrimPrefix(t.Caption, "Durability "))
		t.writeMarkdown(ew)
		ew.printf("\n")
		for _, n := range t.Notes {
			ew.printf("%s\n\n", n)
		}
	}
	if rk := sum.Ranking(); len(s.Cells) > 1 && len(rk.Metrics) > 0 {
		head := rankingHead(s, rk)
		ew.printf("**Ranking** by %s:\n\n| # | %s | %s |\n|--:|%s%s\n", strings.TrimPrefix(rankingCaption(sum, rk), "ranking by "), mdCells(varied), mdCells(head),
			trusted(strings.Repeat("---|", len(varied))), trusted(strings.Repeat("--:|", len(head))))
		for i, c := range rk.Cells {
			ew.printf("| %s | %s | %s |\n", rankLabel(c, i), mdCells(cellValues(s.Varied, c.Settings)), mdCells(rankingRow(rk, c)))
		}
		ew.printf("\n")
	}
	if hs := sum.Headlines(); len(hs) > 0 {
		ew.printf("**Headline** (ratios of medians; ~ not significant):\n\n")
		for _, h := range hs {
			ew.printf("- %s\n", headlineLine(h, single))
		}
		for _, n := range headlineNotes(hs) {
			ew.printf("- ~: %s\n", n)
		}
		ew.printf("\n")
	}
	if note := repeatsNote(sum); note != "" {
		ew.printf("%s\n\n", note)
	}
}

// comparisonMarkdown writes a comparison as markdown: its verdict first,
// with a coloured mark, the machine's move, then a table with each row's
// verdict and what it read, then why each undecided row did not decide.
func comparisonMarkdown(w io.Writer, c *judge.Comparison) error {
	ew := markdownWriter(w)
	if v := comparisonVerdict(c); v != "" {
		ew.printf("%s **gobench compare: %s**\n\n", comparisonMark(c.Outcome), v)
	}
	ew.printf("**gobench compare** · old %s · new %s", mdCode(c.OldName), mdCode(c.NewName))
	if c.MaxRegression > 0 {
		ew.printf(" · regression threshold %s%%", units.Percent(c.MaxRegression))
	}
	if c.Interleaved {
		ew.printf(" · runs interleaved on one machine")
	}
	ew.printf("\n\n")
	if c.Differs != "" {
		ew.printf("> differs: %s\n", c.Differs)
	}
	if m := c.Machine; m != nil {
		ew.printf("> machine: %s\n", m.Why)
	}
	for _, wn := range c.Warnings {
		ew.printf("> warning: %s\n", wn)
	}
	if len(c.Warnings) > 0 || c.Machine != nil || c.Differs != "" {
		ew.printf("\n")
	}
	ew.printf("| cell | metric | old median [range] | new median [range] | change | verdict |\n|---|---|--:|--:|--:|---|\n")
	for _, r := range c.Rows {
		v := changeVerdict(c, r)
		if r.Outcome != "" {
			v = comparisonMark(r.Outcome) + " " + v
		}
		ew.printf("| %s | %s %s | %s | %s | %+.1f%% | %s |\n", r.Cell, r.Metric, arrowShort(r.Metric),
			medianRange(r.Metric, r.Old), medianRange(r.Metric, r.New), 100*r.Delta, v)
	}
	if whys := undecided(c); len(whys) > 0 {
		ew.printf("\nInconclusive:\n\n")
		for _, why := range whys {
			ew.printf("- %s\n", why)
		}
	}
	ew.printf("\n%s\n", strings.ReplaceAll(compareMethod(c), "\n", " "))
	return ew.err
}

// comparisonMark is the coloured mark of a comparison's outcome.
func comparisonMark(outcome string) string {
	switch outcome {
	case judge.OutcomeRegression:
		return "🔴"
	case judge.OutcomeInconclusive:
		return "🟡"
	}
	return "🟢"
}

func arrowShort(m judge.Metric) string {
	if m.Neutral() {
		return "↕"
	}
	if m.HigherIsBetter() {
		return "↑"
	}
	return "↓"
}

// mdCells returns vals as the cells of a markdown table row, each
// escaped, joined by the cells' separator.
func mdCells(vals []string) trusted {
	esc := make([]string, len(vals))
	for i, v := range vals {
		esc[i] = mdEscape(v)
	}
	return trusted(strings.Join(esc, " | "))
}

// kindsMarkdown writes phase ph's table of op kinds and, for a run with
// roles, each role's.
func kindsMarkdown(w *errWriter, ph result.Phase, stats []*judge.Figure) {
	opTable(append(slices.Clone(ph.Ops), ph.Total), stats, errorText).writeMarkdown(w)
	if t := roleTable(ph, stats, errorText); t != nil {
		w.printf("\nPer role:\n\n")
		t.writeMarkdown(w)
	}
}
