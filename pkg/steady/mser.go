// Package steady finds where a run's warm-up ends: the truncation point of
// a series of observations over time after which it is in a steady state.
//
// The rule is MSER-5 (the Marginal Standard Error Rule on batch means of
// five observations; White 1997, "An effective truncation heuristic for
// bias reduction in simulation output", Simulation 69(6); Franklin and
// White 2008; chosen as the most accurate and robust of 44 rules compared
// by Hoad, Robinson and Davies 2010, "Automating warm-up length
// estimation", Journal of the Operational Research Society 61(9)). It cuts
// the first d batches where that minimises the squared standard error of
// the mean of what remains,
//
//	MSER(d) = 1/(m-d)² · Σ_{j>d} (Z_j - Z̄_d)²
//
// and, following Hoad et al., finds no steady state when the minimum lies
// in the second half of the series: the run is too short, or still moving.
package steady

import (
	"math"
)

// Batch is the number of observations MSER-5 averages into a batch.
const Batch = 5

// MinBatches is the fewest batches a series must have for a cut to mean
// anything.
const MinBatches = 10

// Cut is MSER-5's verdict on one series.
type Cut struct {
	// Batches is how many whole batches the series had; Drop how many of
	// them the warm-up takes (Drop*Batch observations).
	Batches, Drop int
	// Steady is false when the minimum fell in the series' second half
	// (or the series was too short): no steady state was seen.
	Steady bool
}

// Observations is how many observations the cut drops.
func (c Cut) Observations() int { return c.Drop * Batch }

// MSER5 applies MSER-5 to xs, observations at equal intervals in time
// order. NaN observations (an interval with nothing to measure) join their
// batch's mean as absent; a batch of nothing but NaN takes the previous
// batch's mean.
func MSER5(xs []float64) Cut {
	z := batchMeans(xs, Batch)
	m := len(z)
	if m < MinBatches {
		return Cut{Batches: m}
	}
	// The squared deviations of batches d..m-1 from their mean, for every
	// d, from the end (Welford's update: exact zeros for a constant tail,
	// where sums of squares would leave rounding noise to choose among).
	best, bestD := math.Inf(1), 0
	var mean, ss float64
	scores := make([]float64, m)
	for d := m - 1; d >= 0; d-- {
		n := float64(m - d)
		delta := z[d] - mean
		mean += delta / n
		ss += delta * (z[d] - mean)
		scores[d] = ss / (n * n)
	}
	// Scores closer than rounding can tell apart are ties, won by the
	// smallest cut: a series constant up to rounding is steady from its
	// start.
	var scale float64
	for _, v := range z {
		scale = max(scale, math.Abs(v))
	}
	tol := (1e-9 * scale) * (1e-9 * scale)
	for d := 0; d < m-1; d++ { // at least two batches remain
		best = min(best, scores[d])
	}
	for d := 0; d < m-1; d++ {
		if scores[d] <= best+tol {
			bestD = d
			break
		}
	}
	return Cut{Batches: m, Drop: bestD, Steady: bestD < m/2}
}

// batchMeans averages xs in batches of size b, dropping a last partial
// batch.
func batchMeans(xs []float64, b int) []float64 {
	var z []float64
	prev := math.NaN()
	for i := 0; i+b <= len(xs); i += b {
		var s float64
		n := 0
		for _, x := range xs[i : i+b] {
			if !math.IsNaN(x) {
				s += x
				n++
			}
		}
		v := prev
		if n > 0 {
			v = s / float64(n)
		}
		z = append(z, v)
		prev = v
	}
	// leading batches of nothing take the first batch that has a mean
	first := math.NaN()
	for _, v := range z {
		if !math.IsNaN(v) {
			first = v
			break
		}
	}
	for i := range z {
		if !math.IsNaN(z[i]) {
			break
		}
		z[i] = first
	}
	if math.IsNaN(first) {
		return nil
	}
	return z
}

// Slope is the least-squares slope of ys over their index, per
// observation, relative to their mean (0.04 = rising 4% of the mean per
// observation); NaN values are skipped. It is 0 for fewer than two values
// or a zero mean.
func Slope(ys []float64) float64 {
	var n, sx, sy, sxx, sxy float64
	for i, y := range ys {
		if math.IsNaN(y) {
			continue
		}
		x := float64(i)
		n++
		sx += x
		sy += y
		sxx += x * x
		sxy += x * y
	}
	if n < 2 || sy == 0 {
		return 0
	}
	den := n*sxx - sx*sx
	if den == 0 {
		return 0
	}
	return (n*sxy - sx*sy) / den / (sy / n)
}
