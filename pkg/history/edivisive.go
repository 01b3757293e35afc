package history

import (
	"math"
	"math/rand/v2"
	"slices"
	"sort"
)

// Detector finds the change points of a series by E-divisive means
// (Matteson & James, "A Nonparametric Approach for Multiple Change Point
// Analysis of Multivariate Data", JASA 2014), with α = 1 and each split
// made at the end of its segment (κ = the segment's end), as Hunter and
// Apache Otava make it:
//
//   - in a segment, the split τ maximises Q̂ = τr/(τ+r) · Ê, where Ê is
//     the energy distance between the τ points before it and the r after
//     (2·mean|x−y| − mean|x−x'| − mean|y−y'|), among the splits whose
//     sides' means differ by MinStep (see candidate);
//   - its significance is a permutation test: the segment shuffled
//     Permutations times (seeded: the same series gives the same answer),
//     p = (1 + shuffles whose best Q̂, over every split, reaches it) /
//     (1 + Permutations);
//   - a split with p ≤ Alpha is kept and both halves searched again, the
//     best split over all segments first, until none is significant.
//
// Two rules keep noise from being flagged (Otava's later defaults, and
// the Chromium dashboard's, serve the same end): a split must leave
// MinSegment points on either side, so one point alone (an outlier, or
// the newest run) is never a level of its own; and once the search ends,
// the splits whose medians on either side (up to the neighbouring
// splits) differ by less than MinStep of the earlier one are dropped,
// smallest first, so a single outlier, which moves a mean but no median,
// is not a step. Where a side has an even count its median is, of the
// two middle values, the one nearer the other side's: two points after a
// split, one an outlier, step no further than the other.
type Detector struct {
	// Alpha is the largest p of a change point kept.
	Alpha float64 `json:"alpha"`
	// Permutations is the number of shuffles of the permutation test.
	Permutations int `json:"permutations"`
	// MinStep is the smallest relative change of the median kept
	// (0.05: 5%).
	MinStep float64 `json:"min_step"`
	// MinSegment is the fewest points on either side of a split.
	MinSegment int `json:"min_points"`
	// Seed seeds the shuffles.
	Seed uint64 `json:"seed"`
}

// DefaultDetector is the detector history show and gate use unless told
// otherwise: p ≤ 0.05 over 199 shuffles, a step of 5% of the median, two
// points a side.
var DefaultDetector = Detector{Alpha: 0.05, Permutations: 199, MinStep: 0.05, MinSegment: 2, Seed: 1}

// Split is a change point of a series: the index of the first point
// after it, and the permutation test's p.
type Split struct {
	Index int
	P     float64
}

// segment is the half-open range [lo, hi) of a series.
type segment struct{ lo, hi int }

// Find returns the change points of x, in order.
func (d Detector) Find(x []float64) []Split {
	if d.MinSegment < 1 {
		d.MinSegment = 1
	}
	var found []Split
	open := []segment{{0, len(x)}}
	for len(open) > 0 {
		best, bestAt, bestQ := -1, 0, math.Inf(-1)
		for i, s := range open {
			if at, q, ok := d.candidate(x[s.lo:s.hi]); ok && q > bestQ {
				best, bestAt, bestQ = i, at, q
			}
		}
		if best < 0 {
			break
		}
		s := open[best]
		open = slices.Delete(open, best, best+1)
		p := d.pValue(x[s.lo:s.hi], bestQ, s)
		if p > d.Alpha {
			continue // this segment holds no change: the others may
		}
		found = append(found, Split{Index: s.lo + bestAt, P: p})
		open = append(open, segment{s.lo, s.lo + bestAt}, segment{s.lo + bestAt, s.hi})
	}
	sort.Slice(found, func(i, j int) bool { return found[i].Index < found[j].Index })
	return d.prune(x, found)
}

