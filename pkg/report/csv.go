package report

import (
	"encoding/csv"
	"io"
	"strconv"

	"github.com/gobench/gobench/pkg/result"
)

func f64(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }
func i64(v int64) string   { return strconv.FormatInt(v, 10) }

// runCSV writes one row per op kind of each phase of a run, with a header.
func runCSV(w io.Writer, r *result.Result) error {
	cw := csv.NewWriter(w)
	_ = cw.Write([]string{"phase", "kind", "count", "not_found", "errors", "busy", "locked", "constraint", "io", "full", "other", "open_tx",
		"ops_per_sec", "mean_us", "p50_us", "p90_us", "p99_us", "p999_us", "max_us",
		"service_p50_us", "service_p99_us", "service_max_us", "lag_p99_us", "lag_max_us", "late", "skipped",
		"busy_retries", "ops_retried", "gave_up", "wait_p50_us", "wait_p99_us", "wait_max_us", "busy_begins", "busy_commits"})
	for _, ph := range r.Phases {
		for _, o := range append(append([]result.OpStats{}, ph.Ops...), ph.Total) {
			e := o.Errors
			row := []string{ph.Name, o.Kind, i64(o.Count), i64(o.NotFound), i64(e.Total), i64(e.Busy), i64(e.Locked), i64(e.Constraint), i64(e.IO), i64(e.Full), i64(e.Other), i64(e.OpenTx),
				f64(o.OpsPerSec), f64(o.MeanMicros), f64(o.P50Micros), f64(o.P90Micros), f64(o.P99Micros), f64(o.P999Micros), f64(o.MaxMicros)}
			if sv, lg := o.Service, o.Lag; sv != nil && lg != nil {
				row = append(row, f64(sv.P50Micros), f64(sv.P99Micros), f64(sv.MaxMicros), f64(lg.P99Micros), f64(lg.MaxMicros), i64(o.Late), i64(o.Skipped))
			} else {
				row = append(row, "", "", "", "", "", "", "")
			}
			if lw := o.LockWaits; lw != nil {
				row = append(row, i64(lw.Retries), i64(lw.OpsRetried), i64(lw.GaveUp), f64(lw.Wait.P50Micros), f64(lw.Wait.P99Micros), f64(lw.Wait.MaxMicros))
			} else {
				row = append(row, "", "", "", "", "", "")
			}
			row = append(row, i64(o.BusyBegins), i64(o.BusyCommits))
			_ = cw.Write(row)
		}
	}
	cw.Flush()
	return cw.Error()
}

// suiteCSV writes one row per metric and cell: the cell's varied settings,
// its statistics over repeats and its factor against the baseline.
func suiteCSV(w io.Writer, sum *Summary) error {
	cw := csv.NewWriter(w)
	head := []string{"metric", "unit", "direction"}
	head = append(head, sum.Suite.Varied...)
	head = append(head, "n", "mean", "stddev", "median", "min", "max", "baseline", "ratio", "better", "p", "significant")
	_ = cw.Write(head)
	for _, m := range sum.Metrics {
		for _, c := range m.Cells {
			row := []string{m.Metric, m.Unit, m.Direction}
			for _, st := range c.Settings {
				row = append(row, st.Value)
			}
			s := c.Stats
			row = append(row, strconv.Itoa(s.N), f64(s.Mean), f64(s.StdDev), f64(s.Median), f64(s.Min), f64(s.Max),
				strconv.FormatBool(c.Settings.String() == sum.Suite.Baseline.String()))
			if f := c.Factor; f != nil {
				row = append(row, f64(f.Ratio), strconv.FormatBool(f.Better), f64(f.P), strconv.FormatBool(f.Significant))
			} else {
				row = append(row, "", "", "", "")
			}
			_ = cw.Write(row)
		}
	}
	cw.Flush()
	return cw.Error()
}

// comparisonCSV writes one row per cell and metric of a comparison.
func comparisonCSV(w io.Writer, c *Comparison) error {
	cw := csv.NewWriter(w)
	_ = cw.Write([]string{"cell", "metric", "unit", "direction", "old_n", "old_mean", "old_stddev", "new_n", "new_mean", "new_stddev", "delta", "p", "significant", "regression"})
	for _, r := range c.Rows {
		_ = cw.Write([]string{r.Cell, r.Metric, r.Unit, r.Direction, strconv.Itoa(r.Old.N), f64(r.Old.Mean), f64(r.Old.StdDev),
			strconv.Itoa(r.New.N), f64(r.New.Mean), f64(r.New.StdDev), f64(r.Delta), f64(r.P), strconv.FormatBool(r.Significant), strconv.FormatBool(r.Regression)})
	}
	cw.Flush()
	return cw.Error()
}
