package deal

import (
	"math"
	"math/rand/v2"

	"github.com/gobench/gobench/pkg/generator"
	"github.com/gobench/gobench/pkg/workload"
)

// Recency draws how far back from the newest appended key a latest read
// (workload.OpLatest) reads: YCSB's latest distribution, a zipfian with
// YCSB's constant over the keys appended before the newest, so that the
// newest is read most. What is newest is known only when the op runs (the
// store's highest appended key, whichever worker or process appended it:
// workers share no memory), so the runner asks Back for a step once it
// has found it; the draws come from a stream of the worker's own, and
// leave the ops, keys and values the lottery deals unchanged.
type Recency struct {
	r     *rand.Rand
	zipf  *generator.Zipf
	items uint64  // the item count zipf was built for
	head  float64 // zeta's first zetaExact terms (zetaHead), summed before any op
}

func newRecency(p *workload.Plan, phase, worker int) *Recency {
	return &Recency{r: newRand(p.Seed, worker, phase, streamLatest), head: zetaHead(workload.RecordTheta)}
}

// Back returns a step back in [0, items): 0, the newest, most often, as
// YCSB's SkewedLatestGenerator steps back from its last value. Its
// zipfian's zeta grows with items, as YCSB's does, and the zipfian is
// built afresh when items has more than doubled since it was built
// (YCSB's eta keeps the count the generator was built with, which would
// skew the draws more and more as the appends grow) or fallen below half
// of it (a later phase's appends, counted from none again). A build
// takes its zeta in constant time (zetaOf), so that no op's latency
// carries the O(items) sum; growing it between builds costs each op the
// terms of the keys appended since the worker's last latest read.
func (c *Recency) Back(items uint64) uint64 {
	if items <= 1 {
		return 0
	}
	if c.zipf == nil || items > 2*c.items || 2*items < c.items {
		c.items = items
		c.zipf = generator.NewZipfZeta(0, int64(items)-1, workload.RecordTheta, zetaOf(items, workload.RecordTheta, c.head))
	}
	return min(uint64(c.zipf.NextLong(int64(items), c.r.Float64())), items-1)
}

// zetaExact is how many of zeta's terms zetaOf sums one by one.
const zetaExact = 1024

// zetaHead returns the sum of zeta's first zetaExact terms at theta,
// which every zetaOf beyond them starts from: summed once, before the
// measured ops, not at each of a worker's rebuilds.
func zetaHead(theta float64) float64 { return generator.Zeta(0, zetaExact, theta, 0) }

// zetaOf returns YCSB's zeta(n, theta), the sum of 1/i^theta for i from 1
// to n: its first zetaExact terms summed (head, zetaHead's, beyond them),
// the rest by the Euler–Maclaurin formula (the integral, half the end
// terms, and the first derivative correction), whose error beyond a
// thousand terms is below 1e-12.
func zetaOf(n uint64, theta, head float64) float64 {
	if n <= zetaExact {
		return generator.Zeta(0, int64(n), theta, 0)
	}
	a, b := float64(zetaExact), float64(n)
	f := func(x float64) float64 { return math.Pow(x, -theta) }
	df := func(x float64) float64 { return -theta * math.Pow(x, -theta-1) }
	integral := (math.Pow(b, 1-theta) - math.Pow(a, 1-theta)) / (1 - theta)
	return head + integral + (f(b)-f(a))/2 + (df(b)-df(a))/12
}
