package deal

import "github.com/gobench/gobench/pkg/workload"

// appender deals the keys of one worker's appends in one phase: append
// number n takes Plan.AppendKey of n, or with workload.AppendRandom of a
// seeded permutation of n, so that no two appends of the plan, whichever
// worker, process or phase makes them, write one key.
type appender struct {
	plan          *workload.Plan
	phase, worker int
	n             uint64
	perm          *perm // AppendRandom's; nil in increasing order
}

func newAppender(p *workload.Plan, phase, worker int) *appender {
	a := &appender{plan: p, phase: phase, worker: worker}
	if p.AppendOrder == workload.AppendRandom {
		a.perm = newPerm(workload.MaxAppends+1, newRand(p.Seed, worker, phase, streamAppends))
	}
	return a
}

// next returns the key of the next append.
func (a *appender) next() uint64 {
	n := a.n
	a.n++
	if a.perm != nil {
		n = a.perm.at(n)
	}
	return a.plan.AppendKey(a.phase, a.worker, n)
}
