package report

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/gobench/gobench/pkg/judge"
	"github.com/gobench/gobench/pkg/result"
)

func f64(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }
func i64(v int64) string   { return strconv.FormatInt(v, 10) }

// CSV values carry the precision the text report shows: rates whole from
// 100 up and to a tenth below (as Rate), latencies and the other figures
// to three significant digits (as Micros and sig3).
func csvRate(v float64) string {
	if v >= 100 {
		return f64(math.Round(v))
	}
	return f64(roundTenth(v))
}

func csvSig3(v float64) string {
	digits := 3
	if math.Abs(v) < 0.01 {
		digits = 2 // no value runs past four decimals
	}
	r, _ := strconv.ParseFloat(strconv.FormatFloat(v, 'g', digits, 64), 64)
	return f64(r)
}

// csvMetric rounds a value of metric m as the text report shows it.
func csvMetric(m judge.Metric, v float64) string {
	if m.Figure().Scale == judge.Rate {
		return csvRate(v)
	}
	return csvSig3(v)
}

// runCSV writes one row per op kind of each phase of a run, with a header:
// its latency statistics are stats (mean_us, p50_us … p999_us, max_us
// unless asked), each column named as csvStatColumn names it.
func runCSV(w io.Writer, r *result.Result, stats []*judge.Figure) error {
	stats = statsOr(stats, csvStats)
	cw := newCSVWriter(w)
	var statCols []string
	for _, f := range stats {
		statCols = append(statCols, csvStatColumn(f))
	}
	_ = cw.Write(append(append(append([]string{"phase", "kind", "count", "not_found", "errors", "busy", "locked", "constraint", "io", "full", "other", "open_tx",
		"ops_per_sec"}, statCols...), "service_p50_us", "service_p99_us", "service_max_us", "lag_p99_us", "lag_max_us", "late", "skipped",
		"busy_retries", "ops_retried", "gave_up", "wait_p50_us", "wait_p99_us", "wait_max_us", "busy_begins", "busy_commits", "script",
		"syncs_per_commit", "bytes_per_commit", "crash_states", "crash_corrupt", "crash_lossy", "crash_max_lost", "crash_max_lost_age_us"), shardHead(r.Plan.Shard != nil)...))
	durability := []string{"", "", "", "", ""}
	if d := r.Durability; d != nil {
		durability = []string{strconv.Itoa(d.States), strconv.Itoa(d.Corrupt), strconv.Itoa(d.Lossy), i64(d.MaxLost), csvSig3(d.MaxLostAgeMicros)}
		if d.NotChecked != "" { // not checked: no count, not zero
			durability[2], durability[3], durability[4] = "", "", ""
		}
	}
	for _, ph := range r.Phases {
		io := []string{"", ""}
		if pio := ph.IO; pio != nil && pio.Commits > 0 {
			io = []string{csvSig3(pio.SyncsPerCommit), csvSig3(pio.BytesPerCommit)}
		}
		for _, o := range append(append([]result.OpStats{}, ph.Ops...), ph.Total) {
			e := o.Errors
			row := []string{ph.Name, o.Kind, i64(o.Count), i64(o.NotFound), i64(e.Total), i64(e.Busy), i64(e.Locked), i64(e.Constraint), i64(e.IO), i64(e.Full), i64(e.Other), i64(e.OpenTx),
				csvRate(o.OpsPerSec)}
			for _, f := range stats {
				v, ok := f.Latency(o.Latency)
				row = append(row, map[bool]string{true: csvSig3(v)}[ok]) // empty where there is none, never zero
			}
			if sv, lg := o.Service, o.Lag; sv != nil && lg != nil {
				row = append(row, csvSig3(sv.P50Micros), csvSig3(sv.P99Micros), csvSig3(sv.MaxMicros), csvSig3(lg.P99Micros), csvSig3(lg.MaxMicros), i64(o.Late), i64(o.Skipped))
			} else {
				row = append(row, "", "", "", "", "", "", "")
			}
			if lw := o.LockWaits; lw != nil {
				row = append(row, i64(lw.Retries), i64(lw.OpsRetried), i64(lw.GaveUp), csvSig3(lw.Wait.P50Micros), csvSig3(lw.Wait.P99Micros), csvSig3(lw.Wait.MaxMicros))
			} else {
				row = append(row, "", "", "", "", "", "")
			}
			row = append(row, i64(o.BusyBegins), i64(o.BusyCommits), i64(e.Script))
			row = append(append(row, io...), durability...)
			if sh := r.Plan.Shard; sh != nil {
				row = append(row, sh.String()+" workers")
			}
			_ = cw.Write(row)
		}
	}
	cw.Flush()
	return cw.Error()
}

