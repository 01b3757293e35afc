package report

import (
	"fmt"
	"slices"
	"strings"

	"github.com/gobench/gobench/pkg/judge"
	"github.com/gobench/gobench/pkg/result"
	"github.com/gobench/gobench/pkg/sqltrace"
	"github.com/gobench/gobench/pkg/units"
	"github.com/gobench/gobench/pkg/workload"
)

// A replayed trace's run (Plan.Replay) reports its statements by
// fingerprint, the top by total time first, each with its fingerprint's
// text; then its transactions, its divergence from the capture, the
// database's end against the capture's, and the settings the run
// overrode.

// busyWaits is a statement's busy waits: the busy handler's calls, where
// the driver counts them.
func busyWaits(o result.OpStats) string {
	if o.LockWaits == nil {
		return "-"
	}
	return fmt.Sprint(o.LockWaits.Retries)
}

// statementP99 is a replayed statement's p99, marked thin when fewer
// than judge.ThinCount executions make it (one of a handful, not a tail:
// no headline ranks by it).
func statementP99(o result.OpStats) string {
	p := units.Micros(o.P99Micros)
	if o.Count > 0 && o.Count < judge.ThinCount {
		p += " thin"
	}
	return p
}

// thinLine explains the p99s marked thin, when a statement's is.
func thinLine(ph result.Phase) []string {
	for _, o := range ph.Ops {
		if o.Count > 0 && o.Count < judge.ThinCount {
			return []string{fmt.Sprintf("thin: a p99 of fewer than %d executions (see count) is one of a handful, not a tail: no headline or ranking takes it", judge.ThinCount)}
		}
	}
	return nil
}

// replayTable writes a replayed run's statements.
func replayTable(w *errWriter, r *result.Result, ph result.Phase) {
	t := w.aligned(0)
	t.printf("statement\tcount\ttotal\tmean\tp50\tp99\tmax\terrors\tbusy waits\tdiverged\tfingerprint\n")
	for _, row := range replayRows(r, ph) {
		o := row.o
		t.printf("%s\t%d\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%d\t%s\n", o.Kind, o.Count, units.Micros(row.total),
			units.Micros(o.MeanMicros), units.Micros(o.P50Micros), statementP99(o), units.Micros(o.MaxMicros),
			errorText(o), busyWaits(o), o.Diverged, shorten(row.fingerprint, 80))
	}
	o := ph.Total
	t.printf("total\t%d\t%s\t%s\t%s\t%s\t%s\t%s\t\t%d\t\n", o.Count, units.Micros(o.MeanMicros*float64(o.Count)),
		units.Micros(o.MeanMicros), units.Micros(o.P50Micros), units.Micros(o.P99Micros), units.Micros(o.MaxMicros), errorText(o), o.Diverged)
	if c, ok := capturedRow(r.Plan.Replay); ok {
		t.printf("%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t\t\t%s\n", c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7], capturedNote)
	}
	t.flush()
}