// candidate returns the split of y with the largest Q̂ among those whose
// sides' means differ by MinStep; ok is false when none does. The means,
// not the medians, so that a short excursion (a regression fixed a few
// commits later) still splits its segment, and a split the final check
// will drop (one outlier moves a mean) costs a search, not a miss: the
// rule bounds the search, which would otherwise split slow drifts and
// noise into segments of a few points, a permutation test each.
func (d Detector) candidate(y []float64) (at int, q float64, ok bool) {
	prefix := make([]float64, len(y)+1)
	for i, v := range y {
		prefix[i+1] = prefix[i] + v
	}
	q = math.Inf(-1)
	for t, v := range qHat(y, ranksOf(y), d.MinSegment) {
		if math.IsNaN(v) || v <= q {
			continue
		}
		left, right := prefix[t]/float64(t), (prefix[len(y)]-prefix[t])/float64(len(y)-t)
		if relStep(left, right) >= d.MinStep {
			at, q, ok = t, v, true
		}
	}
	return at, q, ok
}

// prune drops, smallest first, the splits of x whose step between the
// segments on either side (up to the neighbouring splits) is under
// MinStep: a split around one outlier leaves the median of the segments
// where it was.
func (d Detector) prune(x []float64, splits []Split) []Split {
	for len(splits) > 0 {
		weakest, least := -1, math.Inf(1)
		for i, s := range splits {
			lo, hi := around(splits, i, len(x))
			if st := stepOf(x[lo:s.Index], x[s.Index:hi]); st < least {
				weakest, least = i, st
			}
		}
		if least >= d.MinStep {
			break
		}
		splits = slices.Delete(splits, weakest, weakest+1)
	}
	return splits
}

// pValue is the permutation test of a split of y whose Q̂ is q: the
// share of shuffles of y whose best split reaches q. It stops counting
// once the answer is above Alpha.
func (d Detector) pValue(y []float64, q float64, s segment) float64 {
	rng := rand.New(rand.NewPCG(d.Seed, uint64(s.lo)<<32|uint64(s.hi)))
	vals, ranks := slices.Clone(y), ranksOf(y)
	reach := 0
	limit := int(d.Alpha * float64(d.Permutations+1))
	for i := 0; i < d.Permutations; i++ {
		rng.Shuffle(len(vals), func(a, b int) {
			vals[a], vals[b] = vals[b], vals[a]
			ranks[a], ranks[b] = ranks[b], ranks[a]
		})
		if slices.Max(qHat(vals, ranks, d.MinSegment)) >= q*(1-1e-12) {
			reach++
			if reach > limit {
				return float64(reach+1) / float64(i+2) // already above Alpha
			}
		}
	}
	return float64(reach+1) / float64(d.Permutations+1)
}

// around returns the segment around split i of a series of n points: from
// the split before it (or the start) to the split after it (or the end).
func around(splits []Split, i, n int) (lo, hi int) {
	lo, hi = 0, n
	if i > 0 {
		lo = splits[i-1].Index
	}
	if i+1 < len(splits) {
		hi = splits[i+1].Index
	}
	return lo, hi
}

// stepOf is the relative change between the medians of a and b, each
// side's median taken, where a side has an even count, as the middle
// value nearer the other side's: two points after a split, one of them an
// outlier, step no further than the other one.
func stepOf(a, b []float64) float64 {
	ma, mb := median(a), median(b)
	return relStep(nearMedian(a, mb), nearMedian(b, ma))
}

// nearMedian is v's median, or, for an even count, the one of its two
// middle values nearer to ref.
func nearMedian(v []float64, ref float64) float64 {
	s := slices.Clone(v)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	lo, hi := s[n/2-1], s[n/2]
	if math.Abs(lo-ref) <= math.Abs(hi-ref) {
		return lo
	}
	return hi
}

// relStep is the change from a to b relative to a's size.
func relStep(a, b float64) float64 {
	if a == 0 {
		if b == 0 {
			return 0
		}
		return math.Inf(1)
	}
	return math.Abs(b-a) / math.Abs(a)
}

// median returns the median of v (v is not changed).
func median(v []float64) float64 {
	if len(v) == 0 {
		return math.NaN()
	}
	s := slices.Clone(v)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}
