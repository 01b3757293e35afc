package runner

import (
	"context"
	"testing"
	"time"

	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/store/nullstore"
	"github.com/gobench/gobench/pkg/store/storetest"
	"github.com/gobench/gobench/pkg/workload"
)

// flakyTx is the null store with transactions whose begins and commits
// fail busy on cue (by their 1-based number), counting every call and
// whether a transaction is open.
type flakyTx struct {
	store.Conn
	failBegin, failCommit map[int]bool
	begins, commits, rbs  int
	open                  bool
}

func (f *flakyTx) Begin() error {
	if f.begins++; f.failBegin[f.begins] {
		return store.Wrap(store.Busy, errBusy)
	}
	f.open = true
	return nil
}

func (f *flakyTx) Commit() error {
	f.open = false // committed or, on failure, rolled back: the Batcher contract
	if f.commits++; f.failCommit[f.commits] {
		return store.Wrap(store.Busy, errBusy)
	}
	return nil
}

func (f *flakyTx) Rollback() error { f.rbs++; f.open = false; return nil }
func (f *flakyTx) InTx() bool      { return f.open }

func runFlaky(t *testing.T, f *flakyTx, ops int64) []workload.Sample {
	t.Helper()
	p := testPlan(1)
	p.Preload = 0 // the flaky transactions are the phase's
	p.Phases[0].Ops = ops
	p.Phases[0].Batch = 5
	c := &captured{samples: map[int][]workload.Sample{}}
	drv := storetest.Wrap("flaky", nullstore.Driver{}, func(c store.Conn) store.Conn { f.Conn = c; return f })
	p.Driver = drv.Name()
	if err := Run(context.Background(), p, drv, c); err != nil {
		t.Fatal(err)
	}
	return c.samples[0]
}

// outcomes counts a sample sequence's data ops, begins and commits by
// class.
func outcomes(ss []workload.Sample) (data, begins, commits map[store.Class]int) {
	data, begins, commits = map[store.Class]int{}, map[store.Class]int{}, map[store.Class]int{}
	for _, s := range ss {
		switch {
		case s.Op == workload.OpBegin:
			begins[s.Class]++
		case s.Op == workload.OpCommit:
			commits[s.Class]++
		default:
			data[s.Class]++
		}
	}
	return data, begins, commits
}

// A batch's ops are acknowledged by its COMMIT alone: when the second of
// four commits fails busy, that batch's five ops fail busy too, recorded
// after the commit decided, and the others succeed.
func TestBatchAcknowledgedByCommit(t *testing.T) {
	t.Parallel()
	f := &flakyTx{failCommit: map[int]bool{2: true}}
	ss := runFlaky(t, f, 20)
	data, begins, commits := outcomes(ss)
	if data[store.OK]+data[store.NotFound] != 15 || data[store.Busy] != 5 {
		t.Errorf("data ops by class %v, want 15 acknowledged and 5 busy", data)
	}
	if begins[store.OK] != 4 || commits[store.OK] != 3 || commits[store.Busy] != 1 {
		t.Errorf("begins %v, commits %v; want 4 begins, 3 commits and one busy", begins, commits)
	}
	// The failed batch's ops come right before its commit, all busy.
	for i, s := range ss {
		if s.Op == workload.OpCommit && s.Class == store.Busy {
			for _, op := range ss[i-5 : i] {
				if op.Class != store.Busy || !op.Op.IsData() {
					t.Fatalf("the failed batch holds %+v", op)
				}
			}
		}
	}
	if f.open {
		t.Error("a transaction is open after the run")
	}
}

// A batch whose BEGIN fails runs nothing: the op dealt fails with the
// begin's class and the next op begins again; no commit follows a failed
// begin (before, it died with "no transaction is active").
func TestBatchBeginFails(t *testing.T) {
	t.Parallel()
	f := &flakyTx{failBegin: map[int]bool{2: true}}
	ss := runFlaky(t, f, 20)
	data, begins, commits := outcomes(ss)
	if data[store.Busy] != 1 || data[store.OK]+data[store.NotFound] != 19 {
		t.Errorf("data ops by class %v, want one busy and 19 acknowledged", data)
	}
	if begins[store.Busy] != 1 || begins[store.OK] != 4 || commits[store.OK] != 4 || f.commits != 4 {
		t.Errorf("begins %v, commits %v (%d calls); want 4 good begins, one busy, 4 commits", begins, commits, f.commits)
	}
	for i, s := range ss {
		if s.Op == workload.OpBegin && s.Class == store.Busy && (i+1 >= len(ss) || ss[i+1].Class != store.Busy || !ss[i+1].Op.IsData() || ss[i+1].Start != s.Start) {
			t.Fatalf("the op after a failed begin is %+v, want a busy data op at the begin's start", ss[i+1])
		}
	}
}

// stepper is the null store whose writes find the database busy twice and
// retry through the busy hook it was given (store.BusyRetrier), as the
// SQLite engine retries the step that failed.
type stepper struct {
	store.Conn
	wait  func() bool
	calls int
}

func (s *stepper) SetBusyRetry(wait func() bool) { s.wait = wait }

func (s *stepper) Put(key uint64, v []byte) error {
	s.calls++
	for range 2 {
		if s.wait == nil || !s.wait() {
			return store.Wrap(store.Busy, errBusy)
		}
	}
	return s.Conn.Put(key, v)
}

// Under the retry policy a connection that retries its own busy steps is
// handed the worker's wait: each op is called once, its retries and wait
// counted; under the timeout policy it gets no hook and fails at once.
func TestStepRetry(t *testing.T) {
	t.Parallel()
	run := func(busy string, budget time.Duration) (*stepper, []workload.Sample) {
		p := testPlan(1)
		p.Preload = 0
		p.Phases[0].Ops = 20
		p.Phases[0].Mix = workload.Mix{{Op: workload.OpUpsert, Percent: 100}}
		p.Busy, p.BusyBudget = busy, workload.Duration(budget)
		st := &stepper{}
		drv := storetest.Wrap("stepper", nullstore.Driver{}, func(c store.Conn) store.Conn { st.Conn = c; return st })
		c := &captured{samples: map[int][]workload.Sample{}}
		p.Driver = drv.Name()
		if err := Run(context.Background(), p, drv, c); err != nil {
			t.Fatal(err)
		}
		return st, c.samples[0]
	}
	st, ss := run(workload.BusyRetry, time.Second)
	if st.calls != 20 {
		t.Errorf("Put called %d times for 20 ops: the worker retried whole ops over the connection's own retries", st.calls)
	}
	for _, s := range ss {
		if s.Class != store.OK || s.Retries != 2 || s.Wait < 300*time.Microsecond || s.Latency < s.Wait {
			t.Fatalf("retry policy: %+v, want ok after 2 retries and at least 100+200 µs of waits", s)
		}
	}
	_, ss = run("", 0)
	for _, s := range ss {
		if s.Class != store.Busy || s.Retries != 0 {
			t.Fatalf("timeout policy: %+v, want busy with no retries", s)
		}
	}
}
