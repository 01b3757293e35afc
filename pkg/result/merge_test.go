package result

import (
	"strings"
	"testing"
	"time"

	"github.com/gobench/gobench/pkg/deal"
	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/workload"
)

// shardRun records, for the workers of the given shard (nil: all), the
// same synthetic samples a worker always produces: worker w's op i has a
// latency that depends only on (w, i).
func shardRun(t *testing.T, shard *workload.Shard) *Result {
	t.Helper()
	return shardRunOf(t, plan(4), shard)
}

// shardRunOf is shardRun of plan p.
func shardRunOf(t *testing.T, p *workload.Plan, shard *workload.Shard) *Result {
	t.Helper()
	p.Shard = shard
	b := NewBuilder(p)
	for _, w := range p.WorkerIDs() {
		s := b.Sink(w, 0)
		l := deal.NewLottery(p, 0, w)
		for i := range 500 {
			op, _ := l.Next()
			class := store.OK
			if i%97 == 0 {
				class = store.Busy
			}
			lat := time.Duration((w+1)*(i%50+1)) * time.Microsecond
			rec(t, s, op, class, time.Duration(i)*time.Millisecond, lat)
		}
		if err := s.Done(workload.WorkerStats{Worker: w, Samples: 500}); err != nil {
			t.Fatal(err)
		}
	}
	r := b.Result()
	r.Command = "mix"
	return r
}

// The merge of a plan's shards equals one run of all its workers, in
// counts, errors and histogram percentiles.
func TestMergeShardsEqualsUnion(t *testing.T) {
	t.Parallel()
	a := shardRun(t, &workload.Shard{Index: 0, Count: 2})
	b := shardRun(t, &workload.Shard{Index: 1, Count: 2})
	whole := shardRun(t, nil)
	if n := len(a.Phases[0].Workers); n != 2 {
		t.Fatalf("shard 1/2 reports %d workers, want 2 (workers 0 and 2)", n)
	}
	m, err := MergeShards([]*Result{b, a})
	if err != nil {
		t.Fatal(err)
	}
	if !m.Complete || m.Plan.Shard != nil {
		t.Fatalf("merged: complete=%v shard=%v problems=%v", m.Complete, m.Plan.Shard, m.Problems)
	}
	got, want := m.Phases[0], whole.Phases[0]
	for _, w := range append([]OpStats{want.Total}, want.Ops...) {
		g := got.Total
		if w.Kind != "total" {
			g, _ = got.Op(w.Kind)
		}
		if g.Count != w.Count || g.Errors != w.Errors || g.NotFound != w.NotFound {
			t.Errorf("%s: merged %d ops, errors %+v; whole run %d, %+v", w.Kind, g.Count, g.Errors, w.Count, w.Errors)
		}
		if g.P50Micros != w.P50Micros || g.P99Micros != w.P99Micros || g.P999Micros != w.P999Micros || g.MaxMicros != w.MaxMicros || g.MeanMicros != w.MeanMicros {
			t.Errorf("%s: merged p50/p99/p99.9/max %v/%v/%v/%v, whole run %v/%v/%v/%v", w.Kind,
				g.P50Micros, g.P99Micros, g.P999Micros, g.MaxMicros, w.P50Micros, w.P99Micros, w.P999Micros, w.MaxMicros)
		}
		gh, _ := g.DecodeHistogram()
		wh, _ := w.DecodeHistogram()
		if !gh.Equals(wh) {
			t.Errorf("%s: merged histogram differs from the whole run's", w.Kind)
		}
	}
	if len(got.Workers) != 4 || got.Workers[1].ID != 1 {
		t.Errorf("merged workers = %+v", got.Workers)
	}
	if got.Timeline[0].Ops[0].Count+got.Timeline[0].Ops[1].Count != want.Timeline[0].Ops[0].Count+want.Timeline[0].Ops[1].Count {
		t.Errorf("timeline counts differ: %+v vs %+v", got.Timeline[0], want.Timeline[0])
	}
}

