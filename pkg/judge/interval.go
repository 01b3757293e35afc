package judge

import (
	"math"
	"slices"
	"sort"

	ustats "github.com/aclements/go-moremath/stats"
	"golang.org/x/perf/benchmath"
)

// Confidence is the two-sided confidence of the intervals gates read. A
// gate passes when its whole interval is on the passing side of the
// threshold and fails when the whole interval is on the other: each of
// those verdicts is a one-sided claim at 95%, wrong at most one time in
// twenty when the repeats are exchangeable (interleaved, one machine).
const Confidence = 0.90

// confidenceSlack absorbs rounding in exact tail probabilities: 3+3
// repeats give an interval at exactly 90%.
const confidenceSlack = 1e-9

// Interval is a range an unknown figure lies in, at a confidence; a
// Confidence of 0 marks the observed range of too few repeats, which
// states none.
type Interval struct {
	Lo, Hi     float64
	Confidence float64
}

// MedianInterval returns the interval of the median of values at
// Confidence, from their order statistics (benchmath's AssumeNothing, as
// benchstat computes it); ok is false when values are too few to reach it
// (fewer than 5 at 90%: the range of 5 values holds the median with
// probability 1 - 2/2⁵ ≈ 94%).
func MedianInterval(values []float64) (Interval, bool) {
	th := benchmath.DefaultThresholds
	s := benchmath.AssumeNothing.Summary(benchmath.NewSample(slices.Clone(values), &th), Confidence-confidenceSlack)
	if math.IsInf(s.Lo, 0) || math.IsInf(s.Hi, 0) || len(s.Warnings) > 0 {
		return Interval{}, false
	}
	return Interval{Lo: s.Lo, Hi: s.Hi, Confidence: s.Confidence}, true
}

// MinMedianRepeats is the fewest values MedianInterval takes.
const MinMedianRepeats = 5

// exactUTest bounds the sample sizes whose U distribution is computed
// exactly; larger ones use its normal approximation.
const exactUTest = 2500

// RatioInterval returns the interval of the ratio of a's location to
// b's at Confidence: the Mann-Whitney U test inverted on their logarithms
// (the Hodges-Lehmann interval of a shift, as a factor). Every ratio
// aᵢ/bⱼ is formed and sorted; the interval runs from the k-th smallest to
// the k-th largest, k the largest count whose tail under the exact
// distribution of U is at most (1-Confidence)/2. ok is false when a and b
// are too few to reach the confidence (3 a side at 90%: the chance that
// every a lies above every b by accident is 1/20) or hold a value that is
// not positive.
func RatioInterval(a, b []float64) (Interval, bool) {
	n1, n2 := len(a), len(b)
	if n1 == 0 || n2 == 0 || slices.ContainsFunc(a, notPositive) || slices.ContainsFunc(b, notPositive) {
		return Interval{}, false
	}
	tail := (1 - Confidence) / 2
	k, p := 0, 0.0 // k ratios cut off each end; p the probability of each tail
	if n1*n2 <= exactUTest {
		// The largest k with P(U ≤ k-1) within the tail: the CDF grows
		// with k, so a binary search finds it in a few evaluations.
		d := ustats.UDist{N1: n1, N2: n2}
		within := func(k int) bool { return d.CDF(float64(k-1)) <= tail+confidenceSlack }
		k = sort.Search(n1*n2/2+1, func(k int) bool { return k > 0 && !within(k) }) - 1
		if k > 0 {
			p = d.CDF(float64(k - 1))
		}
	} else {
		// U is close to normal: mean n1n2/2, variance n1n2(n1+n2+1)/12.
		z := math.Sqrt2 * math.Erfinv(Confidence)
		sd := math.Sqrt(float64(n1*n2*(n1+n2+1)) / 12)
		k = int(math.Floor(float64(n1*n2)/2 - z*sd))
		p = tail
	}
	if k < 1 {
		return Interval{}, false
	}
	ratios := make([]float64, 0, n1*n2)
	for _, x := range a {
		for _, y := range b {
			ratios = append(ratios, x/y)
		}
	}
	slices.Sort(ratios)
	return Interval{Lo: ratios[k-1], Hi: ratios[len(ratios)-k], Confidence: 1 - 2*p}, true
}

// RatioEstimate returns the Hodges-Lehmann estimate of the ratio of a's
// location to b's, the point RatioInterval's interval is built around:
// the median of every ratio aᵢ/bⱼ (on the logarithms, the median of the
// pairwise differences; with an even number of ratios, the geometric mean
// of the middle two). 0 when a side is empty or holds a value that is
// not positive.
func RatioEstimate(a, b []float64) float64 {
	if len(a) == 0 || len(b) == 0 || slices.ContainsFunc(a, notPositive) || slices.ContainsFunc(b, notPositive) {
		return 0
	}
	ratios := make([]float64, 0, len(a)*len(b))
	for _, x := range a {
		for _, y := range b {
			ratios = append(ratios, x/y)
		}
	}
	slices.Sort(ratios)
	n := len(ratios)
	if n%2 == 1 {
		return ratios[n/2]
	}
	return math.Sqrt(ratios[n/2-1] * ratios[n/2])
}

// MinRatioRepeats is the fewest values a side RatioInterval takes.
const MinRatioRepeats = 3

func notPositive(v float64) bool { return !(v > 0) }
