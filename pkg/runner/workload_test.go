package runner

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/store/nullstore"
	"github.com/gobench/gobench/pkg/workload"
)

// countingCollector counts samples per worker and op, and keeps each
// worker's op sequence.
type countingCollector struct {
	mu   sync.Mutex
	ops  map[int][]workload.Op
	done map[int]workload.WorkerStats
}

type countingSink struct {
	c      *countingCollector
	worker int
	ops    []workload.Op
	last   time.Duration
}

func (c *countingCollector) Sink(worker, _ int) workload.Sink {
	return &countingSink{c: c, worker: worker}
}

func (s *countingSink) Record(smp workload.Sample) error {
	if smp.Start < s.last {
		panic("samples out of order")
	}
	s.last = smp.Start
	s.ops = append(s.ops, smp.Op)
	return nil
}

func (s *countingSink) Done(st workload.WorkerStats) error {
	s.c.mu.Lock()
	defer s.c.mu.Unlock()
	s.c.ops[s.worker] = s.ops
	s.c.done[s.worker] = st
	return nil
}

// Run deals every worker its own lottery, op for op, and reports the
// sample count in Done.
func TestRunDealsTheLottery(t *testing.T) {
	t.Parallel()
	p := testPlan(1)
	p.Goroutines = 5
	p.Phases[0].Ops = 1000
	c := &countingCollector{ops: map[int][]workload.Op{}, done: map[int]workload.WorkerStats{}}
	if err := Run(context.Background(), p, nullstore.Driver{}, c); err != nil {
		t.Fatal(err)
	}
	if len(c.ops) != 5 {
		t.Fatalf("%d workers reported, want 5", len(c.ops))
	}
	for w, ops := range c.ops {
		want := dealOps(p, 0, w, 1000)
		if len(ops) != len(want) || c.done[w].Samples != 1000 {
			t.Fatalf("worker %d ran %d ops (reported %d), want 1000", w, len(ops), c.done[w].Samples)
		}
		for i := range ops {
			if ops[i] != want[i].op {
				t.Fatalf("worker %d op %d = %v, lottery dealt %v", w, i, ops[i], want[i].op)
			}
		}
	}
}

// With batches, each transaction's begin and commit are recorded as
// markers around the data ops.
func TestRunBatches(t *testing.T) {
	t.Parallel()
	p := testPlan(1)
	p.Phases[0].Ops = 25
	p.Phases[0].Batch = 10
	c := &countingCollector{ops: map[int][]workload.Op{}, done: map[int]workload.WorkerStats{}}
	if err := Run(context.Background(), p, nullstore.Driver{}, c); err != nil {
		t.Fatal(err)
	}
	counts := map[workload.Op]int{}
	for _, op := range c.ops[0] {
		counts[op]++
	}
	if counts[workload.OpBegin] != 3 || counts[workload.OpCommit] != 3 || counts[workload.OpRead]+counts[workload.OpUpsert] != 25 {
		t.Fatalf("counts = %v, want 3 begins, 3 commits, 25 data ops", counts)
	}
	if c.ops[0][0] != workload.OpBegin || c.ops[0][len(c.ops[0])-1] != workload.OpCommit {
		t.Errorf("sequence does not open with begin and close with commit: %v", c.ops[0])
	}
}

// cancelAfter is a sink that cancels the run once it has recorded n
// samples: a cancellation at a known point of the run, not of the clock.
type cancelAfter struct {
	workload.Sink
	n      int
	cancel context.CancelFunc
}

func (s *cancelAfter) Record(smp workload.Sample) error {
	if s.n--; s.n == 0 {
		s.cancel()
	}
	return s.Sink.Record(smp)
}

type cancellingCollector struct {
	*countingCollector
	n      int
	cancel context.CancelFunc
}

func (c cancellingCollector) Sink(worker, phase int) workload.Sink {
	return &cancelAfter{Sink: c.countingCollector.Sink(worker, phase), n: c.n, cancel: c.cancel}
}

// A duration-bound phase stops on time (a closed loop checks the clock
// after each op, so it runs at least one), and cancellation stops workers
// between ops with their samples delivered.
func TestRunDurationAndCancel(t *testing.T) {
	t.Parallel()
	p := testPlan(1)
	p.Phases[0].Ops = 0
	p.Phases[0].Duration = workload.Duration(50 * time.Millisecond)
	c := &countingCollector{ops: map[int][]workload.Op{}, done: map[int]workload.WorkerStats{}}
	if err := Run(context.Background(), p, nullstore.Driver{}, c); err != nil {
		t.Fatal(err)
	}
	st := c.done[0]
	if st.Samples == 0 || st.Samples != int64(len(c.ops[0])) || st.End < 50*time.Millisecond {
		t.Fatalf("duration run: %+v with %d samples", st, len(c.ops[0]))
	}

	p.Phases[0].Duration = workload.Duration(time.Hour)
	ctx, cancel := context.WithCancel(context.Background())
	c = &countingCollector{ops: map[int][]workload.Op{}, done: map[int]workload.WorkerStats{}}
	err := Run(ctx, p, nullstore.Driver{}, cancellingCollector{countingCollector: c, n: 100, cancel: cancel})
	if err != context.Canceled {
		t.Fatalf("cancelled run returned %v, want context.Canceled", err)
	}
	if st := c.done[0]; st.Samples < 100 || st.Samples != int64(len(c.ops[0])) {
		t.Fatalf("cancelled run: Done %+v, %d samples recorded", st, len(c.ops[0]))
	}
}