// replayLines says what a replayed run did besides its statements'
// figures: its transactions, its divergence, the database's end and the
// settings it overrode.
func replayLines(r *result.Result, ph result.Phase) []string {
	rp := r.Plan.Replay
	t := ph.Total
	var lines []string
	tx := fmt.Sprintf("transactions: %d committed", t.Commits)
	if ph.WallSeconds > 0 {
		tx += fmt.Sprintf(", %s/s", units.Rate(float64(t.Commits)/ph.WallSeconds))
	}
	lines = append(lines, tx+fmt.Sprintf(" (%d in the capture) · speed %s · order %s", rp.Commits, workload.SpeedName(rp.Speed), rp.Order))
	lines = append(lines, foldLine(r, ph)...)
	div := fmt.Sprintf("divergence: %d of %d statements did something else than when captured (other rows or changes, another outcome); %d failed where the capture's did not, %d succeeded where it failed",
		t.Diverged, t.Count, t.NewErrors, t.LostErrors)
	if judged, why := rp.Judged(); !judged {
		div = fmt.Sprintf("divergence: %s; %d of %d statements failed where the capture's did not, %d succeeded where it failed", why, t.NewErrors, t.Count, t.LostErrors)
		div += sharedConstraints(rp, ph)
	}
	if t.Uncompared > 0 {
		div += fmt.Sprintf("; %d whose rows were not compared (the capture could not tell which commit they saw: a commit of another connection was under way)", t.Uncompared)
	}
	cut := min(t.Skipped, rp.Cut.Statements)
	if busy := t.Skipped - cut; busy > 0 {
		div += fmt.Sprintf("; %d not run (they found the database busy when captured: the application's retry runs in their place)", busy)
	}
	if cut > 0 {
		div += fmt.Sprintf("; %d not run (their text was longer than the %d MiB a trace keeps, and the capture cut it)", cut, sqltrace.MaxText>>20)
	}
	if rp.Digested == 0 {
		div += "; the trace holds no digest of the statements' rows (a capture by an older gobench): their rows were compared by number only"
	}
	lines = append(lines, div)
	if line := rp.SharedLine(); line != "" {
		lines = append(lines, line)
	}
	if line := versionLine(r, t.Diverged); line != "" {
		lines = append(lines, line)
	}
	lines = append(lines, divergedLines(r, ph)...)
	lines = append(lines, failedLines(r, ph)...)
	lines = append(lines, thinLine(ph)...)
	lines = append(lines, capturedLines(r, ph)...)
	if rp.Cut.Statements > 0 {
		lines = append(lines, fmt.Sprintf("cut: %d statements longer than %d MiB, kept as their first MiB by the capture: not run (%s)", rp.Cut.Statements, sqltrace.MaxText>>20, rp.Cut.Names()))
	}
	if rp.Omitted.Statements > 0 {
		lines = append(lines, fmt.Sprintf("omitted: %d statements with a parameter longer than %d MiB, whose bytes the trace does not hold: they ran with filler of its length (%s)", rp.Omitted.Statements, sqltrace.MaxValue>>20, rp.Omitted.Names()))
	}
	if line := replayCheckText(r.Replay, rp); line != "" {
		lines = append(lines, line)
	}
	if len(rp.Unreplayed) > 0 {
		lines = append(lines, fmt.Sprintf("databases: replayed %s; not replayed %s, which the trace's statements also ran on (--database picks another)", rp.Database, strings.Join(rp.Unreplayed, ", ")))
	}
	for _, o := range rp.Overrides {
		lines = append(lines, fmt.Sprintf("overridden: %s (%d×) ran as a read of the setting: the run's %s sets it", shorten(o.SQL, 60), o.Count, o.Setting))
	}
	return lines
}

// failedLines gives, for each kind of statement that failed, its
// errors by class and the first error's message, where the workers kept
// one (workload.ReplayCheck.Errors).
func failedLines(r *result.Result, ph result.Phase) []string {
	if r.Replay == nil || len(r.Replay.Errors) == 0 {
		return nil
	}
	first := map[string]workload.ReplayError{}
	for _, e := range r.Replay.Errors {
		first[e.Kind] = e
	}
	var lines []string
	for _, o := range ph.Ops {
		e, ok := first[o.Kind]
		if !ok || o.Errors.Total == 0 {
			continue
		}
		errs := "errors"
		if o.Errors.Total == 1 {
			errs = "error"
		}
		n := fmt.Sprintf("%d %s %s", o.Errors.Total, errs, strings.TrimPrefix(errorText(result.OpStats{Errors: o.Errors}), fmt.Sprint(o.Errors.Total)+" "))
		if c := classOf(o.Errors); c != "" {
			n = fmt.Sprintf("%d %s %s", o.Errors.Total, c, errs)
		}
		lines = append(lines, fmt.Sprintf("failed %s: %s, first: %s", o.Kind, n, e.Message))
	}
	return lines
}

// classOf names the one class of errors counts, or "" when they are of
// several.
func classOf(e result.Errors) string {
	for _, c := range result.ErrorClasses() {
		if n := e.Of(c); n > 0 {
			if n != e.Total {
				return ""
			}
			return strings.ReplaceAll(c.String(), "_", " ")
		}
	}
	return ""
}

