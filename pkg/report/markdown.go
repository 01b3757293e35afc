package report

import (
	"io"
	"strings"

	"github.com/gobench/gobench/pkg/judge"
	"github.com/gobench/gobench/pkg/result"
	"github.com/gobench/gobench/pkg/units"
)

// runMarkdown writes a run as a GitHub-flavoured markdown table, ready for a
// pull request or a CI job summary.
func runMarkdown(w io.Writer, r *result.Result) error {
	ew := markdownWriter(w)
	gatesMarkdown(ew, r.Gates)
	first := true
	for i, ph := range r.Phases {
		if !first {
			ew.printf("\n")
		}
		first = false
		ew.printf("**gobench %s** · %s · %s · wall %.3f s\n\n", r.Command, result.RunSettings(r), r.Plan.Brief(), ph.WallSeconds)
		if !r.Complete {
			ew.printf("> **Incomplete:** %s\n\n", strings.Join(r.Problems, "; "))
		}
		if lines := originLines(r); i == 0 && len(lines) > 0 {
			ew.printf("%s\n\n", mdBlock(lines))
		}
		if line := tracedText(r); i == 0 && line != "" {
			ew.printf("%s\n\n", line)
		}
		if d := r.Durability; i == 0 && d != nil {
			ew.printf("%s\n\n", durabilityText(d))
		}
		if r.Plan.Replay != nil {
			replayMarkdown(ew, r, ph)
		}
		ew.printf("| op | count | ops/s | p50 | p90 | p99 | p99.9 | max | errors |\n|---|--:|--:|--:|--:|--:|--:|--:|---|\n")
		for _, o := range append(append([]result.OpStats{}, ph.Ops...), ph.Total) {
			ew.printf("| %s | %d | %s | %s | %s | %s | %s | %s | %s |\n", o.Kind, o.Count, units.Rate(o.OpsPerSec),
				units.Micros(o.P50Micros), units.Micros(o.P90Micros), units.Micros(o.P99Micros), units.Micros(o.P999Micros), units.Micros(o.MaxMicros), errorText(o))
		}
		if hasOpenLoop(ph) {
			ew.printf("\nService time from the actual start (uncorrected) and schedule lag:\n\n| op | p50 | p99 | p99.9 | max | lag p99 | lag max | late | skipped |\n|---|--:|--:|--:|--:|--:|--:|--:|--:|\n")
			for _, o := range viewRows(ph) {
				if sv, lg := o.Service, o.Lag; sv != nil && lg != nil {
					ew.printf("| %s | %s | %s | %s | %s | %s | %s | %d | %d |\n", o.Kind, units.Micros(sv.P50Micros), units.Micros(sv.P99Micros), units.Micros(sv.P999Micros), units.Micros(sv.MaxMicros), units.Micros(lg.P99Micros), units.Micros(lg.MaxMicros), o.Late, o.Skipped)
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
	if line := figuresText(r); line != "" {
		ew.printf("\n%s\n", mdEscape(line))
	}
	return ew.err
}

// suiteMarkdown writes a suite's statistics as one markdown table: a row
// per metric and cell, with mean ± sd over repeats and the factor against
// the baseline.
func suiteMarkdown(w io.Writer, sum *judge.Summary) error {
	ew := markdownWriter(w)
	s := sum.Suite
	scenarioMarkdown(ew, s.Scenario)
	gatesMarkdown(ew, s.Gates)
	repeats := 0
	for _, c := range s.Cells {
		repeats = max(repeats, len(c.Runs))
	}
	ew.printf("**gobench %s** · %d cells × %d repeats (%s)", s.Command, len(s.Cells), repeats, s.Order)
	if len(s.Varied) > 0 {
		ew.printf(" · baseline %s", mdCode(s.Baseline.String()))
	}
	ew.printf("\n\n")
	if line := suiteTraced(s); line != "" {
		ew.printf("%s\n\n", line)
	}
	// A suite of one cell varies nothing: its cell column says (all), as
	// the durability table's and a comparison's do (an empty column
	// header with no delimiter of its own broke the table).
	varied := s.Varied
	if len(varied) == 0 {
		varied = []string{"cell"}
	}
	ew.printf("| metric | %s | mean ± sd | median | min | max | vs baseline |\n|---|", mdCells(varied))
	ew.printf("%s--:|--:|--:|--:|---|\n", trusted(strings.Repeat("---|", len(varied))))
	for _, m := range sum.Metrics {
		for _, c := range m.Cells {
			vals := []string{"(all)"}
			if len(s.Varied) > 0 {
				vals = make([]string, len(s.Varied)) // a cell per column, whatever the file holds
				for i, name := range s.Varied {
					vals[i], _ = c.Settings.Get(name)
				}
			}
			ew.printf("| %s %s | %s | %s | %s | %s | %s | %s |\n", m.Metric, arrowShort(m.Metric), mdCells(vals),
				meanSD(m.Metric, c.Stats), m.Metric.Format(c.Stats.Median), m.Metric.Format(c.Stats.Min), m.Metric.Format(c.Stats.Max), factorCell(s, c))
		}
	}
	ew.printf("\n↑ higher is better · ↓ lower is better · ~ not significant (Mann-Whitney U, α=%.2f)\n", judge.Alpha)
	if legend := suiteStatements(sum); len(legend) > 0 {
		ew.printf("\nstatements:\n\n")
		for _, l := range legend {
			ew.printf("- %s: %s\n", mdCode(l[0]), mdCode(l[1]))
		}
	}
	if rows, settings, model := suiteDurability(s); rows != nil {
		ew.printf("\n**Durability** (--crash: %s; over every repeat):\n\n| %s | %s |\n|%s%s\n", model, mdCells(varied), mdCells(durabilityHead),
			trusted(strings.Repeat("---|", len(varied))), trusted(strings.Repeat("--:|", len(durabilityHead))))
		for i, row := range rows {
			vals := []string{"(all)"}
			if len(settings[i]) > 0 {
				vals = vals[:0]
				for _, st := range settings[i] {
					vals = append(vals, st.Value)
				}
			}
			ew.printf("| %s | %s |\n", mdCells(vals), mdCells(row))
		}
		ew.printf("\n%s\n", durabilityLegend)
	}
	if hs := sum.Headlines(); len(hs) > 0 {
		ew.printf("\n**Headline** (each against the baseline):\n\n")
		for _, h := range hs {
			ew.printf("- %s\n", h)
		}
	}
	return ew.err
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
	if m := c.Machine; m != nil {
		ew.printf("> machine: %s\n", m.Why)
	}
	for _, wn := range c.Warnings {
		ew.printf("> warning: %s\n", wn)
	}
	if len(c.Warnings) > 0 || c.Machine != nil {
		ew.printf("\n")
	}
	ew.printf("| cell | metric | old median [range] | new median [range] | change | verdict |\n|---|---|--:|--:|--:|---|\n")
	for _, r := range c.Rows {
		v := verdict(c, r)
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