// A mix op the engine cannot do is refused before anything runs.
func TestRunRefusesMissingCapability(t *testing.T) {
	t.Parallel()
	p := testPlan(1)
	p.Phases[0].Mix, _ = workload.ParseMix("read=50,update=50")
	c := &countingCollector{ops: map[int][]workload.Op{}, done: map[int]workload.WorkerStats{}}
	p.Driver = getPutOnly{}.Name()
	err := Run(context.Background(), p, getPutOnly{}, c)
	if err == nil || !strings.Contains(err.Error(), "cannot do update") {
		t.Fatalf("Run = %v, want a refusal naming update", err)
	}
	if len(c.ops) != 0 {
		t.Fatal("ops ran despite the refusal")
	}
}

// getPutOnly is an engine with only the required operations.
type getPutOnly struct{}

func (getPutOnly) Name() string { return "getput" }

func (getPutOnly) Open(context.Context, store.Config) (store.Store, error) {
	return getPutStore{}, nil
}

type getPutStore struct{}

func (getPutStore) Init(context.Context) error { return nil }

func (getPutStore) Conn(context.Context) (store.Conn, error) { return getPutConn{}, nil }

func (getPutStore) Close() error { return nil }

type getPutConn struct{}

func (getPutConn) Get(_ uint64, dst []byte) ([]byte, error) { return dst, store.ErrNotFound }

func (getPutConn) Put(uint64, []byte) error { return nil }

func (getPutConn) Close() error { return nil }

// Run executes an each-key phase to its end with no op count: every key
// of the share, once.
func TestRunEachPhase(t *testing.T) {
	t.Parallel()
	p := eachPlan(3, 1000, workload.OpInsert, workload.OrderRandom)
	c := &countingCollector{ops: map[int][]workload.Op{}, done: map[int]workload.WorkerStats{}}
	if err := Run(context.Background(), p, nullstore.Driver{}, c); err != nil {
		t.Fatal(err)
	}
	var n int64
	for _, st := range c.done {
		n += st.Samples
	}
	if n != 1000 {
		t.Fatalf("ran %d inserts, want 1000", n)
	}
}

// fullAfter is a null-like engine that can batch and whose nth write fails
// with class full; it counts begins, commits and rollbacks.
type fullAfter struct {
	n                            int
	writes, begins, commits, rbs int
}

func (f *fullAfter) Name() string { return "fullafter" }

func (f *fullAfter) Open(context.Context, store.Config) (store.Store, error) { return f, nil }

func (f *fullAfter) Init(context.Context) error { return nil }

func (f *fullAfter) Conn(context.Context) (store.Conn, error) { return f, nil }

func (f *fullAfter) Close() error { return nil }

func (f *fullAfter) Get(_ uint64, dst []byte) ([]byte, error) { return dst, nil }

func (f *fullAfter) Put(uint64, []byte) error {
	if f.writes++; f.writes == f.n {
		return store.Wrap(store.Full, errors.New("no space left"))
	}
	return nil
}

func (f *fullAfter) Begin() error { f.begins++; return nil }

func (f *fullAfter) Commit() error { f.commits++; return nil }

func (f *fullAfter) Rollback() error { f.rbs++; return nil }

// Under --on-error continue, a failed write inside a batch rolls the batch
// back and the next op opens a new one; under stop, the run ends with an
// error naming the op.
func TestBatchErrorPolicy(t *testing.T) {
	t.Parallel()
	p := eachPlan(1, 100, workload.OpInsert, workload.OrderSequential)
	p.Phases[0].Batch = 10
	p.OnError = workload.OnErrorContinue
	f := &fullAfter{n: 15}
	c := &countingCollector{ops: map[int][]workload.Op{}, done: map[int]workload.WorkerStats{}}
	p.Driver = f.Name()
	if err := Run(context.Background(), p, f, c); err != nil {
		t.Fatal(err)
	}
	// 100 inserts: the 15th fails, so its batch (inserts 11-15) rolls back
	// and inserts 16-100 run in new batches: 16-25, …, 96-100.
	if f.writes != 100 || f.rbs != 1 || f.begins != 11 || f.commits != 10 {
		t.Fatalf("writes %d, begins %d, commits %d, rollbacks %d; want 100, 11, 10, 1", f.writes, f.begins, f.commits, f.rbs)
	}

	p.OnError = workload.OnErrorStop
	f = &fullAfter{n: 15}
	p.Driver = f.Name()
	err := Run(context.Background(), p, f, &countingCollector{ops: map[int][]workload.Op{}, done: map[int]workload.WorkerStats{}})
	if !errors.Is(err, workload.ErrOp) || !strings.Contains(err.Error(), "insert") || f.writes != 15 {
		t.Fatalf("stop policy: err %v after %d writes", err, f.writes)
	}
}

// A CRUD run inserts, queries, updates, scans and deletes every key, and
// the store is empty at the end.
func TestCRUDPhases(t *testing.T) {
	t.Parallel()
	p := testPlan(2)
	p.Keys.Count, p.Preload = 1000, 0
	p.Phases = workload.CRUD(2, workload.OrderRandom, 10, true)
	if err := p.Validate(); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, ph := range p.Phases {
		names = append(names, ph.Name)
	}
	if got := strings.Join(names, ","); got != "insert,query 1,query 2,update 1,update 2,scan,delete" {
		t.Fatalf("phases = %s", got)
	}
	if p.Phases[1].Batch != 1 || p.Phases[3].Batch != 10 {
		t.Errorf("reads should run alone, writes in batches: %+v", p.Phases)
	}
	c := &countingCollector{ops: map[int][]workload.Op{}, done: map[int]workload.WorkerStats{}}
	if err := Run(context.Background(), p, nullstore.Driver{}, c); err != nil {
		t.Fatal(err)
	}
}
