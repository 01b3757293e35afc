package judge

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/gobench/gobench/pkg/bytesize"
	"github.com/gobench/gobench/pkg/result"
	"github.com/gobench/gobench/pkg/store"
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
	Metric    Metric `json:"metric"`
	Unit      string `json:"unit"`
	Direction string `json:"direction"`
	Old       Stats  `json:"old"`
	New       Stats  `json:"new"`
	// Delta is the new median over the old, minus one: +0.05 is 5% more.
	Delta float64 `json:"delta"`
	// Spread is the noise a change must exceed: the larger of the two
	// files' ranges over their repeats ((max - min) / median).
	Spread float64 `json:"spread"`
	// Apart says every repeat of one file lies beyond every repeat of the
	// other: the ranges do not overlap.
	Apart bool `json:"apart"`
	// Gated says the row may fail the comparison; Why says why it may not
	// (too few repeats to measure noise, too few samples under a tail
	// percentile).
	Gated bool   `json:"gated"`
	Why   string `json:"why,omitempty"`
	// P and Significant come from a Mann-Whitney U test over the repeats.
	// They hold for repeats interleaved in one invocation; between
	// separate invocations drift reads as significant, so they are shown
	// and never gate.
	P           float64 `json:"p"`
	Significant bool    `json:"significant"`
	// Worse says the median moved the wrong way; Regression that the row
	// is a regression (Outcome).
	Worse      bool `json:"worse"`
	Regression bool `json:"regression"`
	// Outcome is the row's verdict: OutcomeRegression, OutcomePass or
	// OutcomeInconclusive; "" for a row shown and not judged (a default
	// metric that cannot be, or no threshold). Why says why a row was not
	// judged or could not decide, and what would decide it.
	Outcome string `json:"outcome,omitempty"`
	// Low, High and Confidence are the interval of the ratio new/old that
	// an interleaved comparison judged (see RatioInterval); zero between
	// separate invocations, which are judged on medians and ranges.
	Low        float64 `json:"low,omitempty"`
	High       float64 `json:"high,omitempty"`
	Confidence float64 `json:"confidence,omitempty"`
	// quantile says the row is a percentile read from runs of too few
	// ops for the ops rule: it is judged on its runs' quantile intervals
	// too (see gateable).
	quantile bool
	// PWorse is the one-sided p-value that the new repeats are worse than
	// the old (interleaved: worse by more than the threshold), the
	// Mann-Whitney U test's (see pWorse); HolmLimit the bound Holm's
	// procedure held it to among the rows judged (see Comparison.Holm).
	// A row its own rule calls a regression stays one only when PWorse is
	// within HolmLimit, and every smaller p-value was within its own.
	PWorse    float64 `json:"p_worse,omitempty"`
	HolmLimit float64 `json:"holm_limit,omitempty"`
	// tested says the row's rule ran and computed PWorse; a row judged
	// without it (inconclusive before any test) enters Holm's family
	// with p 1.
	tested bool
}

// Judged says the row was judged: it has a verdict (Outcome), where a row
// only shown has none. The report's tally counts these rows, and Holm's
// family is made of exactly them.
func (r ComparisonRow) Judged() bool { return r.Outcome != "" }

// The outcomes of a comparison and of its rows: a gate's three verdicts
// (result.OutcomePass, OutcomeFail, OutcomeInconclusive), one vocabulary,
// where a comparison's failure is named for what it found, a regression.
const (
	OutcomeRegression   = "regression" // a comparison's result.OutcomeFail
	OutcomePass         = result.OutcomePass
	OutcomeInconclusive = result.OutcomeInconclusive
)

