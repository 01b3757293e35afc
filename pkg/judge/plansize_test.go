package judge

import (
	"strings"
	"testing"
	"time"

	"github.com/gobench/gobench/pkg/workload"
)

// The ops a gated percentile needs are said against what the plan will
// give, before it runs, with what would give enough.
func TestPlanSizes(t *testing.T) {
	plan := func(ops int64, procs int, dur time.Duration) *workload.Plan {
		p := workload.DefaultPlan() // read 95, upsert 5
		p.Procs, p.Goroutines = procs, 1
		p.Phases[0].Ops, p.Phases[0].Duration = ops, workload.Duration(dur)
		return &p
	}
	// A sql workload's mix holds its scripts' weights, not shares of 100:
	// 9 and 1 deal 90% and 10%.
	scripts := func(ops int64, procs int) *workload.Plan {
		p := plan(ops, procs, 0)
		p.Phases[0].Mix = workload.Mix{{Op: workload.ScriptOp(0), Percent: 9}, {Op: workload.ScriptOp(1), Percent: 1}}
		return p
	}
	for _, tc := range []struct {
		name  string
		cells []*workload.Plan
		gates []string
		want  []string
	}{
		{"too few upserts", []*workload.Plan{plan(400, 2, 0)}, []string{"upsert p99 <= 1s"},
			[]string{"upsert p99: needs ≥ 1,000 upsert ops a run, the plan gives 40: raise --queries to 10000, or gate p50"}},
		{"enough reads", []*workload.Plan{plan(2000, 2, 0)}, []string{"read p99 <= 1s"},
			[]string{"read p99: needs ≥ 1,000 read ops a run, the plan gives 3,800"}},
		{"the fewest cell decides", []*workload.Plan{plan(2000, 2, 0), plan(500, 2, 0)}, []string{"read p99 <= 1s"},
			[]string{"read p99: needs ≥ 1,000 read ops a run, the plan gives 950: raise --queries to 530, or gate p90"}},
		{"any percentile, once a metric", []*workload.Plan{plan(400, 2, 0)}, []string{"read p99.99 < 1s", "wal: read p99.99 < 2s"},
			[]string{"read p99.99: needs ≥ 100,000 read ops a run, the plan gives 760: raise --queries to 53000, or gate p90"}},
		{"total", []*workload.Plan{plan(400, 2, 0)}, []string{"total p99 <= 1s"},
			[]string{"total p99: needs ≥ 1,000 total ops a run, the plan gives 800: raise --queries to 500, or gate p90"}},
		{"scripts by weight", []*workload.Plan{scripts(600, 4)}, []string{"script#0 p99 <= 1s", "script#1 p99 <= 1s"},
			[]string{"script#0 p99: needs ≥ 1,000 script#0 ops a run, the plan gives 2,160",
				"script#1 p99: needs ≥ 1,000 script#1 ops a run, the plan gives 240: raise --queries to 2500, or gate p90"}},
		{"a set time", []*workload.Plan{plan(0, 2, 2*time.Second)}, []string{"upsert p99 <= 1s"},
			[]string{"upsert p99: needs ≥ 1,000 upsert ops a run; the plan runs for 2s, so the count shows only once it ran"}},
		{"no percentile", []*workload.Plan{plan(400, 2, 0)}, []string{"upsert ops/s >= 10", "read mean <= 1ms", "read max <= 1s"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var es []Expectation
			for _, g := range tc.gates {
				e, err := ParseExpectation(g)
				if err != nil {
					t.Fatal(err)
				}
				es = append(es, e)
			}
			got := PlanSizes(tc.cells, es)
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("PlanSizes =\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
}
