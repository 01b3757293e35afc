package sqlite

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/gobench/gobench/pkg/store"
)

// longQuery counts a recursive CTE of a trillion rows against kv: it
// runs for hours unless interrupted, and holds the database's read lock
// (SHARED, in a rollback journal) the whole time.
const longQuery = `WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c LIMIT 1000000000000) SELECT count(*) FROM c, kv`

// codeInterrupt is SQLITE_INTERRUPT.
const codeInterrupt = 9

// waitRunning returns once the statement running in the background holds
// the read lock of the database at path: a probe connection's BEGIN
// EXCLUSIVE fails busy. It fails the test if the statement ended first
// (done) or nothing held the lock within the hang detector.
func waitRunning(t *testing.T, d *Driver, path string, done <-chan error) {
	t.Helper()
	probe, err := d.be.open(dsn(path, "rw") + "&_busy_timeout=0") // mattn waits 5 s unless told
	if err != nil {
		t.Fatal(err)
	}
	defer probe.Close()
	if _, err := probe.queryString("PRAGMA busy_timeout=0"); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(hang)
	for {
		select {
		case err := <-done:
			t.Fatalf("the statement ended before it was interrupted: %v", err)
		default:
		}
		err := probe.exec("BEGIN EXCLUSIVE")
		if err == nil {
			if err := probe.exec("ROLLBACK"); err != nil {
				t.Fatal(err)
			}
		} else if c := store.Classify(d.wrap(err)); c == store.Busy || c == store.Locked {
			return // the statement reads: it is running
		} else {
			t.Fatalf("probe: %v", err)
		}
		if time.Now().After(deadline) {
			t.Fatal("the statement never took the read lock")
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// awaitInterrupt waits for the background statement's error, within the hang
// detector, and logs how long it took to stop after cancel (a measure
// for the record, not an assertion).
func awaitInterrupt(t *testing.T, d *Driver, cancelled time.Time, done <-chan error) error {
	t.Helper()
	select {
	case err := <-done:
		t.Logf("%s: stopped %v after the cancellation", d.Name(), time.Since(cancelled).Round(time.Microsecond))
		return err
	case <-time.After(hang):
		t.Fatalf("%s: the statement still runs %v after the cancellation", d.Name(), hang)
		return nil
	}
}

// A long statement of the user's (a setup schema's) stops when the
// context of an Interruptible connection is cancelled, on every driver,
// with an error that is the cancellation; the statement was running (it
// held the read lock) when the context was cancelled; and the connection
// is usable afterwards, with no transaction left open.
func TestInterruptStopsLongStatement(t *testing.T) {
	forEachDriver(t, func(t *testing.T, d *Driver) {
		c := cfg(t, DefaultOptions()) // rollback journal: a reader holds SHARED
		st := openInit(t, d, c)
		defer st.Close()
		conn, err := st.Conn(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		if err := conn.Put(1, []byte("v")); err != nil {
			t.Fatal(err)
		}
		stmt, err := conn.(store.Scripter).Prepare(longQuery, nil)
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		stop := conn.(store.Interrupter).Interruptible(ctx)
		done := make(chan error, 1)
		go func() {
			_, err := stmt.Run()
			done <- err
		}()
		waitRunning(t, d, c.Path, done)
		cancel()
		err = awaitInterrupt(t, d, time.Now(), done)
		stop()
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("the interrupted statement failed with %v, want the cancellation", err)
		}
		if conn.(store.TxProber).InTx() {
			t.Error("a transaction is left open after the interrupt")
		}
		if v, err := conn.Get(1, nil); err != nil || string(v) != "v" {
			t.Errorf("Get after the interrupt: %q, %v", v, err)
		}
	})
}

// The connections that set a store up (Init, Check) stop a long
// statement too when their context is cancelled: SQLite reports the
// interrupt (or, for mattn, the driver the context's end).
func TestInterruptStopsSetupConnection(t *testing.T) {
	forEachDriver(t, func(t *testing.T, d *Driver) {
		c := cfg(t, DefaultOptions())
		st := openInit(t, d, c)
		defer st.Close()
		w, err := st.Conn(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if err := w.Put(1, []byte("v")); err != nil {
			t.Fatal(err)
		}
		w.Close()
		raw, err := st.(*db).open("rw")
		if err != nil {
			t.Fatal(err)
		}
		defer raw.Close()
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		stop := raw.interruptible(ctx)
		done := make(chan error, 1)
		go func() {
			_, err := raw.queryString(longQuery)
			done <- err
		}()
		waitRunning(t, d, c.Path, done)
		cancel()
		err = awaitInterrupt(t, d, time.Now(), done)
		stop()
		code, ok := d.be.code(err)
		if !errors.Is(err, context.Canceled) && (!ok || code&0xff != codeInterrupt) {
			t.Fatalf("the interrupted statement failed with %v, want an interrupt", err)
		}
		if !errors.Is(interrupted(ctx, d.wrap(err)), context.Canceled) {
			t.Errorf("the error does not say the context ended: %v", err)
		}
		if n, err := raw.queryString("SELECT count(*) FROM kv"); err != nil || n != "1" {
			t.Errorf("the connection after the interrupt: %q, %v", n, err)
		}
	})
}

// Check (the integrity check of --verify) stops when its context is
// cancelled; an already cancelled context stops it before it reads.
func TestCheckCancelled(t *testing.T) {
	forEachDriver(t, func(t *testing.T, d *Driver) {
		st := openInit(t, d, cfg(t, DefaultOptions()))
		defer st.Close()
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		if _, err := st.(store.Checker).Check(ctx); !errors.Is(err, context.Canceled) {
			t.Errorf("Check with a cancelled context: %v", err)
		}
		if p, err := st.(store.Checker).Check(context.Background()); err != nil || p != nil {
			t.Errorf("Check: %v, %v", p, err)
		}
	})
}
