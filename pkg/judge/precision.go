package judge

import (
	"fmt"
	"math"
	"strings"

	"github.com/gobench/gobench/pkg/result"
	"github.com/gobench/gobench/pkg/units"
)

// Precision is a stop rule for repeats (--precision): repeat the cells,
// interleaved, until the Confidence interval of the median of every
// Metric in every cell is within ±Target of the median (Target 0.05:
// ±5%), or a limit of repeats or time is reached. The interval is
// MedianInterval's, from order statistics: it needs MinMedianRepeats runs.
type Precision struct {
	Target  float64
	Metrics []Metric
}

// PrecisionRow is how precise one figure of one cell is after Runs runs.
type PrecisionRow struct {
	Cell   string  `json:"cell"` // its settings; "" for a suite of one cell
	Metric string  `json:"metric"`
	Runs   int     `json:"runs"`
	Median float64 `json:"median"`
	// HalfWidth is the interval's larger distance from the median, over
	// the median; +Inf while the runs are too few for an interval.
	HalfWidth float64 `json:"half_width"`
	// Confidence is the interval's true confidence, which the runs set
	// (at least Confidence: 93.75% for 5 runs, 92.97% for 7); 0 while
	// there is none.
	Confidence float64 `json:"confidence,omitempty"`
	// Need estimates the runs that would bring HalfWidth to the target
	// if the spread stays as observed (a half-width shrinks as 1/√n):
	// 0 when reached or unknown.
	Need int `json:"need,omitempty"`
}

// Reached reports whether the row is within target.
func (r PrecisionRow) Reached(target float64) bool { return r.HalfWidth <= target }

// Of measures every metric of every cell of s.
func (p Precision) Of(s *result.Suite) []PrecisionRow {
	var rows []PrecisionRow
	for _, c := range s.Cells {
		for _, m := range p.Metrics {
			vs := values(m, c.Runs)
			row := PrecisionRow{Cell: c.Settings.String(), Metric: m.String(), Runs: len(vs), HalfWidth: math.Inf(1)}
			if len(vs) == 0 {
				rows = append(rows, row)
				continue
			}
			row.Median = StatsOf(vs).Median
			if iv, ok := MedianInterval(vs); ok && row.Median != 0 {
				row.HalfWidth = max(row.Median-iv.Lo, iv.Hi-row.Median) / math.Abs(row.Median)
				row.Confidence = iv.Confidence
			}
			if !row.Reached(p.Target) && !math.IsInf(row.HalfWidth, 0) {
				row.Need = int(math.Ceil(float64(row.Runs) * math.Pow(row.HalfWidth/p.Target, 2)))
			}
			rows = append(rows, row)
		}
	}
	return rows
}

// Done reports whether every row reached the target.
func (p Precision) Done(rows []PrecisionRow) bool {
	for _, r := range rows {
		if !r.Reached(p.Target) {
			return false
		}
	}
	return len(rows) > 0
}

// PrecisionText says what the rule reached: "precision ±5%: reached after
// 7 repeats (widest: wal total ops/s ±3.1%)", or "precision ±5%: NOT
// reached after 3 repeats (--max-repeats): wal total ops/s ±8.2%; at this
// spread about 9 repeats would reach it".
func PrecisionText(target float64, repeats int, stoppedBy string, rows []PrecisionRow) string {
	worst := -1
	for i, r := range rows {
		if worst < 0 || r.HalfWidth > rows[worst].HalfWidth {
			worst = i
		}
	}
	head := fmt.Sprintf("precision ±%s%% (%s%% interval of the median)", units.Sig3(100*target), confidenceSpan(rows))
	pct := func(f float64) string { return units.Sig3(100*f) + "%" }
	if worst < 0 {
		return head + ": nothing to measure"
	}
	w := rows[worst]
	where := strings.TrimSpace(w.Cell + " " + w.Metric)
	if w.Reached(target) {
		return fmt.Sprintf("%s: reached after %d repeats (widest: %s ±%s)", head, repeats, where, pct(w.HalfWidth))
	}
	s := fmt.Sprintf("%s: NOT reached after %d repeats (%s): ", head, repeats, stoppedBy)
	if math.IsInf(w.HalfWidth, 0) {
		return s + fmt.Sprintf("%s has no interval yet (%d runs; %d needed)", where, w.Runs, MinMedianRepeats)
	}
	need := 0
	for _, r := range rows {
		need = max(need, r.Need)
	}
	return s + fmt.Sprintf("%s ±%s; at this spread about %d repeats would reach it", where, pct(w.HalfWidth), need)
}

// confidenceSpan labels the rows' intervals with their true confidence:
// "93.8" when they share one, "93.8–98.4" when the cells ran different
// numbers of runs, the rule's own Confidence while none has an interval.
func confidenceSpan(rows []PrecisionRow) string {
	lo, hi := math.Inf(1), 0.0
	for _, r := range rows {
		if r.Confidence > 0 {
			lo, hi = min(lo, r.Confidence), max(hi, r.Confidence)
		}
	}
	switch {
	case hi == 0:
		return ConfidenceLabel(Confidence)
	case ConfidenceLabel(lo) == ConfidenceLabel(hi):
		return ConfidenceLabel(lo)
	}
	return ConfidenceLabel(lo) + "–" + ConfidenceLabel(hi)
}
