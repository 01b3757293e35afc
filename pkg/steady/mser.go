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
// and, following Hoad et al., finds no steady state when the cut lies in
// the second half of the series: the run is too short, or still moving.
// Two guards fit it to noisy series (see MSER5): a cut leaves at least
// MinBatches batches, and the earliest cut within Tolerance standard
// errors of the least score wins. Groups batches a bursty series by
// completions.
package steady

import (
	"math"
)

// Batch is the number of observations MSER-5 averages into a batch.
const Batch = 5

// MinBatches is the fewest batches a series must have for a cut to mean
// anything.
const MinBatches = 10

// Tolerance is how many of its standard errors a cut's score may lie above
// the least for the earlier cut to win. A score is a variance estimated
// from the n batches a cut leaves, with a relative standard error of
// √(2/(n-1)) when batch means are independent; on a loaded machine they
// are not (other processes take the CPU for seconds at a time, spanning
// many batches), so that understates how far apart two scores must be to
// tell them. Of 20 runs with a planted 2 s warm-up on a 2-core machine at
// load 15, one standard error missed its end by more than 20% in 9 (the
// cut chased load swings), three in 3; a smooth transient is still cut
// where it sinks into the noise (see pkg/result/testdata/loaded for runs
// at load 24).
const Tolerance = 3

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
	// The least score among cuts that leave MinBatches batches or more:
	// a cut leaving two (which the textbook rule allows) is chosen by
	// chance alone whenever those two happen to be close, and on a noisy
	// series that is often (a third of flat series of 30 batches of
	// Gaussian noise "settle" in their second half so).
	last := m - MinBatches
	argmin := 0
	for d := 0; d <= last; d++ {
		if scores[d] < best {
			best, argmin = scores[d], d
		}
	}
	// The earliest cut whose score is within Tolerance standard errors of
	// the least wins (the one-standard-error rule, widened for correlated
	// batches: see Tolerance): later cuts that score lower by less cannot
	// be told from it, and on a noisy series (a bursty run's, a loaded
	// machine's) taking the strict minimum cuts well past the warm-up's
	// end. Scores closer than rounding can tell apart are ties too: a
	// series constant up to rounding is steady from its start.
	var scale float64
	for _, v := range z {
		scale = max(scale, math.Abs(v))
	}
	tol := (1e-9*scale)*(1e-9*scale) + Tolerance*best*math.Sqrt(2/float64(m-argmin-1))
	for d := 0; d <= last; d++ {
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

// Groups merges intervals in time order into groups of at least k
// completions each (counts[i] completions in interval i) and returns their
// bounds: group g covers intervals bounds[g] to bounds[g+1]-1 (nil when no
// group fills). A last group short of k is left out. Batching by
// completions, not by time, is what makes MSER-5 fit a bursty series: when
// workers run in bursts (a loaded machine with fewer cores than
// processes), most short intervals hold nothing, a batch of such intervals
// has no mean, and a series padded with repeated means shows MSER-5 a flat
// tail it takes for the steady state. A group always holds ops, and the
// empty intervals before a burst join the burst's group, so its rate is
// over the whole stretch of time it covers.
func Groups(counts []int64, k int64) []int {
	k = max(k, 1)
	bounds := []int{0}
	var n int64
	for i, c := range counts {
		n += c
		if n >= k {
			bounds = append(bounds, i+1)
			n = 0
		}
	}
	if len(bounds) == 1 {
		return nil
	}
	return bounds
}