// replayCheckText says whether the replayed database ended as the
// capture's did, and why not: values the trace does not hold, the
// transactions' race, or, of one connection, a statement whose result
// varies.
func replayCheckText(c *workload.ReplayCheck, rp *workload.Replay) string {
	switch {
	case c == nil:
		return ""
	case !c.Compared:
		return "database: not compared with the capture's end: " + c.Reason
	case c.Equal:
		return fmt.Sprintf("database: ends as the capture's did (%d tables, their rows identical)", c.Tables)
	}
	s := "database: differs from the capture's end: " + strings.Join(c.Differences, "; ")
	switch {
	case rp.Cut.Statements > 0 || rp.Omitted.Statements > 0:
		s += fmt.Sprintf(" (values the trace does not hold, not a race: %d statements cut and not run, %d run with filler for a value omitted; the database cannot end as the capture's)", rp.Cut.Statements, rp.Omitted.Statements)
	case replayConnections(rp) < 2:
		s += " (not a race: one connection ran every statement; a statement whose result changes from run to run, such as random(), randomblob() or datetime('now'), wrote other values)"
	case c.Order != workload.ReplayCommit:
		s += " (the transactions raced: --order commit replays them in their captured order)"
	}
	return s
}

// replayConnections counts the captured connections a replay ran (its
// workers that replay a stream; an idle one has none).
func replayConnections(rp *workload.Replay) int {
	n := 0
	for _, w := range rp.Workers {
		if w.Stream != 0 {
			n++
		}
	}
	return n
}

// replayMarkdown writes a replayed run's statements and lines as
// markdown.
func replayMarkdown(w *errWriter, r *result.Result, ph result.Phase) {
	w.printf("| statement | count | total | mean | p50 | p99 | max | errors | busy waits | diverged | fingerprint |\n|---|--:|--:|--:|--:|--:|--:|---|--:|--:|---|\n")
	for _, row := range replayRows(r, ph) {
		o := row.o
		w.printf("| %s | %d | %s | %s | %s | %s | %s | %s | %s | %d | %s |\n", o.Kind, o.Count, units.Micros(row.total),
			units.Micros(o.MeanMicros), units.Micros(o.P50Micros), statementP99(o), units.Micros(o.MaxMicros),
			errorText(o), busyWaits(o), o.Diverged, mdCode(shorten(row.fingerprint, 80)))
	}
	if c, ok := capturedRow(r.Plan.Replay); ok {
		w.printf("| %s | %s | %s | %s | %s | %s | %s | %s | | | %s |\n", c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7], capturedNote)
	}
	w.printf("\n")
	for _, line := range replayLines(r, ph) {
		w.printf("%s\n\n", line)
	}
}

// statementText returns the fingerprint of a replayed statement's kind
// in a suite of replays, shortened for a line, or "" when kind names no
// statement (the total, a figure of the whole run).
func statementText(s *result.Suite, kind string) string {
	for _, c := range s.Cells {
		for _, r := range c.Runs {
			if r.Plan.Replay == nil {
				continue
			}
			for _, k := range r.Plan.Replay.Kinds {
				if k.ID == kind {
					return shorten(k.Fingerprint, 100)
				}
			}
		}
	}
	return ""
}

// metricLabel names a metric in a table's head: a replayed statement's
// by its id and the start of its text ("q7da7727c (commit) p99"), any
// other as it is.
func metricLabel(s *result.Suite, m judge.Metric) string {
	text := statementText(s, m.Kind)
	if text == "" {
		return m.String()
	}
	return strings.TrimSpace(m.Kind + " (" + shorten(text, 24) + ") " + m.Stat)
}

// suiteStatements returns the statements a suite's metrics name by
// their fingerprints' ids, each once, in the metrics' order: id and text.
func suiteStatements(sum *judge.Summary) [][2]string {
	var legend [][2]string
	seen := map[string]bool{}
	for _, m := range sum.Metrics {
		if seen[m.Metric.Kind] {
			continue
		}
		seen[m.Metric.Kind] = true
		if text := statementText(sum.Suite, m.Metric.Kind); text != "" {
			legend = append(legend, [2]string{m.Metric.Kind, text})
		}
	}
	return legend
}

