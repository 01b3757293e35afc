package result

import (
	"fmt"
	"slices"
	"strings"

	"github.com/gobench/gobench/pkg/workload"
)

// Role is one role's figures in a phase (see workload.Role): its
// workers' ops by kind and in total, their rates over the time the role
// ran (from START to its last worker's last completion: a role of
// readers that ran its count of ops in a tenth of the phase read at its
// own pace, not the writers'), and the spread of its workers'
// throughput. A gate reads a role's figure as "ROLE KIND STAT"
// ("reader read p99").
type Role struct {
	Name string `json:"name"`
	// Workers are the role's worker ids.
	Workers []int     `json:"workers"`
	Total   OpStats   `json:"total"`
	Ops     []OpStats `json:"ops"`
	// WorkerSpread is the spread of its workers' throughput.
	WorkerSpread Spread `json:"worker_spread"`
}

// Op returns the role's statistics of kind ("total": all its data ops).
func (r *Role) Op(kind string) (OpStats, bool) {
	if kind == "total" {
		return r.Total, true
	}
	for _, o := range r.Ops {
		if o.Kind == kind {
			return o, true
		}
	}
	return OpStats{}, false
}

// RoleOp reads a role's op kind named "ROLE KIND" ("reader read",
// "writer total"); ok is false for a name of no role of the phase, or a
// kind the role did not run.
func (p *Phase) RoleOp(name string) (OpStats, bool) {
	role, kind, ok := strings.Cut(name, " ")
	if !ok {
		return OpStats{}, false
	}
	for i := range p.Roles {
		if p.Roles[i].Name == role {
			return p.Roles[i].Op(kind)
		}
	}
	return OpStats{}, false
}

// roleAggs are a phase's aggregates per role: each worker's samples are
// recorded again in its role's set.
type roleAggs struct {
	plan *workload.Plan
	sets []*aggSet // by role
}

func newRoleAggs(p *workload.Plan) *roleAggs {
	if len(p.Roles) == 0 {
		return nil
	}
	ra := &roleAggs{plan: p}
	for range p.Roles {
		ra.sets = append(ra.sets, &aggSet{})
	}
	return ra
}

// add records worker's samples in its role's set.
func (ra *roleAggs) add(ps *phaseState, worker int, samples []workload.Sample) {
	if ra == nil {
		return
	}
	set := ra.sets[ra.plan.RoleOf(worker)]
	set.mu.Lock()
	defer set.mu.Unlock()
	set.record(ps, samples)
}

// build returns each role's figures over the phase's workers ws (its
// shard's).
func (ra *roleAggs) build(ps *phaseState, ws []Worker) []Role {
	if ra == nil {
		return nil
	}
	var out []Role
	for i, set := range ra.sets {
		r := Role{Name: ra.plan.Roles[i].Name}
		var mine []Worker
		for _, w := range ws {
			if ra.plan.RoleOf(w.ID) == i {
				r.Workers = append(r.Workers, w.ID)
				mine = append(mine, w)
			}
		}
		secs := roleSeconds(mine)
		for op, a := range set.aggs {
			if a != nil {
				r.Ops = append(r.Ops, a.stats(ps.tl.names[op], secs))
			}
		}
		r.Total = ps.total(set.aggs).stats("total", secs)
		r.WorkerSpread = spread(mine)
		out = append(out, r)
	}
	return out
}

// mergeRoles merges the shards' figures of each role in phase pi (nil
// for a plan without roles): its workers, its kinds' histograms and
// counts, its total and its workers' spread (ws, the merged phase's
// workers).
func mergeRoles(shards []*Result, pi int, ws []Worker) ([]Role, error) {
	p := shards[0].Plan
	var out []Role
	for i, pr := range p.Roles {
		r := Role{Name: pr.Name}
		aggs, kinds := map[string]*opAgg{}, []string(nil)
		for _, sh := range shards {
			if len(sh.Phases[pi].Roles) <= i {
				continue
			}
			sr := sh.Phases[pi].Roles[i]
			r.Workers = append(r.Workers, sr.Workers...)
			for _, o := range sr.Ops {
				a, err := aggOf(o)
				if err != nil {
					return nil, fmt.Errorf("role %s: %w", pr.Name, err)
				}
				if aggs[o.Kind] == nil {
					aggs[o.Kind], kinds = a, append(kinds, o.Kind)
					continue
				}
				aggs[o.Kind].merge(a)
			}
		}
		slices.Sort(r.Workers)
		mine := slices.DeleteFunc(slices.Clone(ws), func(w Worker) bool { return !slices.Contains(r.Workers, w.ID) })
		wall := roleSeconds(mine)
		total := newOpAgg(p.Timed(), p.Busy == workload.BusyRetry)
		for _, k := range kinds {
			r.Ops = append(r.Ops, aggs[k].stats(k, wall))
			if p.IsDataKind(k) {
				total.merge(aggs[k])
			}
		}
		r.Total = total.stats("total", wall)
		r.WorkerSpread = spread(mine)
		out = append(out, r)
	}
	return out, nil
}

// roleSeconds is how long a role's workers ran: until the last one's last
// completion.
func roleSeconds(ws []Worker) float64 {
	var secs float64
	for _, w := range ws {
		secs = max(secs, w.Seconds)
	}
	return secs
}