func TestMergeShardsRefuses(t *testing.T) {
	t.Parallel()
	a := shardRun(t, &workload.Shard{Index: 0, Count: 2})
	if _, err := MergeShards([]*Result{a, a}); err == nil {
		t.Error("a shard merged with itself")
	}
	other := shardRun(t, &workload.Shard{Index: 1, Count: 2})
	other.Plan.Seed = 2
	if _, err := MergeShards([]*Result{a, other}); err == nil {
		t.Error("shards of different workloads merged")
	}
	m, err := MergeShards([]*Result{a})
	if err != nil {
		t.Fatal(err)
	}
	if m.Complete || len(m.Problems) != 1 || m.Problems[0] != "shard 2/2 is missing" {
		t.Errorf("a lone shard: complete=%v problems=%v", m.Complete, m.Problems)
	}
}

// Merging suites unites cells of different settings and keeps repeats.
func TestMergeSuites(t *testing.T) {
	t.Parallel()
	wal, _ := NewSuite("mix", "interleaved", []*Result{fakeRun(t, "wal", "full", 1, 10, time.Microsecond)}, "")
	rb, _ := NewSuite("mix", "interleaved", []*Result{fakeRun(t, "rollback", "full", 1, 10, time.Millisecond), fakeRun(t, "rollback", "full", 1, 10, time.Millisecond)}, "")
	m, err := Merge([]*Suite{rb, wal})
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Cells) != 2 || len(m.Cells[0].Runs) != 2 || m.Varied[0] != "journal" {
		t.Fatalf("merged: %d cells, varied %v", len(m.Cells), m.Varied)
	}
}

// A merged run keeps each shard's origin, in shard order, and warns when
// shards on one host ran against different database files.
func TestMergeKeepsOrigins(t *testing.T) {
	t.Parallel()
	t0 := time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC)
	shard := func(i int, host, db string) *Result {
		r := shardRun(t, &workload.Shard{Index: i, Count: 2})
		r.Environment.Host, r.Plan.Store.Path, r.StartedAt = host, db, t0.Add(time.Duration(i)*time.Second)
		return r
	}
	for _, tt := range []struct {
		name   string
		shards []*Result
		warn   string
	}{
		{"one file", []*Result{shard(1, "ci-1", "/d/x.db"), shard(0, "ci-1", "/d/x.db")}, ""},
		{"two hosts", []*Result{shard(1, "ci-2", "/d/x.db"), shard(0, "ci-1", "/d/x.db")}, ""},
		{"two files on one host", []*Result{shard(1, "ci-1", "/d/b.db"), shard(0, "ci-1", "/d/a.db")},
			"shards on ci-1 ran against 2 different database files (/d/a.db, /d/b.db): each file saw only its own shard's workers"},
	} {
		m, err := MergeShards(tt.shards)
		if err != nil {
			t.Fatal(err)
		}
		if len(m.Shards) != 2 || m.Shards[0].Shard != "1/2" || m.Shards[1].Shard != "2/2" {
			t.Fatalf("%s: origins %+v", tt.name, m.Shards)
		}
		o := m.Shards[0]
		if !o.StartedAt.Equal(t0) || o.Host != tt.shards[1].Environment.Host || o.Database != tt.shards[1].Plan.Store.Path || len(o.Workers) != 2 || o.Workers[0] != 0 || o.Workers[1] != 2 {
			t.Errorf("%s: shard 1/2's origin %+v", tt.name, o)
		}
		switch {
		case tt.warn == "" && len(m.Warnings) > 0:
			t.Errorf("%s: warnings %q", tt.name, m.Warnings)
		case tt.warn != "" && (len(m.Warnings) != 1 || !strings.HasPrefix(m.Warnings[0], tt.warn)):
			t.Errorf("%s: warnings %q, want %q", tt.name, m.Warnings, tt.warn)
		}
	}
}

