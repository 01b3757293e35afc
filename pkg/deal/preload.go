package deal

import (
	"math/rand/v2"

	"github.com/gobench/gobench/pkg/workload"
)

// Preloader deals the rows a plan preloads before its first phase, in
// order, each as one Deal: keys 0 to Preload-1 with their seeded values,
// written with Put (op upsert), or a record workload's records, the
// keynums its load inserts (op insert, Record and Values set). Values
// come from a stream of the preload's own, so the phases deal the same
// ops whether or not the store was preloaded.
type Preloader struct {
	plan  *workload.Plan
	r     *rand.Rand
	value []byte
	next  uint64
	rec   *recDealer
}

// NewPreloader returns the preloader of plan.
func NewPreloader(plan *workload.Plan) *Preloader {
	pl := &Preloader{plan: plan}
	if r := plan.Records; r != nil {
		d := newRecDealer(plan, &workload.Phase{Access: workload.AccessEach}, 0, 0, newRecShared(plan, nil), false)
		d.valRng, d.lenRng = newRand(plan.Seed, 0, 0, streamPreload), newRand(plan.Seed, 1, 0, streamPreload)
		d.first, d.stride, d.n = r.InsertStart, 1, r.InsertCount
		pl.rec = d
		return pl
	}
	pl.r = newRand(plan.Seed, 0, 0, streamPreload)
	pl.value = make([]byte, plan.ValueSize+plan.ValueVariance)
	return pl
}

// Len returns how many rows the preload writes.
func (pl *Preloader) Len() uint64 {
	if pl.rec != nil {
		return pl.rec.n
	}
	return pl.plan.Preload
}

// Records reports whether the preload writes records (a record
// workload's) rather than key-value rows.
func (pl *Preloader) Records() bool { return pl.rec != nil }

// Deal deals the next row into d. Its slices are the preloader's, valid
// until the next Deal.
func (pl *Preloader) Deal(d *Deal) error {
	if r := pl.rec; r != nil {
		if err := r.deal(workload.OpInsert); err != nil {
			return err
		}
		d.Op, d.Key, d.Record, d.Values = workload.OpInsert, r.keynum, r.key, r.values
		return nil
	}
	p, k := pl.plan, pl.next
	pl.next++
	value := pl.value[:p.ValueSizeOf(k)]
	if p.RandomValues {
		fillRandom(value, pl.r)
	} else {
		fillValue(value, pl.r)
	}
	if p.Verify {
		copy(value, preloadTag)
	}
	d.Op, d.Key, d.Value, d.Record, d.Values = workload.OpUpsert, k, value, nil, nil
	return nil
}
