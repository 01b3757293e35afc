package history

import (
	"math"
	"sort"
)

// qHat returns Q̂(τ) of every split τ of y (NaN where a side would hold
// fewer than minSeg points), given each value's rank in y's sorted
// order. Moving one point at a time from the right side to the left, the
// sums of distances within the left, within the right and across are
// updated by the point's distances to each side, which two Fenwick trees
// over the ranks give in O(log n): all of Q̂ in O(n log n), not the
// O(n²) of the pairwise distances, so a series of 10,000 points is
// searched in milliseconds.
func qHat(y []float64, ranks []int, minSeg int) []float64 {
	n := len(y)
	out := make([]float64, n)
	for i := range out {
		out[i] = math.NaN()
	}
	if n < 2 {
		return out
	}
	left, right := newFenwick(n), newFenwick(n)
	for i, v := range y {
		right.add(ranks[i], v, 1)
	}
	wLL, wRR, wLR := 0.0, withinSum(y), 0.0
	for t := 1; t < n; t++ {
		e, r := y[t-1], ranks[t-1]
		right.add(r, -e, -1)
		dl, dr := left.distance(e, r), right.distance(e, r)
		wLL += dl
		wRR -= dr
		wLR += dr - dl
		left.add(r, e, 1)
		a, b := float64(t), float64(n-t)
		if t < minSeg || n-t < minSeg {
			continue
		}
		e2 := 2 * wLR / (a * b)
		if t > 1 {
			e2 -= wLL / (a * (a - 1) / 2)
		}
		if n-t > 1 {
			e2 -= wRR / (b * (b - 1) / 2)
		}
		out[t] = a * b / (a + b) * e2
	}
	return out
}

// withinSum is the sum of |yᵢ − yⱼ| over every pair i < j.
func withinSum(y []float64) float64 {
	s := append([]float64(nil), y...)
	sort.Float64s(s)
	n := float64(len(s))
	total := 0.0
	for k, v := range s {
		total += v * (2*float64(k) - n + 1)
	}
	return total
}

// ranksOf returns each value's place in y's sorted order (ties in the
// order they come).
func ranksOf(y []float64) []int {
	idx := make([]int, len(y))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return y[idx[a]] < y[idx[b]] })
	ranks := make([]int, len(y))
	for r, i := range idx {
		ranks[i] = r
	}
	return ranks
}

// fenwick counts and sums the values of a set by rank.
type fenwick struct {
	cnt []int
	sum []float64
	n   int
	// all and total are the set's size and sum.
	all   int
	total float64
}

func newFenwick(n int) *fenwick {
	return &fenwick{cnt: make([]int, n+1), sum: make([]float64, n+1), n: n}
}

// add adds value v at rank r (c = 1), or takes it away (v negated, c = -1).
func (f *fenwick) add(r int, v float64, c int) {
	f.all += c
	f.total += v
	for i := r + 1; i <= f.n; i += i & -i {
		f.cnt[i] += c
		f.sum[i] += v
	}
}

// below returns the count and sum of the values of rank below r.
func (f *fenwick) below(r int) (int, float64) {
	c, s := 0, 0.0
	for i := r; i > 0; i -= i & -i {
		c += f.cnt[i]
		s += f.sum[i]
	}
	return c, s
}

// distance is Σ|v − x| over the set's values x, v being of rank r.
func (f *fenwick) distance(v float64, r int) float64 {
	c, s := f.below(r)
	above, sumAbove := f.all-c, f.total-s
	return (float64(c)*v - s) + (sumAbove - float64(above)*v)
}
