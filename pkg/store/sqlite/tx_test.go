package sqlite

import (
	"context"
	"errors"
	"testing"

	"github.com/gobench/gobench/pkg/store"
)

// lockJournals are the journal modes in which a COMMIT needs every reader
// gone (an EXCLUSIVE lock), so a reader can make it fail busy.
var lockJournals = []string{"rollback", "truncate", "persist", "memory", "off"}

// contended opens a store in journal mode j with no busy timeout, a worker
// connection, and an outside reader: a plain connection holding a read
// transaction (BEGIN; SELECT), so the database's SHARED lock is held until
// release is called.
func contended(t *testing.T, d *Driver, j string) (st store.Store, c store.Conn, release func()) {
	t.Helper()
	o := DefaultOptions()
	o.Journal, o.BusyTimeoutMS = j, 0
	st = openInit(t, d, cfg(t, o))
	t.Cleanup(func() { st.Close() })
	c, err := st.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	if err := c.Put(1, []byte("old")); err != nil {
		t.Fatal(err)
	}
	r, err := st.(*db).open("rw")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	if err := r.exec("BEGIN"); err != nil {
		t.Fatal(err)
	}
	if n, err := r.queryString("SELECT count(*) FROM kv"); err != nil || n != "1" {
		t.Fatalf("reader: count = %q, %v", n, err)
	}
	released := false
	release = func() {
		if !released {
			released = true
			if err := r.exec("COMMIT"); err != nil {
				t.Fatal(err)
			}
		}
	}
	t.Cleanup(release)
	return st, c, release
}

// valueOf reads key on a fresh connection: what is committed.
func valueOf(t *testing.T, st store.Store, key uint64) string {
	t.Helper()
	c, err := st.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	v, err := c.Get(key, nil)
	if errors.Is(err, store.ErrNotFound) {
		return "<missing>"
	}
	if err != nil {
		t.Fatal(err)
	}
	return string(v)
}

// A write whose COMMIT finds a reader in the way fails busy, and is not
// acknowledged: it is rolled back, the connection is back in autocommit,
// nothing of it reaches the file, and the connection's next write is a
// transaction of its own, committed. (Before txn owned this state, the
// busy COMMIT left the transaction open and every later write of the
// connection ran inside it, acknowledged and lost.)
func TestBusyCommitIsNotAcknowledged(t *testing.T) {
	t.Parallel()
	forEachDriver(t, func(t *testing.T, d *Driver) {
		for _, j := range lockJournals {
			t.Run(j, func(t *testing.T) {
				st, c, release := contended(t, d, j)
				tp := c.(store.TxProber)
				err := c.Put(1, []byte("new"))
				if store.Classify(err) != store.Busy {
					t.Fatalf("a write against a reader's lock: %v (class %v), want busy", err, store.Classify(err))
				}
				if tp.InTx() {
					t.Fatal("the connection is still inside a transaction after its busy write")
				}
				if b, c := c.(store.BusyStepCounter).TakeBusySteps(); b != 0 || c != 1 {
					t.Errorf("busy steps: %d begins, %d commits; want the one COMMIT", b, c)
				}
				release()
				if got := valueOf(t, st, 1); got != "old" {
					t.Fatalf("key 1 holds %q after a write that failed busy, want old", got)
				}
				if err := c.Put(2, []byte("later")); err != nil {
					t.Fatal(err)
				}
				if tp.InTx() {
					t.Fatal("the connection is inside a transaction after a write that succeeded")
				}
				if got := valueOf(t, st, 2); got != "later" {
					t.Fatalf("key 2 holds %q on another connection after an acknowledged write, want later", got)
				}
			})
		}
	})
}

// Under a retry hook the busy COMMIT is run again as a COMMIT, the
// transaction whole meanwhile: the write is acknowledged once the reader
// is gone, and it is in the file.
func TestBusyCommitRetried(t *testing.T) {
	t.Parallel()
	forEachDriver(t, func(t *testing.T, d *Driver) {
		for _, j := range lockJournals {
			t.Run(j, func(t *testing.T) {
				st, c, release := contended(t, d, j)
				calls := 0
				c.(store.BusyRetrier).SetBusyRetry(func() bool {
					calls++
					if calls == 3 {
						release()
					}
					return calls < 10
				})
				if err := c.Put(1, []byte("new")); err != nil {
					t.Fatalf("a write retried until the reader left: %v", err)
				}
				if calls != 3 {
					t.Errorf("the hook ran %d times, want 3: busy until the reader left, then done", calls)
				}
				if b, c := c.(store.BusyStepCounter).TakeBusySteps(); b != 0 || c != 3 {
					t.Errorf("busy steps: %d begins, %d commits; want 3 busy COMMITs, retried", b, c)
				}
				if c.(store.TxProber).InTx() {
					t.Fatal("inside a transaction after the write")
				}
				if got := valueOf(t, st, 1); got != "new" {
					t.Fatalf("key 1 holds %q after an acknowledged write, want new", got)
				}
			})
		}
	})
}