// Comparison is two result files compared cell by cell.
type Comparison struct {
	OldName string `json:"old"`
	NewName string `json:"new"`
	// MaxRegression is the threshold, as a fraction (0.1 for 10%); zero
	// means no verdict. See Compare for the rule.
	MaxRegression float64 `json:"max_regression"`
	// Interleaved says the files' runs alternated on one machine (gobench
	// ab), and the rows were judged on intervals; otherwise they are two
	// invocations (see Compare).
	Interleaved bool `json:"interleaved,omitempty"`
	// Differs says how the workloads' inputs differ where the comparison
	// was asked to let them (CompareOptions.Differ): "schema: base.sql
	// (sha256 …) vs indexed.sql (sha256 …)"; "" when they do not.
	Differs string          `json:"differs,omitempty"`
	Rows    []ComparisonRow `json:"rows"`
	// Machine is how the machine's calibration moved between the files;
	// nil when either was not calibrated.
	Machine *MachineShift `json:"machine,omitempty"`
	// Outcome is the comparison's verdict: a regression when a row is
	// one; else inconclusive when the machine changed or a judged row
	// could not decide; else pass. "" without a threshold.
	Outcome string `json:"outcome,omitempty"`
	// Unmatched lists cells only one of the files has.
	Unmatched []string `json:"unmatched,omitempty"`
	// Warnings lists differences of environment between the files.
	Warnings []string `json:"warnings,omitempty"`
	// Holm is how the regressions were held to a family-wise false-alarm
	// rate over every row judged; nil when no row was judged.
	Holm *HolmSummary `json:"holm,omitempty"`
}

// CompareOptions say how two files are compared.
type CompareOptions struct {
	// MaxRegression is the threshold, as a fraction: a change the wrong
	// way beyond it is a regression. Zero reports without verdicts.
	MaxRegression float64
	// Interleaved says the files' runs alternated on one machine (ABBA,
	// gobench ab): their repeats are exchangeable, and each row is judged
	// on the interval of the ratio as a gate is. Otherwise they are two
	// invocations and the range rule and the machine check apply.
	Interleaved bool
	// Explicit says the metrics were asked for by name: a row that cannot
	// be judged is inconclusive, not merely shown.
	Explicit bool
	// Differ names the inputs of the workload (result.Inputs: the schema,
	// the scripts) that may differ between the files: the change whose
	// effect is the question. Other differences of workload are refused.
	Differ []string
}

// cellKey is a cell's full set of matrix settings: cells of two files
// match when every setting agrees, not only the ones each file varied.
func cellKey(c result.Cell) string { return result.RunSettings(c.Runs[0]).String() }

