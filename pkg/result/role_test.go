package result

import (
	"testing"
	"time"

	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/workload"
)

// Each role's figures are its workers' samples alone; a gate's name for
// them ("reader read") reads them from the phase.
func TestBuilderRoles(t *testing.T) {
	t.Parallel()
	p := plan(3)
	p.Roles = []workload.Role{
		{Name: "writer", Workers: 2, Mix: workload.Mix{{Op: workload.OpAppend, Percent: 100}}},
		{Name: "reader", Workers: 1, Mix: workload.Mix{{Op: workload.OpRead, Percent: 100}}},
	}
	p.Phases[0].Mix = workload.RolesMix(p.Roles)
	b := NewBuilder(p)
	for w, n := range []int{7, 5, 11} {
		s := b.Sink(w, 0)
		for i := range n {
			op, lat := workload.OpAppend, time.Millisecond
			if w == 2 {
				op, lat = workload.OpRead, time.Microsecond
			}
			class := store.OK
			if w == 1 && i == 0 {
				class = store.Busy
			}
			rec(t, s, op, class, time.Duration(i)*time.Millisecond, lat)
		}
		if err := s.Done(workload.WorkerStats{Worker: w, Samples: int64(n)}); err != nil {
			t.Fatal(err)
		}
	}
	ph := b.Result().Phases[0]
	if len(ph.Roles) != 2 {
		t.Fatalf("roles %+v", ph.Roles)
	}
	for _, tt := range []struct {
		kind          string
		count, errors int64
	}{
		{"writer append", 12, 1},
		{"writer total", 12, 1},
		{"reader read", 11, 0},
		{"reader total", 11, 0},
	} {
		o, ok := ph.Op(tt.kind)
		if !ok || o.Count != tt.count || o.Errors.Total != tt.errors {
			t.Errorf("%s: %+v, %v; want %d ops, %d failed", tt.kind, o, ok, tt.count, tt.errors)
		}
	}
	if _, ok := ph.Op("reader append"); ok {
		t.Error("the reader role has append ops")
	}
	if w := ph.Roles[0].Workers; len(w) != 2 || w[0] != 0 || w[1] != 1 {
		t.Errorf("writer workers %v", w)
	}
	// Each role's rate is over the time it ran: the writers' until
	// worker 0's last completion (7 ms), the reader's until its own (11 ms).
	for i, w := range []int{0, 2} {
		if r, secs := ph.Roles[i], ph.Workers[w].Seconds; secs == 0 || r.Total.OpsPerSec != float64(r.Total.Count-r.Total.Errors.Total)/secs {
			t.Errorf("%s: %v ops/s, want %d ops that did not fail over %v s", r.Name, r.Total.OpsPerSec, r.Total.Count-r.Total.Errors.Total, secs)
		}
	}
	if r := ph.Roles[1]; r.Ops[0].P50Micros > 10 || r.WorkerSpread.MaxOpsPerSec == 0 {
		t.Errorf("reader %+v: its latencies are the writers'", r)
	}
}

// The merge of a plan's shards keeps each role's figures: those of one
// run of all its workers.
func TestMergeShardsRoles(t *testing.T) {
	t.Parallel()
	roles := func() *workload.Plan {
		p := plan(4)
		p.Roles = []workload.Role{
			{Name: "writer", Workers: 3, Mix: workload.Mix{{Op: workload.OpAppend, Percent: 100}}},
			{Name: "reader", Workers: 1, Mix: workload.Mix{{Op: workload.OpRead, Percent: 100}}},
		}
		p.Phases[0].Mix = workload.RolesMix(p.Roles)
		return p
	}
	a := shardRunOf(t, roles(), &workload.Shard{Index: 0, Count: 2})
	b := shardRunOf(t, roles(), &workload.Shard{Index: 1, Count: 2})
	whole := shardRunOf(t, roles(), nil)
	m, err := MergeShards([]*Result{b, a})
	if err != nil {
		t.Fatal(err)
	}
	got, want := m.Phases[0], whole.Phases[0]
	for _, kind := range []string{"writer append", "writer total", "reader read", "reader total"} {
		g, gok := got.Op(kind)
		w, wok := want.Op(kind)
		if !gok || !wok || w.Count == 0 || g.Count != w.Count || g.Errors != w.Errors || g.P99Micros != w.P99Micros || g.MaxMicros != w.MaxMicros {
			t.Errorf("%s: merged %+v (%v), whole run %+v (%v)", kind, g, gok, w, wok)
		}
	}
	if w := got.Roles[0].Workers; len(w) != 3 || w[2] != 2 {
		t.Errorf("merged writer workers %v", w)
	}
}