// A hook that gives up ends the write as busy, rolled back.
func TestBusyRetryGivesUp(t *testing.T) {
	t.Parallel()
	forEachDriver(t, func(t *testing.T, d *Driver) {
		st, c, release := contended(t, d, "rollback")
		calls := 0
		c.(store.BusyRetrier).SetBusyRetry(func() bool { calls++; return calls < 4 })
		if err := c.Put(1, []byte("new")); store.Classify(err) != store.Busy {
			t.Fatalf("a write that gave up: %v, want busy", err)
		}
		if calls != 4 {
			t.Errorf("the hook ran %d times, want 4 (three retries, then no)", calls)
		}
		if c.(store.TxProber).InTx() {
			t.Fatal("inside a transaction after giving up")
		}
		release()
		if got := valueOf(t, st, 1); got != "old" {
			t.Fatalf("key 1 holds %q, want old", got)
		}
	})
}

// A batch whose COMMIT fails is over: rolled back whole, no transaction
// open, and the next Begin opens a new one.
func TestBusyBatchCommit(t *testing.T) {
	t.Parallel()
	forEachDriver(t, func(t *testing.T, d *Driver) {
		st, c, release := contended(t, d, "rollback")
		b := c.(store.Batcher)
		if err := b.Begin(); err != nil {
			t.Fatal(err)
		}
		if !c.(store.TxProber).InTx() {
			t.Fatal("no transaction open after Begin")
		}
		for k := uint64(1); k <= 3; k++ {
			if err := c.Put(k, []byte("batch")); err != nil {
				t.Fatal(err)
			}
		}
		if err := b.Commit(); store.Classify(err) != store.Busy {
			t.Fatalf("Commit against a reader's lock: %v, want busy", err)
		}
		if c.(store.TxProber).InTx() {
			t.Fatal("a transaction is open after a failed Commit")
		}
		release()
		for k := uint64(1); k <= 3; k++ {
			if got, want := valueOf(t, st, k), map[uint64]string{1: "old", 2: "<missing>", 3: "<missing>"}[k]; got != want {
				t.Errorf("key %d holds %q after a batch that failed, want %q", k, got, want)
			}
		}
		if err := b.Begin(); err != nil {
			t.Fatalf("Begin after a failed Commit: %v", err)
		}
		if err := c.Put(2, []byte("second")); err != nil {
			t.Fatal(err)
		}
		if err := b.Commit(); err != nil {
			t.Fatal(err)
		}
		if got := valueOf(t, st, 2); got != "second" {
			t.Fatalf("key 2 holds %q after a committed batch, want second", got)
		}
	})
}

// A Begin that finds the write lock taken fails busy and opens nothing;
// Commit without a batch is refused.
func TestBusyBegin(t *testing.T) {
	t.Parallel()
	forEachDriver(t, func(t *testing.T, d *Driver) {
		o := DefaultOptions()
		o.BusyTimeoutMS = 0
		st, a, b := twoConns(t, d, o)
		if err := a.(store.Batcher).Begin(); err != nil {
			t.Fatal(err)
		}
		if err := b.(store.Batcher).Begin(); store.Classify(err) != store.Busy {
			t.Fatalf("Begin against a held write lock: %v, want busy", err)
		}
		if bb, bc := b.(store.BusyStepCounter).TakeBusySteps(); bb != 1 || bc != 0 {
			t.Errorf("busy steps: %d begins, %d commits; want the one BEGIN", bb, bc)
		}
		if b.(store.TxProber).InTx() {
			t.Fatal("a failed Begin left a transaction open")
		}
		if err := b.(store.Batcher).Commit(); err == nil {
			t.Fatal("Commit after a failed Begin succeeded")
		}
		if err := a.(store.Batcher).Rollback(); err != nil {
			t.Fatal(err)
		}
		if err := b.Put(1, []byte("x")); err != nil {
			t.Fatalf("a write once the lock is free: %v", err)
		}
		if got := valueOf(t, st, 1); got != "x" {
			t.Fatalf("key 1 holds %q, want x", got)
		}
	})
}

// InTx is SQLite's own answer: false in autocommit, true inside a batch,
// and true for a transaction opened behind txn's back, which Rollback
// ends.
func TestTxProber(t *testing.T) {
	t.Parallel()
	forEachDriver(t, func(t *testing.T, d *Driver) {
		st := openInit(t, d, cfg(t, DefaultOptions()))
		defer st.Close()
		c, err := st.Conn(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		tp, b := c.(store.TxProber), c.(store.Batcher)
		steps := []struct {
			name string
			do   func() error
			want bool
		}{
			{"open", func() error { return nil }, false},
			{"begin", b.Begin, true},
			{"put in batch", func() error { return c.Put(1, []byte("x")) }, true},
			{"commit", b.Commit, false},
			{"put", func() error { return c.Put(2, []byte("y")) }, false},
			{"raw BEGIN", func() error { return rawExec(c, "BEGIN") }, true},
			{"rollback", b.Rollback, false},
		}
		for _, s := range steps {
			if err := s.do(); err != nil {
				t.Fatalf("%s: %v", s.name, err)
			}
			if got := tp.InTx(); got != s.want {
				t.Fatalf("after %s: InTx = %v, want %v", s.name, got, s.want)
			}
		}
	})
}

// rawExecs are rawExec's cases for the connections of cgo builds: each
// says whether c is its kind.
var rawExecs []func(c store.Conn, q string) (bool, error)

// rawExec runs q on an op connection behind its txn's back.
func rawExec(c store.Conn, q string) error {
	switch c := c.(type) {
	case *conn:
		return execOnce(bg, c.c, q)
	case *ncConn:
		return c.c.Exec(q)
	}
	for _, f := range rawExecs {
		if ok, err := f(c, q); ok {
			return err
		}
	}
	return errors.New("unknown connection type")
}