// csvStatColumn names a latency statistic's column: its name without the
// point of a percentile, in µs (mean_us, p999_us, p9999_us).
func csvStatColumn(f *judge.Figure) string {
	return strings.ReplaceAll(f.Name, ".", "") + "_us"
}

// suiteCSV writes one row per metric and cell: the cell's varied settings,
// its statistics over repeats, its factor against the baseline (a ratio
// of medians), why it has no value where it has none (the statistics then
// empty, never zero), and its failed ops over every repeat, by class.
func suiteCSV(w io.Writer, sum *judge.Summary) error {
	cw := newCSVWriter(w)
	head := []string{"metric", "unit", "direction"}
	head = append(head, sum.Suite.Varied...)
	head = append(head, "n", "mean", "stddev", "median", "min", "max", "baseline", "ratio", "better", "p", "significant", "missing")
	head = append(head, errorColumns...)
	head = append(head, shardHead(sum.Suite.Shard != nil)...)
	_ = cw.Write(head)
	for _, m := range sum.Metrics {
		for i, c := range m.Cells {
			row := []string{m.Metric.String(), m.Unit, m.Direction}
			for _, st := range c.Settings {
				row = append(row, st.Value)
			}
			s := c.Stats
			mv := func(v float64) string { return csvMetric(m.Metric, v) }
			if s.N == 0 {
				row = append(row, "0", "", "", "", "", "")
			} else {
				row = append(row, strconv.Itoa(s.N), mv(s.Mean), mv(s.StdDev), mv(s.Median), mv(s.Min), mv(s.Max))
			}
			row = append(row, strconv.FormatBool(c.Settings.String() == sum.Suite.Baseline.String()))
			if f := c.Factor; f != nil {
				better := strconv.FormatBool(f.Better)
				if f.Neutral {
					better = ""
				}
				p, sig := csvSig3(f.P), strconv.FormatBool(f.Significant)
				if f.Note != "" {
					p = "" // no test could tell: no p to read
				}
				row = append(row, csvSig3(f.Ratio), better, p, sig)
			} else {
				row = append(row, "", "", "", "")
			}
			row = append(row, c.Missing)
			row = append(row, errorCells(result.CellErrors(sum.Suite.Cells[i]))...)
			if sh := sum.Suite.Shard; sh != nil {
				row = append(row, fmt.Sprintf("%d/%d cells", sh.Index, sh.Count))
			}
			_ = cw.Write(row)
		}
	}
	cw.Flush()
	return cw.Error()
}

// shardHead is the last column of a CSV of a shard, "shard" (its rows
// say "1/2 cells" or "1/2 workers": a shard of a job's runs or of a
// run's workers), and none for the whole.
func shardHead(shard bool) []string {
	if shard {
		return []string{"shard"}
	}
	return nil
}

// errorColumns name errorCells' columns: failed ops, then each class.
var errorColumns = []string{"errors", "busy", "locked", "constraint", "io", "full", "other", "open_tx", "script"}

// errorCells are failed ops by class, as errorColumns name them.
func errorCells(e result.Errors) []string {
	return []string{i64(e.Total), i64(e.Busy), i64(e.Locked), i64(e.Constraint), i64(e.IO), i64(e.Full), i64(e.Other), i64(e.OpenTx), i64(e.Script)}
}

// comparisonCSV writes one row per cell and metric of a comparison.
func comparisonCSV(w io.Writer, c *judge.Comparison) error {
	cw := newCSVWriter(w)
	_ = cw.Write([]string{"cell", "metric", "unit", "direction", "old_n", "old_median", "old_min", "old_max", "new_n", "new_median", "new_min", "new_max",
		"delta", "spread", "apart", "gated", "why", "p", "regression"})
	for _, r := range c.Rows {
		mv := func(v float64) string { return csvMetric(r.Metric, v) }
		_ = cw.Write([]string{r.Cell, r.Metric.String(), r.Unit, r.Direction, strconv.Itoa(r.Old.N), mv(r.Old.Median), mv(r.Old.Min), mv(r.Old.Max),
			strconv.Itoa(r.New.N), mv(r.New.Median), mv(r.New.Min), mv(r.New.Max), csvSig3(r.Delta), csvSig3(r.Spread),
			strconv.FormatBool(r.Apart), strconv.FormatBool(r.Gated), r.Why, csvSig3(r.P), strconv.FormatBool(r.Regression)})
	}
	cw.Flush()
	return cw.Error()
}
