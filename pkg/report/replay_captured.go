package report

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/gobench/gobench/pkg/judge"
	"github.com/gobench/gobench/pkg/result"
	"github.com/gobench/gobench/pkg/units"
	"github.com/gobench/gobench/pkg/workload"
)

// A replay set beside the application's own run: the settings its cell
// ran with and where they came from (the trace's PRAGMAs, the flags), and
// the capture's own timing of its statements, a row "captured" of the
// statement table and of a suite's latency tables.

// replayRow is one statement's row: by its kind's figures.
type replayRow struct {
	o           result.OpStats
	fingerprint string
	total       float64 // µs
}

// replayRows returns a replayed run's statements, by total time.
func replayRows(r *result.Result, ph result.Phase) []replayRow {
	texts := map[string]string{}
	for _, k := range r.Plan.Replay.Kinds {
		texts[k.ID] = k.Fingerprint
	}
	rows := make([]replayRow, 0, len(ph.Ops))
	for _, o := range ph.Ops {
		rows = append(rows, replayRow{o: o, fingerprint: texts[o.Kind], total: o.MeanMicros * float64(o.Count)})
	}
	slices.SortStableFunc(rows, func(a, b replayRow) int { return cmp.Compare(b.total, a.total) })
	return rows
}

// capturedNote says what the captured row is.
const capturedNote = "the application's own run, as the trace timed it"

// capturedRow returns the captured row of a replayed run's statement
// table: the capture's count, total, mean, p50, p99, max and errors of
// every statement; false for a run of an older gobench.
func capturedRow(rp *workload.Replay) ([]string, bool) {
	c, ok := rp.Captured.Timing("total")
	if !ok {
		return nil, false
	}
	return []string{"captured", fmt.Sprint(c.Count), units.Micros(c.TotalMicros), units.Micros(c.MeanMicros),
		units.Micros(c.P50Micros), units.Micros(c.P99Micros), units.Micros(c.MaxMicros), fmt.Sprint(c.Errors)}, true
}

// capturedLines say where a replayed run's settings came from, which of
// the application's the run did not take, and how its statements' times
// compare with the capture's.
func capturedLines(r *result.Result, ph result.Phase) []string {
	rp := r.Plan.Replay
	c := rp.Captured
	if c == nil {
		return nil
	}
	var set, kept, not []string
	for _, s := range c.Settings {
		what := fmt.Sprintf("%s %s (%s, %d×", s.Pragma, s.Value, shorten(s.SQL, 50), s.Count)
		if s.Others > 0 {
			what += fmt.Sprintf("; %d other values less often", s.Others)
		}
		what += ")"
		switch {
		case s.NotApplied != "":
			not = append(not, what+": "+s.NotApplied)
		case s.Flag != "":
			set = append(set, fmt.Sprintf("%s %s from %s", s.Flag, s.Cell, what))
		default:
			kept = append(kept, what)
		}
	}
	head := "settings: as captured, the application's own"
	if !rp.AsCaptured {
		head = "settings: the flags given; the application's where none was given"
	}
	if len(set) == 0 {
		set = []string{"none set by a PRAGMA of the application's (SQLite's defaults, and gobench's busy timeout)"}
	}
	lines := []string{head + ": " + strings.Join(set, " · ")}
	if len(kept) > 0 {
		lines = append(lines, "settings the application's statements set again in every cell: "+strings.Join(kept, " · "))
	}
	for _, n := range not {
		lines = append(lines, "not applied: "+n)
	}
	return append(lines, capturedSpeed(r, ph))
}

// capturedSpeed compares a replayed run's statements with the capture's:
// the capture's own pace, and the mean time of every statement and of the
// three that took most time, each against the capture's.
func capturedSpeed(r *result.Result, ph result.Phase) string {
	rp := r.Plan.Replay
	c := rp.Captured
	d := time.Duration(rp.Duration)
	line := fmt.Sprintf("captured: %d statements in %s", c.Total.Count, units.Micros(float64(d)/1e3))
	if d > 0 {
		line += fmt.Sprintf(" (%s statements/s, %s committed tx/s, at the application's own pace)", units.Rate(float64(c.Total.Count)/d.Seconds()), units.Rate(float64(rp.Commits)/d.Seconds()))
	}
	var vs []string
	if ph.Total.Count > 0 && c.Total.MeanMicros > 0 {
		vs = append(vs, "every statement "+meanFactor(ph.Total.MeanMicros, c.Total.MeanMicros))
	}
	rows := 0
	for _, row := range replayRows(r, ph) {
		if rows == 3 {
			break
		}
		o := row.o
		if k, ok := c.Timing(o.Kind); ok && o.Count > 0 && k.MeanMicros > 0 {
			vs = append(vs, o.Kind+" "+meanFactor(o.MeanMicros, k.MeanMicros))
			rows++
		}
	}
	if len(vs) > 0 {
		line += "; this run's mean time against the capture's: " + strings.Join(vs, " · ")
	}
	return line
}

// meanFactor says how a replay's mean compares with the capture's: ×0.33
// (3.0× faster).
func meanFactor(replayed, captured float64) string {
	f := replayed / captured
	if ratio(f) == "1" || ratio(f) == "1.0" {
		return "×1.0 (as fast)"
	}
	if f < 1 {
		return fmt.Sprintf("×%s (%s× faster)", ratio(f), ratio(1/f))
	}
	return fmt.Sprintf("×%s (%s× slower)", ratio(f), ratio(f))
}

// capturedStat returns the capture's value of a suite's figure, when the
// figure is a latency statistic of a statement's or of the total's (µs):
// the value of the captured row of its table.
func capturedStat(s *result.Suite, m judge.Metric) (float64, bool) {
	var c *workload.ReplayCaptured
	for _, cell := range s.Cells {
		if rp := cell.Runs[0].Plan.Replay; rp != nil && rp.Captured != nil {
			c = rp.Captured
			break
		}
	}
	t, ok := c.Timing(m.Kind)
	if !ok {
		return 0, false
	}
	switch m.Stat {
	case "mean":
		return t.MeanMicros, true
	case "p50":
		return t.P50Micros, true
	case "p90":
		return t.P90Micros, true
	case "p99":
		return t.P99Micros, true
	case "max":
		return t.MaxMicros, true
	}
	return 0, false
}

// capturedLabels are the captured row's cells under a table's n setting
// columns.
func capturedLabels(n int) []string {
	l := make([]string, n)
	l[0] = "captured"
	for i := 1; i < n; i++ {
		l[i] = "–"
	}
	return l
}

// capturedCells are the captured row's cells under a suite table's
// statistics (one value: the capture is one run), its factor and errors.
func capturedCells(m judge.MetricSummary, v float64, single, errs bool) []string {
	row := []string{m.Metric.Format(v)}
	if !single {
		row = append(row, "–", "–", "–")
	}
	row = append(row, capturedNote)
	if errs {
		row = append(row, "–")
	}
	return row
}

// ratio writes a factor to two significant digits, or whole from 100 up.
func ratio(f float64) string {
	if f >= 100 {
		return fmt.Sprintf("%.0f", f)
	}
	return fmt.Sprintf("%.2g", f)
}
