package report

import (
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/gobench/gobench/pkg/bytesize"
	"github.com/gobench/gobench/pkg/result"
)

// ErrThreshold marks a failed gate: an --expect that did not hold, or a
// regression beyond --max-regression. Commands exit with a distinct code
// for it.
var ErrThreshold = errors.New("threshold not met")

// ThresholdError lists the gates that failed, one line each.
type ThresholdError struct {
	Failures []string
}

// Error returns the failures, one per line.
func (e *ThresholdError) Error() string { return strings.Join(e.Failures, "\n") }

// Is makes errors.Is(err, ErrThreshold) true.
func (e *ThresholdError) Is(target error) bool { return target == ErrThreshold }

// ComparisonRow is one metric of one cell, old against new.
type ComparisonRow struct {
	Cell      string `json:"cell"`
	Metric    string `json:"metric"`
	Unit      string `json:"unit"`
	Direction string `json:"direction"`
	Old       Stats  `json:"old"`
	New       Stats  `json:"new"`
	// Delta is new over old, minus one: +0.05 is 5% more.
	Delta float64 `json:"delta"`
	// P and Significant come from a Mann-Whitney U test over the repeats.
	P           float64 `json:"p"`
	Significant bool    `json:"significant"`
	Note        string  `json:"note,omitempty"`
	// Worse says the change goes the wrong way (ignoring significance);
	// Regression is a significant change the wrong way beyond the
	// threshold.
	Worse      bool `json:"worse"`
	Regression bool `json:"regression"`
	metric     Metric
}

// Comparison is two result files compared cell by cell.
type Comparison struct {
	OldName string `json:"old"`
	NewName string `json:"new"`
	// MaxRegression is the threshold, as a fraction (0.1 for 10%); zero
	// means no gate.
	MaxRegression float64         `json:"max_regression"`
	Rows          []ComparisonRow `json:"rows"`
	// Unmatched lists cells only one of the files has.
	Unmatched []string `json:"unmatched,omitempty"`
	// Warnings lists differences of environment between the files.
	Warnings []string `json:"warnings,omitempty"`
}

// cellKey is a cell's full set of matrix settings: cells of two files
// match when every setting agrees, not only the ones each file varied.
func cellKey(c result.Cell) string { return result.RunSettings(c.Runs[0]).String() }

// Compare matches the cells of old and new by their settings and compares
// each metric over their repeats. Both must be of the same workload.
func Compare(oldName string, old *result.Suite, newName string, new *result.Suite, metrics []Metric, maxRegression float64) (*Comparison, error) {
	if err := result.SameWorkload(old.Cells[0].Runs[0], new.Cells[0].Runs[0]); err != nil {
		return nil, fmt.Errorf("%s and %s ran %w", oldName, newName, err)
	}
	c := &Comparison{OldName: oldName, NewName: newName, MaxRegression: maxRegression}
	newCells := map[string]result.Cell{}
	for _, nc := range new.Cells {
		newCells[cellKey(nc)] = nc
	}
	matched := map[string]bool{}
	for _, oc := range old.Cells {
		key := cellKey(oc)
		nc, ok := newCells[key]
		if !ok {
			c.Unmatched = append(c.Unmatched, fmt.Sprintf("%s only in %s", key, oldName))
			continue
		}
		matched[key] = true
		for _, m := range metrics {
			row, ok := compareCell(m, oc, nc, maxRegression)
			if ok {
				row.Cell = oc.Settings.String()
				if len(oc.Settings) == 0 {
					row.Cell = "(all)"
				}
				c.Rows = append(c.Rows, row)
			}
		}
	}
	for _, nc := range new.Cells {
		if !matched[cellKey(nc)] {
			c.Unmatched = append(c.Unmatched, fmt.Sprintf("%s only in %s", cellKey(nc), newName))
		}
	}
	if len(c.Rows) == 0 {
		return nil, fmt.Errorf("%s and %s have no cell in common (%s)", oldName, newName, strings.Join(c.Unmatched, "; "))
	}
	c.Warnings = environmentDiffs(old.Cells[0].Runs[0], new.Cells[0].Runs[0])
	return c, nil
}

func values(m Metric, runs []*result.Result) []float64 {
	var vs []float64
	for _, r := range runs {
		if v, ok := m.Value(r); ok {
			vs = append(vs, v)
		}
	}
	return vs
}

func compareCell(m Metric, oc, nc result.Cell, maxRegression float64) (ComparisonRow, bool) {
	ov, nv := values(m, oc.Runs), values(m, nc.Runs)
	if len(ov) == 0 || len(nv) == 0 {
		return ComparisonRow{}, false
	}
	row := ComparisonRow{Metric: m.String(), Unit: m.Unit(), Direction: m.Direction(), Old: statsOf(ov), New: statsOf(nv), metric: m}
	f := compareStats(m, row.Old, row.New)
	row.P, row.Significant, row.Note = f.P, f.Significant, f.Note
	if row.Old.Mean != 0 {
		row.Delta = row.New.Mean/row.Old.Mean - 1
	}
	row.Worse = row.New.Mean != row.Old.Mean && !f.Better
	row.Regression = maxRegression > 0 && row.Worse && row.Significant && math.Abs(row.Delta) > maxRegression
	return row, true
}

