package deal

import (
	"testing"

	"github.com/gobench/gobench/pkg/workload"
)

// Appends take keys no other append of the plan takes, whichever worker
// (or process: a worker's keys depend on its id alone), phase or order;
// above every key space; in increasing order per worker by default.
func TestAppendKeysUnique(t *testing.T) {
	for _, tt := range []struct {
		name, order string
		increasing  bool
	}{
		{"sequential", "", true},
		{"random", workload.AppendRandom, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p := workload.DefaultPlan()
			p.Driver, p.Procs, p.Goroutines, p.AppendOrder = "null", 3, 2, tt.order
			p.Phases = []workload.Phase{
				{Name: "a", Mix: workload.Mix{{Op: workload.OpAppend, Percent: 70}, {Op: workload.OpRead, Percent: 30}}, Ops: 500, Batch: 1},
				{Name: "b", Mix: workload.Mix{{Op: workload.OpAppend, Percent: 100}}, Ops: 500, Batch: 1},
			}
			if err := p.Validate(); err != nil {
				t.Fatal(err)
			}
			seen := map[uint64]string{}
			sorted := true
			for phase := range p.Phases {
				for _, w := range p.WorkerIDs() {
					l := NewLottery(&p, phase, w)
					var last uint64
					appends := 0
					for range p.Phases[phase].Ops {
						op, key := l.Next()
						if op != workload.OpAppend {
							continue
						}
						appends++
						who := l.plan.Phases[phase].Name + "/" + string(rune('0'+w))
						if prev, dup := seen[key]; dup {
							t.Fatalf("key %d appended by %s and %s", key, prev, who)
						}
						seen[key] = who
						if !workload.IsAppended(key) || key < p.Keys.Count {
							t.Fatalf("appended key %d lies in the key space", key)
						}
						sorted = sorted && key > last
						last = key
					}
					if appends == 0 {
						t.Fatalf("worker %d dealt no appends in phase %d", w, phase)
					}
				}
			}
			if sorted != tt.increasing {
				t.Errorf("each worker's keys increasing: %v, want %v", sorted, tt.increasing)
			}
		})
	}
}