// Compare matches the cells of old and new by their settings and compares
// each metric over their repeats. Both must be of the same workload.
//
// Two result files are usually two invocations, and the machine drifts
// between them more than between the repeats of one (on the test machine,
// medians of one setting ran from 44k to 64k ops/s over 20 invocations
// while each invocation's repeats agreed within a few percent): a rank
// test over the repeats reads that drift as a change. So between
// invocations a row is judged on medians and ranges (judgeSeparate), and
// throughput and latency rows are not judged at all when the machine's
// calibration moved more than the comparison can resolve (see
// MachineShift), and CPU per op is judged only when the calibration says
// the machine held (machineHeld). Interleaved files (o.Interleaved) are judged as gates
// are, on the interval of the ratio (judgeInterleaved). Either way a row
// must be one that can be judged: 3 repeats a side, and for a percentile
// q at least 10/(1-q) ops of its kind a run (p99 needs 1,000, p99.9
// 10,000; max, one op, never). The rank test's p is reported beside.
//
// Each cell has a dozen rows, each judged on its own rule at a one-sided
// 5%: over them all, an A/A pair would be called a regression far more
// often than one time in twenty. So a regression a row's rule calls must
// also pass Holm's step-down procedure over every row judged, at a
// family-wise rate of FamilyAlpha (see Comparison.holm); passes are left
// as they are.
func Compare(oldName string, old *result.Suite, newName string, new *result.Suite, metrics []Metric, o CompareOptions) (*Comparison, error) {
	differs, err := result.DifferentInputs(old.Cells[0].Runs[0], new.Cells[0].Runs[0], o.Differ)
	if err != nil {
		return nil, fmt.Errorf("%s and %s ran %w", oldName, newName, err)
	}
	c := &Comparison{OldName: oldName, NewName: newName, MaxRegression: o.MaxRegression, Interleaved: o.Interleaved, Differs: differs}
	c.Machine = machineShift(old, new, o.MaxRegression)
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
			row, ok := compareCell(m, oc, nc)
			if ok {
				row.Cell = oc.Settings.String()
				o.judge(&row, m, oc, nc, c.Machine)
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
	if c.Machine == nil && !o.Interleaved {
		c.Warnings = append(c.Warnings, "the machine was not calibrated in both files (results of an older gobench, or --calibrate=false): a change of the machine cannot be told from a change of the code")
	}
	c.holm()
	c.Outcome = c.outcome(o)
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

// compareCell sets out one metric of a cell, old against new: the
// statistics, the change, the noise and whether the ranges are apart; the
// verdict is CompareOptions.judge's.
func compareCell(m Metric, oc, nc result.Cell) (ComparisonRow, bool) {
	ov, nv := values(m, oc.Runs), values(m, nc.Runs)
	if len(ov) == 0 || len(nv) == 0 {
		return ComparisonRow{}, false
	}
	row := ComparisonRow{Metric: m, Unit: m.Unit(), Direction: m.Direction(), Old: StatsOf(ov), New: StatsOf(nv)}
	f := compareStats(m, row.Old, row.New)
	row.P, row.Significant = f.P, f.Significant
	if row.Old.Median != 0 {
		row.Delta = row.New.Median/row.Old.Median - 1
	}
	row.Spread = max(relRange(row.Old), relRange(row.New))
	row.Apart = row.New.Min > row.Old.Max || row.New.Max < row.Old.Min
	if m.HigherIsBetter() {
		row.Worse = row.New.Median < row.Old.Median
	} else {
		row.Worse = row.New.Median > row.Old.Median
	}
	row.Why, row.quantile = gateable(m, oc, nc)
	if m.Neutral() {
		row.Worse, row.Why = false, "neither way is better: shown, not judged"
	}
	row.Gated = row.Why == ""
	return row, true
}

// relRange is a sample's range relative to its median.
func relRange(s Stats) float64 {
	if s.Median == 0 {
		return 0
	}
	return (s.Max - s.Min) / math.Abs(s.Median)
}

// minRepeats is the fewest repeats a side that measure a file's noise.
const minRepeats = 3

// gateable says why a row cannot gate, or "": too few repeats, or too few
// ops under a tail percentile (q needs 10/(1-q) of them in every run) in
// runs recorded without their histograms. Runs with histograms and too
// few ops gate on their quantile intervals as well (quantile): the row
// may then decide only as far as those intervals do.
func gateable(m Metric, oc, nc result.Cell) (why string, quantile bool) {
	if n := min(len(oc.Runs), len(nc.Runs)); n < minRepeats {
		return fmt.Sprintf("%d repeats: %d a side measure the noise", n, minRepeats), false
	}
	f := m.Figure()
	switch {
	case !f.PerKind || f.Quantile == 0:
		return "", false
	case f.Quantile == 100:
		return "the max is one op", false
	}
	need := samplesFor(f.Quantile)
	fewest := int64(math.MaxInt64)
	for _, r := range append(slices.Clone(oc.Runs), nc.Runs...) {
		fewest = min(fewest, opCount(r, m.Kind))
	}
	switch {
	case fewest >= need:
		return "", false
	case hasHistograms(m, []result.Cell{oc, nc}):
		return "", true
	}
	why, _, _, _ = sampleShort(m, []result.Cell{oc, nc}) // the words suite tables give
	return why, false
}

// opCount is the number of ops of kind (or of all, for "total") in a
// run's first phase.
func opCount(r *result.Result, kind string) int64 {
	if len(r.Phases) == 0 {
		return 0
	}
	if kind == "total" {
		return r.Phases[0].Total.Count
	}
	o, _ := r.Phases[0].Op(kind)
	return o.Count
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
	known("driver", ea.StoreFact("driver"), eb.StoreFact("driver"))
	// Every engine's version, by the fact each names it in
	// (store.IsVersionFact), then SQLite's settings that decide its speed.
	for _, f := range ea.Store {
		if store.IsVersionFact(f.Name) {
			known(strings.ReplaceAll(f.Name, "_", " "), f.Value, eb.StoreFact(f.Name))
		}
	}
	for _, f := range []string{"page_size", "cache_size", "mmap_size", "wal_autocheckpoint"} {
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
	diff("tracing (--crash records every write: its speeds are a traced run's)", traced(a), traced(b))
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

// traced says whether a run recorded its I/O for --crash.
func traced(r *result.Result) string {
	if r.Plan.Crash != nil {
		return "traced"
	}
	return "untraced"
}
