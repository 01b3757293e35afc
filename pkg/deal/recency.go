package deal

import (
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
	items uint64 // the item count zipf was built for
}

func newRecency(p *workload.Plan, phase, worker int) *Recency {
	return &Recency{r: newRand(p.Seed, worker, phase, streamLatest)}
}

// Back returns a step back in [0, items): 0, the newest, most often, as
// YCSB's SkewedLatestGenerator steps back from its last value. Its
// zipfian's zeta grows with items, as YCSB's does, and is computed
// afresh when items has more than doubled since it was built (YCSB's eta
// keeps the count the generator was built with, which would skew the
// draws more and more as the appends grow), or has fallen below half
// of it (a later phase's appends, counted from none again): O(items)
// over a run.
func (c *Recency) Back(items uint64) uint64 {
	if items <= 1 {
		return 0
	}
	if c.zipf == nil || items > 2*c.items || 2*items < c.items {
		c.items = items
		c.zipf = generator.NewZipf(0, int64(c.items)-1, workload.RecordTheta)
	}
	return min(uint64(c.zipf.NextLong(int64(items), c.r.Float64())), items-1)
}
