package runner_test

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/gobench/gobench/pkg/result"
	"github.com/gobench/gobench/pkg/runner"
	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/store/sqlite"
	"github.com/gobench/gobench/pkg/store/storetest"
	"github.com/gobench/gobench/pkg/workload"
)

// leaky is a real SQLite connection with the defect the guard exists for:
// its leakAt-th write outside a transaction opens one (BEGIN IMMEDIATE),
// writes, and returns without a COMMIT, acknowledged. Every later write
// on the connection then runs inside that transaction, also acknowledged,
// and all of them vanish when the connection closes.
type leaky struct {
	store.Conn
	b      store.Batcher
	p      store.TxProber // the engine's, for the leak's own use
	leakAt int
	writes int // writes outside a transaction
	// sawOpen is SQLite's own word, asked right after the leak, that the
	// connection was left inside a transaction.
	sawOpen bool
}

func (l *leaky) Put(key uint64, v []byte) error {
	if l.p.InTx() { // inside a batch (the preload's): no leak there
		return l.Conn.Put(key, v)
	}
	if l.writes++; l.writes != l.leakAt {
		return l.Conn.Put(key, v)
	}
	if err := l.b.Begin(); err != nil {
		return err
	}
	if err := l.Conn.Put(key, v); err != nil {
		return err
	}
	l.sawOpen = l.p.InTx()
	return nil
}

func (l *leaky) Begin() error    { return l.b.Begin() }
func (l *leaky) Commit() error   { return l.b.Commit() }
func (l *leaky) Rollback() error { return l.b.Rollback() }

// probed is a leaky connection that lets the guard ask the engine; a bare
// *leaky hides store.TxProber, so no guard can.
type probed struct{ *leaky }

func (p probed) InTx() bool { return p.p.InTx() }

// writeLedger keeps every write record, for runner.Verify.
type writeLedger struct {
	mu  sync.Mutex
	all []workload.WriteRecord
}

func (l *writeLedger) Add(r workload.WriteRecord) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.all = append(l.all, r)
}

func (l *writeLedger) records(yield func(workload.WriteRecord) bool) {
	for _, r := range l.all {
		if !yield(r) {
			return
		}
	}
}

// runLeaky runs 40 upserts on one worker over a leaky SQLite connection
// (the guard able to ask the engine, or not), then verifies the database
// against the acknowledged writes.
func runLeaky(t *testing.T, guarded bool, onError string) (*result.Result, *workload.VerifyReport, *leaky, error) {
	t.Helper()
	var worker *leaky
	drv := storetest.Wrap("leaky", sqlite.Modernc(), func(c store.Conn) store.Conn {
		l := &leaky{Conn: c, b: c.(store.Batcher), p: c.(store.TxProber), leakAt: 10}
		if !guarded {
			return l
		}
		return probed{l}
	})
	p := workload.DefaultPlan()
	p.Driver = "leaky"
	p.Store = store.Config{Path: filepath.Join(t.TempDir(), "leaky.db"), Options: sqlite.DefaultOptions().Encode()}
	p.Keys.Count, p.Preload = 100, 100
	p.Phases[0].Mix, _ = workload.ParseMix("upsert=100")
	p.Phases[0].Ops = 40
	p.Verify = true
	p.OnError = onError
	ctx := context.Background()
	st, err := drv.Open(ctx, p.Store)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if err := st.Init(ctx); err != nil {
		t.Fatal(err)
	}
	if err := runner.Preload(ctx, st, &p, nil); err != nil {
		t.Fatal(err)
	}
	b := result.NewBuilder(&p)
	log := &writeLedger{}
	b.SetWriteLedger(log)
	worker0 := &runner.Host{Plan: &p, Store: wrapStore{st, func(c store.Conn) {
		switch c := c.(type) {
		case *leaky:
			worker = c
		case probed:
			worker = c.leaky
		}
	}}, Workers: []int{0}, Collector: b}
	runErr := worker0.Run(ctx)
	rep, verr := runner.Verify(ctx, st, &p, log.records)
	if verr != nil && !errors.Is(verr, workload.ErrVerify) {
		t.Fatal(verr)
	}
	return b.Result(), rep, worker, runErr
}

// wrapStore shows see every connection it hands out.
type wrapStore struct {
	store.Store
	see func(store.Conn)
}

func (s wrapStore) Conn(ctx context.Context) (store.Conn, error) {
	c, err := s.Store.Conn(ctx)
	if err == nil {
		s.see(c)
	}
	return c, err
}

// The autocommit guard catches a connection left inside a transaction: the
// op that left it fails with class open_tx, the transaction is rolled
// back, and every other write is committed, as verification shows. The
// same engine with the guard unable to ask loses every write from the
// leak on, acknowledged: the defect is real, and the guard is what stops
// it.
func TestGuardCatchesOpenTransaction(t *testing.T) {
	t.Parallel()
	res, rep, l, err := runLeaky(t, true, workload.OnErrorContinue)
	if err != nil {
		t.Fatal(err)
	}
	if !l.sawOpen {
		t.Fatal("the leaky connection did not leave a transaction open: the test proves nothing")
	}
	up, _ := res.Phases[0].Op("upsert")
	if up.Count != 40 || up.Errors.OpenTx != 1 || up.Errors.Total != 1 {
		t.Errorf("upserts %d, errors %+v; want 40 with one open_tx", up.Count, up.Errors)
	}
	if rep.Violations != 0 || rep.AckedWrites != 39 {
		t.Errorf("guarded: verify found %d violations in %d acknowledged writes, want 0 in 39: %v", rep.Violations, rep.AckedWrites, rep.Examples)
	}

	_, rep, l, err = runLeaky(t, false, workload.OnErrorContinue)
	if err != nil {
		t.Fatal(err)
	}
	if !l.sawOpen {
		t.Fatal("unguarded: the connection did not leave a transaction open")
	}
	if rep.Violations == 0 || rep.AckedWrites != 40 {
		t.Errorf("unguarded: %d violations in %d acknowledged writes; the leak should lose the writes from the 10th on", rep.Violations, rep.AckedWrites)
	}

	// Under the stop policy the run ends, naming the cause.
	_, _, _, err = runLeaky(t, true, workload.OnErrorStop)
	if !errors.Is(err, store.ErrOpenTx) || !strings.Contains(err.Error(), "inside a transaction") {
		t.Errorf("stop policy: %v, want the open transaction named", err)
	}
}