// Merged shards sum their CPU time and divide it by the merged ops; a shard
// without it, or of another scope, leaves the merge without CPU time.
func TestMergeCPU(t *testing.T) {
	t.Parallel()
	shard := func(c *CPU) *Result { return &Result{Phases: []Phase{{CPU: c}}} }
	a := &CPU{Scope: CPUWorkers, Processes: 2, UserSeconds: 1, SystemSeconds: 0.5, MicrosPerOp: 99}
	b := &CPU{Scope: CPUWorkers, Processes: 1, UserSeconds: 0.25, SystemSeconds: 0.25, MicrosPerOp: 99}
	got := mergeCPU([]*Result{shard(a), shard(b)}, 0, 1_000_000)
	want := CPU{Scope: CPUWorkers, Processes: 3, UserSeconds: 1.25, SystemSeconds: 0.75, MicrosPerOp: 2}
	if got == nil || *got != want {
		t.Errorf("merged %+v, want %+v", got, want)
	}
	other := &CPU{Scope: CPUProcess, Processes: 1, UserSeconds: 1}
	for _, shards := range [][]*Result{{shard(a), shard(nil)}, {shard(a), shard(other)}} {
		if got := mergeCPU(shards, 0, 10); got != nil {
			t.Errorf("merged %+v from shards that do not all have it alike", got)
		}
	}

	// Their coordinators' times add up too, when every shard has one.
	ca, cb := *a, *b
	ca.Coordinator = &CPUTime{UserSeconds: 0.5, SystemSeconds: 0.25, MicrosPerOp: 99}
	cb.Coordinator = &CPUTime{UserSeconds: 0.125, SystemSeconds: 0.125, MicrosPerOp: 99}
	got = mergeCPU([]*Result{shard(&ca), shard(&cb)}, 0, 1_000_000)
	if got == nil || got.Coordinator == nil || *got.Coordinator != (CPUTime{UserSeconds: 0.625, SystemSeconds: 0.375, MicrosPerOp: 1}) {
		t.Errorf("merged coordinators %+v", got)
	}
	if got := mergeCPU([]*Result{shard(&ca), shard(b)}, 0, 10); got == nil || got.Coordinator != nil {
		t.Errorf("a shard without its coordinator's time: merged %+v", got)
	}
}

// Shards that lie are refused: two that claim the same workers (a shard
// file copied and relabelled), and a shard file with a negative count or
// a wall time no run has, which does not even read.
func TestMergeRefusesLyingShards(t *testing.T) {
	t.Parallel()
	a := shardRun(t, &workload.Shard{Index: 0, Count: 2})
	b := shardRun(t, &workload.Shard{Index: 0, Count: 2})
	b.Plan.Shard = &workload.Shard{Index: 1, Count: 2} // shard 1/2's workers, labelled 2/2
	if _, err := MergeShards([]*Result{a, b}); err == nil || !strings.Contains(err.Error(), "is in two shards") {
		t.Errorf("shards with the same workers: %v", err)
	}
	for _, tt := range []struct {
		name string
		lie  func(r *Result)
		want string
	}{
		{"negative worker ops", func(r *Result) { r.Phases[0].Workers[0].Ops = -5 }, "worker 0: a negative count, -5"},
		{"negative not found", func(r *Result) { r.Phases[0].Ops[0].NotFound = -1 }, "a negative count, -1"},
		{"negative errors", func(r *Result) { r.Phases[0].Total.Errors.Busy = -3 }, "total: a negative count, -3"},
		{"absurd wall time", func(r *Result) { r.Phases[0].WallSeconds = 1e308 }, "wall time 1e+308 s is no run's"},
		{"negative wall time", func(r *Result) { r.Phases[0].WallSeconds = -1 }, "wall time -1 s is no run's"},
		{"a worker twice", func(r *Result) { r.Phases[0].Workers[1].ID = r.Phases[0].Workers[0].ID }, "is there twice"},
	} {
		r := shardRun(t, &workload.Shard{Index: 0, Count: 2})
		tt.lie(r)
		var b strings.Builder
		if err := r.Write(&b); err != nil {
			t.Fatal(err)
		}
		if _, err := Read(strings.NewReader(b.String())); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: %v, want %q", tt.name, err, tt.want)
		}
	}
}
