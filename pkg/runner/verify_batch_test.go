package runner

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/gobench/gobench/pkg/deal"
	"github.com/gobench/gobench/pkg/result"
	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/store/badger"
	"github.com/gobench/gobench/pkg/store/storetest"
	"github.com/gobench/gobench/pkg/workload"
)

// commitOrder orders two connections' batches. The first to BEGIN writes
// its batch and calls COMMIT. Then the second may BEGIN: at once, and it
// writes and commits its batch whole before the first's COMMIT goes on;
// or, when after is set, once the first's COMMIT returned, and then its
// COMMIT rolls back and reports success when lose is set (a lost write).
type commitOrder struct {
	after, lose bool

	mu        sync.Mutex
	begun     int
	firstDone chan struct{} // closed when the first batch's writes are over (after: its COMMIT returned)
	secondIn  chan struct{} // closed when the second batch's COMMIT returned
}

// orderedConn is one connection whose batch commitOrder orders.
type orderedConn struct {
	store.Conn
	b     store.Batcher
	o     *commitOrder
	which int // 1: the first batch, 2: the second, 0: neither yet
}

func (c *orderedConn) Begin() error {
	c.o.mu.Lock()
	c.o.begun++
	c.which = c.o.begun
	c.o.mu.Unlock()
	if c.which == 2 {
		<-c.o.firstDone
	}
	return c.b.Begin()
}

func (c *orderedConn) Commit() error {
	switch {
	case c.which == 1 && c.o.after:
		defer close(c.o.firstDone)
	case c.which == 1:
		close(c.o.firstDone)
		<-c.o.secondIn
	case c.which == 2 && c.o.lose:
		defer close(c.o.secondIn)
		return c.b.Rollback()
	case c.which == 2:
		defer close(c.o.secondIn)
	}
	return c.b.Commit()
}

func (c *orderedConn) Rollback() error { return c.b.Rollback() }
func (c *orderedConn) InTx() bool      { return c.b.(store.TxProber).InTx() }

// teeSamples keeps every worker's samples on their way to the builder.
type teeSamples struct {
	b  *result.Builder
	mu sync.Mutex
	by map[int][]workload.Sample
}

func (t *teeSamples) Sink(worker, phase int) workload.Sink {
	return &teeSink{t: t, worker: worker, next: t.b.Sink(worker, phase)}
}

type teeSink struct {
	t      *teeSamples
	worker int
	next   workload.Sink
}

func (s *teeSink) Record(x workload.Sample) error {
	s.t.mu.Lock()
	s.t.by[s.worker] = append(s.t.by[s.worker], x)
	s.t.mu.Unlock()
	return s.next.Record(x)
}

func (s *teeSink) Done(st workload.WorkerStats) error { return s.next.Done(st) }

// ledger keeps the write records in memory.
type ledger struct {
	mu  sync.Mutex
	all []workload.WriteRecord
}

func (l *ledger) Add(r workload.WriteRecord) { l.mu.Lock(); l.all = append(l.all, r); l.mu.Unlock() }

// A batched write is acknowledged by its batch's COMMIT, not when the op
// itself returned. Two workers batch upserts of the one key on badger:
// the first writes, then the second begins after the first's writes
// ended, writes and commits, and only then does the first commit. The
// first committed last, so its value survives, and no write was lost.
// Judged by the ops' own ends, the second's writes began after the
// survivor "ended" and looked lost (one run in 60 to 200 of the mix cell
// of 8 workers, batches of 10, half upserts, lost a write so). The rule
// still sees a lost write: the second batch begun after the first's
// COMMIT returned, acknowledged and not written.
func TestVerifyBatchAcknowledgedByCommit(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name        string
		after, lose bool
		violations  int64
	}{
		{"the second commits inside the first", false, false, 0},
		{"the second after the first, lost", true, true, 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			o := &commitOrder{after: tt.after, lose: tt.lose, firstDone: make(chan struct{}), secondIn: make(chan struct{})}
			checkOrderedBatches(t, o, tt.violations)
		})
	}
}

// checkOrderedBatches runs two workers' batches of two upserts of key 0
// on badger in o's order, and checks that the first batch's value
// survived, that the second's writes began after the first's ended, and
// that Verify counts violations.
func checkOrderedBatches(t *testing.T, o *commitOrder, violations int64) {
	t.Helper()
	drv := storetest.Wrap("badger-ordered", badger.Driver{}, func(c store.Conn) store.Conn {
		return &orderedConn{Conn: c, b: c.(store.Batcher), o: o}
	})
	p := testPlan(2)
	p.Driver, p.Preload, p.Verify = drv.Name(), 0, true
	p.Keys.Count, p.Mode = 1, workload.ModeGoroutine
	p.Phases[0].Mix = workload.Mix{{Op: workload.OpUpsert, Percent: 100}}
	p.Phases[0].Ops, p.Phases[0].Batch = 2, 2
	opts := badger.DefaultOptions()
	opts.CacheMiB, opts.MemTableMiB = 8, 4
	p.Store = store.Config{Path: filepath.Join(t.TempDir(), "db"), Options: opts.Encode()}
	ctx := context.Background()
	st, err := OpenStore(ctx, p, drv, Setup{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	b := result.NewBuilder(p)
	l := &ledger{}
	b.SetWriteLedger(l)
	tee := &teeSamples{b: b, by: map[int][]workload.Sample{}}
	if err := (&Host{Plan: p, Store: st, Workers: p.WorkerIDs(), Collector: tee}).Run(ctx); err != nil {
		t.Fatal(err)
	}

	// The interleaving happened: both batches were acknowledged, the
	// first's value survived, and the other's writes all began after the
	// survivor's ended.
	c, err := st.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	v, err := c.Get(0, nil)
	c.Close()
	tag, ok := deal.ParseTag(v)
	if err != nil || !ok {
		t.Fatalf("key 0 holds %q, %v", v, err)
	}
	survivorEnd, loserStart := int64(-1), int64(-1)
	for w, ss := range tee.by {
		for _, s := range ss {
			if s.Class != store.OK {
				t.Fatalf("worker %d's %v failed (%v): the batches were not both acknowledged", w, s.Op, s.Class)
			}
			if s.Op != workload.OpUpsert {
				continue
			}
			if w == tag.Worker {
				survivorEnd = max(survivorEnd, int64(s.Start+s.Latency))
			} else if loserStart < 0 || int64(s.Start) < loserStart {
				loserStart = int64(s.Start)
			}
		}
	}
	if survivorEnd < 0 || loserStart <= survivorEnd {
		t.Fatalf("worker %d's value survived; the other's writes began at %d ns, its own ended at %d ns: not the interleaving under test", tag.Worker, loserStart, survivorEnd)
	}

	records := func(yield func(workload.WriteRecord) bool) {
		for _, r := range l.all {
			if !yield(r) {
				return
			}
		}
	}
	rep, err := Verify(ctx, st, p, records)
	if rep == nil || rep.AckedWrites != 4 || rep.Violations != violations || (err != nil) != (violations > 0) {
		t.Fatalf("verify: %+v, %v; want 4 acknowledged writes and %d violations", rep, err, violations)
	}
	if violations > 0 && !strings.Contains(rep.Examples[0], fmt.Sprintf("lost worker %d's write", 1-tag.Worker)) {
		t.Errorf("example %q names another loss", rep.Examples[0])
	}
}
