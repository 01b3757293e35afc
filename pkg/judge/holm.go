package judge

import (
	"fmt"
	"math"
	"slices"
)

// FamilyAlpha is the family-wise false-alarm rate of a comparison: the
// chance that any of its rows, over every cell, is called a regression
// when nothing changed. It is the one-sided level of each interval's
// claim at Confidence, so a comparison of one row judges as before.
const FamilyAlpha = (1 - Confidence) / 2

// Holm applies Holm's step-down procedure (S. Holm, "A simple
// sequentially rejective multiple test procedure", Scand. J. Statist.
// 6:65–70, 1979) to the p-values ps at family-wise level alpha. The
// p-values are ranked from the smallest; the one of rank i (from 0) is
// compared with alpha/(n-i), and every p-value up to the first that
// exceeds its limit is rejected, none after it. Reject says which were;
// limit is the bound each was held to at its rank (for a p-value after
// the first that failed, the bound its rank would have had). Whatever the
// dependence between the tests, the chance of rejecting any true null is
// at most alpha.
func Holm(ps []float64, alpha float64) (reject []bool, limit []float64) {
	n := len(ps)
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		switch {
		case ps[a] < ps[b]:
			return -1
		case ps[a] > ps[b]:
			return 1
		}
		return 0
	})
	reject, limit = make([]bool, n), make([]float64, n)
	going := true
	for rank, i := range order {
		limit[i] = alpha / float64(n-rank)
		going = going && ps[i] <= limit[i]*(1+confidenceSlack)
		reject[i] = going
	}
	return reject, limit
}

// pWorse is the one-sided p-value of the Mann-Whitney U test that the new
// values are worse than bound times the old ones (higher: lower values
// are worse): the chance, were the two samples exchangeable once the old
// is scaled by bound, of as many pairs (new, old) with the new one worse
// as were seen, or more (ties count half). The permutation distribution
// of U is exact and aware of ties (uUpperTail) for samples up to
// exactUTest pairs, its tie-corrected normal approximation above; when
// every value is the same there is no evidence either way, and p is 1.
// bound 1 asks whether new is worse at all (an A/A pair is the null);
// bound 1.1, of a lower-is-better figure, whether it is worse by more
// than 10%, the claim an interval of the ratio beyond 1.1 makes.
func pWorse(new, old []float64, bound float64, higher bool) float64 {
	sign := 1.0 // worse is larger: higher-is-better figures are negated
	if higher {
		sign = -1
	}
	x, y := make([]float64, len(new)), make([]float64, len(old))
	for i, v := range new {
		x[i] = sign * v
	}
	for i, v := range old {
		y[i] = sign * v * bound
	}
	return uUpperTail(x, y)
}

// HolmSummary is how Holm's procedure held a comparison's regressions to
// its family-wise false-alarm rate.
type HolmSummary struct {
	// Rows is the number of rows judged, over every cell: the family.
	Rows  int     `json:"rows"`
	Alpha float64 `json:"alpha"`
	// Called is the rows each rule alone called a regression; Held those
	// Holm's procedure kept (the rest are inconclusive).
	Called int `json:"called"`
	Held   int `json:"held"`
}

// String says it in a line: "Holm over 12 rows judged, 5% family-wise:
// 1 of the 2 regressions the rows' own rules called kept".
func (h *HolmSummary) String() string {
	return fmt.Sprintf("Holm over %d rows judged, %s%% family-wise: %d of the %d regressions the rows' own rules called kept",
		h.Rows, percent(h.Alpha), h.Held, h.Called)
}

// holm holds the comparison's regressions to FamilyAlpha over exactly
// the rows judged (ComparisonRow.Judged, the rows the report's tally
// counts): a row its own rule called a regression stays one only when
// its one-sided p-value (PWorse) passes its step of Holm's procedure;
// otherwise it is inconclusive, and says what it would need. A row shown
// and not judged (a thin percentile its quantile intervals cannot
// decide, a neutral figure) is no member of the family; a row judged
// inconclusive before any test could run (a changed machine, a row asked
// for by name that cannot gate) is one, with p 1: it can never be kept
// as a regression, and the family counts it as the tally does.
func (c *Comparison) holm() {
	var idx []int
	var ps []float64
	for i := range c.Rows {
		r := &c.Rows[i]
		if !r.Judged() {
			r.PWorse = 0
			continue
		}
		if !r.tested {
			r.PWorse = 1
		}
		idx = append(idx, i)
		ps = append(ps, r.PWorse)
	}
	if len(idx) == 0 {
		return
	}
	h := &HolmSummary{Rows: len(idx), Alpha: FamilyAlpha}
	reject, limit := Holm(ps, FamilyAlpha)
	// The step Holm stopped at: the smallest p-value it did not reject.
	stopP, stopLimit := math.Inf(1), 0.0
	for j := range ps {
		if !reject[j] && (ps[j] < stopP || ps[j] == stopP && limit[j] < stopLimit) {
			stopP, stopLimit = ps[j], limit[j]
		}
	}
	for j, i := range idx {
		r := &c.Rows[i]
		r.HolmLimit = limit[j]
		if r.Outcome != OutcomeRegression {
			continue
		}
		h.Called++
		if reject[j] {
			h.Held++
			continue
		}
		r.Outcome, r.Regression = OutcomeInconclusive, false
		r.Why = fmt.Sprintf("its rule calls it a regression (%+.1f%%), but Holm over %d rows judged, at %s%% family-wise, does not keep it: its one-sided p is %s, and Holm stopped at a p of %s against a limit of %s; more repeats a side would decide",
			100*r.Delta, h.Rows, percent(h.Alpha), fmtP(r.PWorse), fmtP(stopP), fmtP(stopLimit))
	}
	c.Holm = h
}

// fmtP writes a p-value with three significant digits.
func fmtP(p float64) string { return fmt.Sprintf("%.3g", p) }
