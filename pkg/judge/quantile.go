package judge

import (
	"math"

	hdr "github.com/HdrHistogram/hdrhistogram-go"
	"gonum.org/v1/gonum/stat/distuv"
)

// QuantileRanks returns the order statistics that bound, at confidence
// conf (two-sided, equal tails), the q-th quantile (0 < q < 1) of the
// population n values were drawn from, whatever its distribution: the
// number of values below the quantile is Binomial(n, q), so the lo-th
// smallest value lies at or below it with probability P(B ≥ lo) and the
// hi-th at or above it with P(B ≤ hi-1). lo is the largest rank with
// P(B ≤ lo-1) ≤ (1-conf)/2 and hi the smallest with P(B ≤ hi-1) ≥
// 1-(1-conf)/2 (Conover, Practical Nonparametric Statistics, 3.2). Ranks
// count from 1; lo = 0 says no value bounds the quantile from below at
// that confidence, hi = n+1 that none bounds it from above. The binomial
// is exact (its distribution function through the incomplete beta).
func QuantileRanks(n int64, q, conf float64) (lo, hi int64) {
	if n <= 0 {
		return 0, 1
	}
	b := distuv.Binomial{N: float64(n), P: q}
	alpha := (1 - conf) / 2
	cdf := func(k int64) float64 { return b.CDF(float64(k)) }
	// lo-1 is the largest k in [-1, n] with cdf(k) ≤ alpha (cdf(-1) = 0).
	lo = search(-1, n, func(k int64) bool { return cdf(k) > alpha+confidenceSlack })
	// hi-1 is the smallest k in [0, n] with cdf(k) ≥ 1-alpha (cdf(n) = 1).
	hi = search(0, n, func(k int64) bool { return cdf(k) >= 1-alpha-confidenceSlack }) + 1
	return lo, hi
}

// search returns the smallest k in [from, to] for which f holds, f
// monotone (false, then true), or to+1 when it holds nowhere; the result
// minus one is then the last k for which it does not.
func search(from, to int64, f func(int64) bool) int64 {
	lo, hi := from, to+1
	for lo < hi {
		mid := lo + (hi-lo)/2
		if f(mid) {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return lo
}

// QuantileInterval returns the interval, in µs, in which the q-th
// quantile (0 < q < 1) of the latencies h sampled lies at confidence
// conf: the order statistics of QuantileRanks, read from the histogram
// and widened to its precision (from the lowest value of the lower one's
// bucket to the highest of the upper one's: the histogram keeps each
// value to its bucket). An end no value bounds is 0 below and +Inf above.
func QuantileInterval(h *hdr.Histogram, q, conf float64) Interval {
	n := h.TotalCount()
	lo, hi := QuantileRanks(n, q, conf)
	iv := Interval{Lo: 0, Hi: math.Inf(1), Confidence: conf}
	bars := h.Distribution()
	if lo >= 1 {
		iv.Lo = float64(barOfRank(bars, lo).From) / 1e3
	}
	if hi <= n {
		iv.Hi = float64(barOfRank(bars, hi).To) / 1e3
	}
	return iv
}

// barOfRank returns the bucket that holds the r-th smallest value (from
// 1) of a histogram's distribution.
func barOfRank(bars []hdr.Bar, r int64) hdr.Bar {
	var seen int64
	for _, b := range bars {
		if seen += b.Count; seen >= r {
			return b
		}
	}
	return bars[len(bars)-1]
}

// opsToDecide returns about how many values a run of the same
// distribution would need for the q-th quantile's interval at conf to
// fall wholly on one side of limit (in µs), given the share of h's
// values whose buckets lie at or below the limit; 0 when no number would
// (the limit sits at the quantile), and math.MaxInt64 when more than
// 10¹² would.
func opsToDecide(h *hdr.Histogram, q, conf, limit float64) int64 {
	n := h.TotalCount()
	if n == 0 {
		return 0
	}
	var at int64
	for _, b := range h.Distribution() {
		if float64(b.To)/1e3 <= limit {
			at += b.Count
		}
	}
	below := float64(at) / float64(n)
	if below == q {
		return 0
	}
	decided := func(m int64) bool {
		lo, hi := QuantileRanks(m, q, conf)
		return float64(hi) <= below*float64(m) || float64(lo) > below*float64(m)
	}
	const most = 1_000_000_000_000
	m := max(n, 1)
	for !decided(m) {
		if m > most/2 {
			return math.MaxInt64
		}
		m *= 2
	}
	// The first count that decides, between m/2 and m.
	return search(max(m/2, 1), m, decided)
}
