package runner

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gobench/gobench/pkg/sqlscript"
	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/store/mapstore"
	"github.com/gobench/gobench/pkg/store/sqlite"
	"github.com/gobench/gobench/pkg/store/storetest"
	"github.com/gobench/gobench/pkg/workload"
)

// hang is the hang detector of these tests: nothing is asserted about
// how fast setup stops, only that it does.
const hang = time.Minute

// A schema statement that would run for hours stops when the setup's
// context is cancelled: the statement was running (once the table of
// line 1 exists, something holds the write lock: an outside BEGIN
// IMMEDIATE fails busy) when the context was cancelled, and the error is the cancellation, naming the schema's line,
// not an error in the user's SQL (which would exit 2).
func TestSchemaStopsWhenCancelled(t *testing.T) {
	p := sqlPlan(t, 1, "a.sql", "SELECT 1;")
	p.SQL.Schema.Text = "CREATE TABLE t (n INTEGER);\n" +
		"INSERT INTO t SELECT count(*) FROM (WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c LIMIT 1000000000000) SELECT x FROM c);\n"
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() {
		st, err := OpenStore(ctx, p, sqlite.Modernc(), Setup{})
		if err == nil {
			st.Close()
		}
		done <- err
	}()
	waitWriting(t, p.Store.Path, done)
	cancel()
	var err error
	select {
	case err = <-done:
	case <-time.After(hang):
		t.Fatalf("the schema still runs %v after the cancellation", hang)
	}
	var se *sqlscript.Error
	if !errors.Is(err, context.Canceled) || errors.As(err, &se) || !strings.Contains(err.Error(), "schema.sql:2 stopped") {
		t.Fatalf("the interrupted schema failed with %v, want the cancellation at schema.sql:2", err)
	}
}

// waitWriting returns once, after table t was committed, something holds
// the write lock of the database at path: an outside connection's BEGIN
// IMMEDIATE fails busy. It fails the test if setup ended first.
func waitWriting(t *testing.T, path string, done <-chan error) {
	t.Helper()
	o := sqlite.DefaultOptions()
	o.Journal, o.BusyTimeoutMS = "wal", 0
	probe, err := sqlite.Modernc().Open(context.Background(), store.Config{Path: path, Options: o.Encode()})
	if err != nil {
		t.Fatal(err)
	}
	defer probe.Close()
	deadline := time.Now().Add(hang)
	for {
		select {
		case err := <-done:
			t.Fatalf("setup ended before it was cancelled: %v", err)
		default:
		}
		if c, err := probe.Conn(context.Background()); err == nil { // an error: no database yet
			if writingAfterT(c) {
				c.Close()
				return
			}
			c.Close()
		}
		if time.Now().After(deadline) {
			t.Fatal("the schema never took the write lock")
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// writingAfterT reports whether table t exists and, after that was seen,
// another connection holds the write lock.
func writingAfterT(c store.Conn) bool {
	q, err := c.(store.Scripter).Prepare("SELECT 1 FROM sqlite_schema WHERE name = 't'", nil)
	if err != nil {
		return false
	}
	if n, err := q.Run(); err != nil || n != 1 {
		return false
	}
	err = c.(store.Batcher).Begin()
	if err == nil {
		_ = c.(store.Batcher).Rollback()
	}
	cl := store.Classify(err)
	return cl == store.Busy || cl == store.Locked
}

// stuckConn is a connection whose Put blocks until the context of its
// Interruptible ends, as SQLite stops an interrupted statement; it notes
// the order of what happens to it.
type stuckConn struct {
	store.Conn
	mu      sync.Mutex
	ctx     context.Context
	events  []string
	putting chan struct{} // closed by the first Put
	retry   func() bool
}

func (c *stuckConn) note(e string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.events = append(c.events, e)
}

func (c *stuckConn) Interruptible(ctx context.Context) func() {
	c.ctx = ctx
	c.note("interruptible")
	return func() { c.note("stop") }
}

func (c *stuckConn) SetBusyRetry(wait func() bool) { c.retry = wait }

func (c *stuckConn) Put(uint64, []byte) error {
	select {
	case <-c.putting:
	default:
		close(c.putting)
	}
	<-c.ctx.Done()
	return c.ctx.Err()
}

func (c *stuckConn) Close() error { c.note("close"); return c.Conn.Close() }

// A preload stops inside the op under way when its context is cancelled
// (the connection is Interruptible), says how far it got, and ends the
// interrupt before the connection closes. Under the retry policy the
// connection retries its busy steps within the budget.
func TestPreloadStopsWhenCancelled(t *testing.T) {
	opened := make(chan *stuckConn, 1)
	drv := storetest.Wrap("stuck", mapstore.Driver{}, func(c store.Conn) store.Conn {
		sc := &stuckConn{Conn: c, putting: make(chan struct{})}
		opened <- sc
		return sc
	})
	p := testPlan(1)
	p.Driver, p.Preload = drv.Name(), 5000
	p.Busy, p.BusyBudget = workload.BusyRetry, workload.Duration(time.Second)
	st, err := drv.Open(context.Background(), store.Config{Path: filepath.Join(t.TempDir(), "db")})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- Preload(ctx, st, p, nil) }()
	var conn *stuckConn
	select {
	case conn = <-opened:
	case <-time.After(hang):
		t.Fatal("the preload opened no connection")
	}
	select {
	case <-conn.putting:
	case <-time.After(hang):
		t.Fatal("the preload never wrote")
	}
	cancel()
	select {
	case err = <-done:
	case <-time.After(hang):
		t.Fatal("the preload did not stop")
	}
	if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "preload stopped after 0 of 5000 rows") {
		t.Fatalf("Preload: %v", err)
	}
	if got := strings.Join(conn.events, ","); got != "interruptible,stop,close" {
		t.Errorf("events %s, want the interrupt set, then ended before the connection closed", got)
	}
	if conn.retry == nil {
		t.Error("the preload's connection got no retry policy under --busy retry")
	}
}

// The setup's retry policy runs a step again while it fails busy, within
// the budget; the timeout policy (nil) runs it once; a budget spent gives
// the step's error back.
func TestSetupRetry(t *testing.T) {
	busy := store.Wrap(store.Busy, errors.New("database is locked"))
	failing := func(n int) (func() error, *int) {
		calls := 0
		return func() error {
			calls++
			if calls <= n {
				return busy
			}
			return nil
		}, &calls
	}
	ctx := context.Background()
	retry := &workload.Plan{Busy: workload.BusyRetry, BusyBudget: workload.Duration(hang)}
	f, calls := failing(3)
	if err := newSetupRetry(retry).do(ctx, f); err != nil || *calls != 4 {
		t.Errorf("retry: %v after %d calls, want success at the 4th", err, *calls)
	}
	f, calls = failing(3)
	if err := newSetupRetry(&workload.Plan{Busy: workload.BusyTimeout}).do(ctx, f); !errors.Is(err, busy) || *calls != 1 {
		t.Errorf("timeout policy: %v after %d calls, want busy at once", err, *calls)
	}
	r := newSetupRetry(&workload.Plan{Busy: workload.BusyRetry, BusyBudget: workload.Duration(time.Nanosecond)})
	f, calls = failing(1 << 30)
	if err := r.do(ctx, f); !errors.Is(err, busy) {
		t.Errorf("spent budget: %v after %d calls, want busy", err, *calls)
	}
}
