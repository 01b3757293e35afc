// Package percentile reads percentiles from HdrHistograms by the
// nearest-rank rule, the one definition gobench uses everywhere: results,
// reports, progress lines, the disk probe.
//
// The p-th percentile of N recorded values is the value at rank
// ceil(p/100·N), counting from the smallest, and at least rank 1. That is
// what HdrHistogram's reference implementation (Java,
// getValueAtPercentile) returns. hdrhistogram-go rounds the rank to the
// nearest integer instead, which reads one rank low whenever p/100·N has a
// fraction below one half: the p99.9 of 1,000 latencies with one slow
// outlier shows the second-slowest value, for instance, and a p99 of 150
// values the 148th instead of the 149th.
package percentile

import (
	"math"

	hdr "github.com/HdrHistogram/hdrhistogram-go"
)

// Rank returns the nearest rank of percentile p among n values:
// ceil(p/100·n), within 1 to n. As in the reference implementation, p is
// first lowered by one unit in the last place, so that a product such as
// 0.99·100, which floating point makes 99.00000000000001, does not round
// up to the next rank.
func Rank(p float64, n int64) int64 {
	if n <= 0 {
		return 0
	}
	p = min(max(math.Nextafter(p, math.Inf(-1)), 0), 100)
	r := int64(math.Ceil(p / 100 * float64(n)))
	return min(max(r, 1), n)
}

// Value returns the p-th percentile of h by the nearest-rank rule: the
// highest value equivalent (at h's precision) to the value at Rank(p, N).
// It is 0 for an empty histogram.
func Value(h *hdr.Histogram, p float64) int64 {
	n := h.TotalCount()
	if n == 0 {
		return 0
	}
	r := Rank(p, n)
	// Ask the library for the value at rank r: whether it rounds the rank
	// p/100·N to nearest (as it does) or up, a rank a quarter below r
	// lands on r.
	return h.ValueAtPercentile((float64(r) - 0.25) / float64(n) * 100)
}