// Regressions returns a ThresholdError naming every regression beyond the
// threshold, or nil.
func (c *Comparison) Regressions() error {
	var fails []string
	for _, r := range c.Rows {
		if r.Regression {
			fails = append(fails, fmt.Sprintf("regression: %s %s: %s → %s (%+.1f%%, %s, p=%.3f) is beyond the %.0f%% allowed",
				r.Cell, r.Metric, r.metric.Format(r.Old.Mean), r.metric.Format(r.New.Mean), 100*r.Delta, r.Direction, r.P, 100*c.MaxRegression))
		}
	}
	if fails == nil {
		return nil
	}
	return &ThresholdError{Failures: fails}
}

// environmentDiffs names what differs between the machines and builds of
// two runs: numbers from different environments may not compare.
func environmentDiffs(a, b *result.Result) []string {
	var out []string
	diff := func(what, x, y string) {
		if x != y {
			out = append(out, fmt.Sprintf("%s differs: %s vs %s", what, x, y))
		}
	}
	// known compares a fact an older result may lack only when both have it.
	known := func(what, x, y string) {
		if x != "" && y != "" {
			diff(what, x, y)
		}
	}
	ea, eb := a.Environment, b.Environment
	diff("OS/arch", ea.OS+"/"+ea.Arch, eb.OS+"/"+eb.Arch)
	known("kernel", ea.Kernel, eb.Kernel)
	known("CPU model", ea.CPUModel, eb.CPUModel)
	diff("CPU count", fmt.Sprint(ea.CPUs), fmt.Sprint(eb.CPUs))
	known("CPU governor", ea.Governor, eb.Governor)
	if ea.MemoryBytes > 0 && eb.MemoryBytes > 0 {
		diff("memory", bytesize.Units{}.Round(ea.MemoryBytes), bytesize.Units{}.Round(eb.MemoryBytes))
	}
	diff("filesystem", ea.Filesystem, eb.Filesystem)
	known("mount options", ea.MountOptions, eb.MountOptions)
	for _, f := range []string{"driver", "sqlite_version", "page_size", "cache_size", "mmap_size", "wal_autocheckpoint", "lmdb_version"} {
		known(strings.ReplaceAll(f, "_", " "), ea.StoreFact(f), eb.StoreFact(f))
	}
	if x, y := ea.StoreFact("compile_options"), eb.StoreFact("compile_options"); x != "" && y != "" && x != y {
		xs, ys := strings.Fields(x), strings.Fields(y)
		var onlyOld, onlyNew []string
		for _, o := range xs {
			if !slices.Contains(ys, o) {
				onlyOld = append(onlyOld, o)
			}
		}
		for _, o := range ys {
			if !slices.Contains(xs, o) {
				onlyNew = append(onlyNew, o)
			}
		}
		out = append(out, fmt.Sprintf("SQLite compile options differ: only in the old: %s; only in the new: %s", orNone(onlyOld), orNone(onlyNew)))
	}
	diff("gobench version", a.Tool.Version, b.Tool.Version)
	diff("Go version", a.Tool.GoVersion, b.Tool.GoVersion)
	return out
}

func orNone(list []string) string {
	if len(list) == 0 {
		return "none"
	}
	return strings.Join(list, " ")
}

// comparisonText writes the comparison as a table: per cell and metric,
// old and new mean ± relative stddev, the change and its significance.
func comparisonText(w io.Writer, c *Comparison) error {
	ew := &errWriter{w: w}
	ew.printf("gobench compare · old %s · new %s · Mann-Whitney U test over repeats, α=%.2f", c.OldName, c.NewName, alpha)
	if c.MaxRegression > 0 {
		ew.printf(" · regression threshold %.0f%%", 100*c.MaxRegression)
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
	fmt.Fprintf(tw, "cell\tmetric\told\tnew\tdelta\tsignificance\n")
	for _, r := range c.Rows {
		fmt.Fprintf(tw, "%s\t%s (%s)\t%s\t%s\t%s\t%s\n", r.Cell, r.Metric, arrow(r.metric),
			meanSD(r.metric, r.Old), meanSD(r.metric, r.New), deltaText(r), significance(r))
	}
	if err := tw.Flush(); err != nil && ew.err == nil {
		ew.err = err
	}
	return ew.err
}

func arrow(m Metric) string {
	if m.HigherIsBetter() {
		return "↑ better"
	}
	return "↓ better"
}

// meanSD renders "55741 ± 2% (n=5)".
func meanSD(m Metric, s Stats) string {
	if s.N < 2 {
		return fmt.Sprintf("%s (n=%d)", m.Format(s.Mean), s.N)
	}
	return fmt.Sprintf("%s ± %.0f%% (n=%d)", m.Format(s.Mean), 100*s.RelStdDev(), s.N)
}

func deltaText(r ComparisonRow) string {
	if !r.Significant {
		return "~"
	}
	s := fmt.Sprintf("%+.1f%%", 100*r.Delta)
	if r.Regression {
		return s + " REGRESSION"
	}
	if r.Worse {
		return s + " worse"
	}
	return s + " better"
}

func significance(r ComparisonRow) string {
	if r.Note != "" {
		return fmt.Sprintf("p=%.3f (%s)", r.P, r.Note)
	}
	return fmt.Sprintf("p=%.3f", r.P)
}

// comparisonJSON writes the comparison as JSON.
func comparisonJSON(w io.Writer, c *Comparison) error { return writeJSON(w, c) }
