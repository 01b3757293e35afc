package judge

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/gobench/gobench/pkg/workload"
)

// PlanSizes says, before anything runs, whether the plan's runs will hold
// ops enough for each percentile gate to be read from a run's own
// samples: one line a gated percentile, naming the ops of its kind a run
// needs (samplesFor), the fewest a cell's run will have, and, when that is
// too few, what would give enough ("read p99: needs ≥ 1,000 read ops a
// run, the plan gives 800: raise --queries to 1,300, or gate p95"). A
// gate whose figure is no percentile says nothing; a run of a set time,
// or of a workload whose count of a kind is not fixed in advance, is said
// to show its count only once run. These are the same rule and words the
// verdict uses when a run fell short (sampleRule), said while the plan
// can still change.
func PlanSizes(cells []*workload.Plan, expects []Expectation) []string {
	var out []string
	seen := map[string]bool{}
	for _, e := range expects {
		f := e.Metric.Figure()
		if f == nil || !f.PerKind || f.Quantile <= 0 || f.Quantile >= 100 {
			continue
		}
		m := e.Metric
		if seen[m.String()] {
			continue
		}
		seen[m.String()] = true
		out = append(out, planSize(m, f.Quantile, cells))
	}
	return out
}

// planSize is PlanSizes' line for one gated percentile q of metric m.
func planSize(m Metric, q float64, cells []*workload.Plan) string {
	need := samplesFor(q)
	head := fmt.Sprintf("%s: needs ≥ %s %s ops a run", m, thousands(need), m.Kind)
	gives, fewest := int64(math.MaxInt64), (*workload.Plan)(nil)
	for _, p := range cells {
		n, known := plannedOps(p, m.Kind)
		if !known {
			return head + unknownCount(p)
		}
		if n < gives {
			gives, fewest = n, p
		}
	}
	if fewest == nil {
		return head
	}
	if gives >= need {
		return fmt.Sprintf("%s, the plan gives %s", head, thousands(gives))
	}
	msg := fmt.Sprintf("%s, the plan gives %s", head, thousands(gives))
	if more := moreOps(*fewest, float64(need)/float64(max(gives, 1))); gives > 0 && more != "" {
		msg += ": " + more
	}
	for _, p := range lowerPercentiles(q) {
		if samplesFor(p.Quantile) <= gives {
			return msg + ", or gate " + p.Name
		}
	}
	return msg
}

// unknownCount says why a plan's count of a kind is known only once it
// ran.
func unknownCount(p *workload.Plan) string {
	if len(p.Phases) > 0 && p.Phases[0].Duration > 0 {
		return fmt.Sprintf("; the plan runs for %v, so the count shows only once it ran", time.Duration(p.Phases[0].Duration))
	}
	return "; this workload's count of them shows only once it ran"
}

// plannedOps is how many ops of kind (or of every kind, "total") the
// measured phase of p deals in a run, when its lottery deals a fixed count
// (--queries): the ops of every worker times the kind's share of the mix,
// which a deck deals exactly. known is false for a run of a set time and
// for other ways of dealing.
func plannedOps(p *workload.Plan, kind string) (n int64, known bool) {
	if len(p.Phases) == 0 {
		return 0, false
	}
	ph := p.Phases[0]
	if ph.Access != workload.AccessLottery || ph.Ops <= 0 || ph.Duration > 0 || len(ph.Mix) == 0 {
		return 0, false
	}
	names := p.OpNames()
	mix, workers := ph.Mix, p.Workers()
	if role, k, ok := strings.Cut(kind, " "); ok { // a role's kind: its mix over its workers
		i := slices.IndexFunc(p.Roles, func(r workload.Role) bool { return r.Name == role })
		if i < 0 {
			return 0, true
		}
		mix, workers, kind = p.Roles[i].Mix, p.Roles[i].Workers, k
	}
	// A key-value mix's shares sum to 100; a sql mix's are the scripts'
	// weights (lookup@9, login@1), which the lottery deals in proportion
	// to their sum.
	var share, sum float64
	for _, w := range mix {
		sum += w.Percent
		if kind == "total" || names[w.Op] == kind {
			share += w.Percent
		}
	}
	if sum <= 0 {
		return 0, false
	}
	return int64(math.Floor(float64(ph.Ops) * float64(workers) * share / sum)), true
}