// versionLine names the SQLite library the application ran on when
// captured and the one the replay ran on, and, when they differ and
// statements diverged, that the version may be the cause: "" when the
// trace does not say (a capture by an older gobench).
func versionLine(r *result.Result, diverged int64) string {
	return capturedOnLine([]*result.Result{r}, diverged)
}

// suiteVersionLine is versionLine for a matrix of replays, naming each
// library and driver its cells replayed on: "" for no replay.
func suiteVersionLine(s *result.Suite) string {
	var runs []*result.Result
	var diverged int64
	for _, c := range s.Cells {
		for _, r := range c.Runs {
			if r.Plan.Replay == nil {
				return ""
			}
			runs = append(runs, r)
			for _, ph := range r.Phases {
				diverged += ph.Total.Diverged
			}
		}
	}
	return capturedOnLine(runs, diverged)
}

// capturedOnLine is the line of versionLine over replays of one trace.
func capturedOnLine(runs []*result.Result, diverged int64) string {
	if len(runs) == 0 || runs[0].Plan.Replay == nil {
		return ""
	}
	c := runs[0].Plan.Replay.Captured
	if c == nil || len(c.SQLiteVersions) == 0 {
		return ""
	}
	var on []string
	other := len(c.SQLiteVersions) > 1
	for _, r := range runs {
		replayed := r.Environment.StoreFact("sqlite_version")
		if replayed == "" {
			continue
		}
		other = other || c.SQLiteVersions[0] != replayed
		if text := fmt.Sprintf("%s (%s)", replayed, r.Plan.Driver); !slices.Contains(on, text) {
			on = append(on, text)
		}
	}
	if len(on) == 0 {
		return ""
	}
	line := fmt.Sprintf("SQLite: captured on %s, replayed on %s", strings.Join(c.SQLiteVersions, " and "), strings.Join(on, ", "))
	if diverged > 0 && other {
		line += ": another version can return other results for the same statements (sum() of REAL values is compensated since 3.43, for one), so some of the divergence may be the version's, not the replay's"
	}
	return line
}

// divergedLines names each kind of statement that diverged, with how
// many did, whether its text calls a function whose result changes from
// run to run, and an example.
func divergedLines(r *result.Result, ph result.Phase) []string {
	kinds := map[string]workload.ReplayKind{}
	for _, k := range r.Plan.Replay.Kinds {
		kinds[k.ID] = k
	}
	examples := map[string]workload.ReplayDivergence{}
	if r.Replay != nil {
		for _, ex := range r.Replay.Diverged {
			examples[ex.Kind] = ex
		}
	}
	var lines []string
	for _, o := range ph.Ops {
		if o.Diverged == 0 {
			continue
		}
		k := kinds[o.Kind]
		line := fmt.Sprintf("diverged %s: %d of %d", o.Kind, o.Diverged, o.Count)
		if k.NonDeterministic {
			line += " (non-deterministic: its text calls random(), datetime('now') or the like, whose result changes from run to run, whatever the order)"
		}
		if ex, ok := examples[o.Kind]; ok {
			line += " · e.g. " + exampleText(ex)
		} else {
			line += " · " + shorten(k.Fingerprint, 80)
		}
		lines = append(lines, line)
	}
	return lines
}

// exampleText says how one statement diverged: what it did against what
// it did when captured, its bound values, its text.
func exampleText(ex workload.ReplayDivergence) string {
	var s string
	switch ex.What {
	case "other changes":
		s = fmt.Sprintf("other changes: %d rows changed (%d captured)", ex.Changes, ex.CapturedChanges)
	case "another outcome":
		s = fmt.Sprintf("another outcome: %s (%s captured)", ex.Class, ex.CapturedClass)
	default:
		s = fmt.Sprintf("%s: %d %s (%d captured)", ex.What, ex.Rows, plural(int(ex.Rows), "row", "rows"), ex.CapturedRows)
	}
	if len(ex.Args) > 0 {
		s += " with (" + strings.Join(ex.Args, ", ") + ")"
	}
	return s + ": " + shorten(ex.SQL, 100)
}
