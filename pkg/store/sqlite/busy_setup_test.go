package sqlite

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/gobench/gobench/pkg/store"
)

// hang is the hang detector of the tests that wait for a lock or an
// interrupt: no assertion on how fast anything happens, only that it does.
const hang = time.Minute

// Under the retry busy policy ops fail busy at once (busy_timeout 0), but
// setting the store up waits for a lock up to the retry budget
// (SetupBusyTimeoutMS), as SQLite's busy timeout would: a rerun's Init,
// which must write, waits for an outside reader to let go. That it
// waited is seen from outside: while its COMMIT waits for the reader, it
// holds the PENDING lock, and a new reader is refused. Without the setup
// budget the same Init fails at once. Op connections still fail at once.
func TestSetupWaitsForLocks(t *testing.T) {
	forEachDriver(t, func(t *testing.T, d *Driver) {
		o := DefaultOptions()
		o.BusyTimeoutMS, o.SetupBusyTimeoutMS = 0, Millis(hang/time.Millisecond)
		c := cfg(t, o)
		openInit(t, d, c).Close()
		reader, err := d.be.open(dsn(c.Path, "rw") + "&_busy_timeout=0")
		if err != nil {
			t.Fatal(err)
		}
		defer reader.Close()
		if err := reader.exec("BEGIN"); err != nil {
			t.Fatal(err)
		}
		if _, err := reader.queryString("SELECT count(*) FROM kv"); err != nil {
			t.Fatal(err)
		}

		noBudget := o
		noBudget.SetupBusyTimeoutMS = 0
		st, _ := d.Open(context.Background(), store.Config{Path: c.Path, Options: noBudget.Encode()})
		if err := st.Init(context.Background()); !isBusy(err) {
			t.Fatalf("Init with no setup budget while a reader holds the database: %v, want busy", err)
		}

		st, _ = d.Open(context.Background(), c)
		defer st.Close()
		done := make(chan error, 1)
		go func() { done <- st.Init(context.Background()) }()
		waitPending(t, d, c.Path, done)
		if err := reader.exec("COMMIT"); err != nil {
			t.Fatal(err)
		}
		select {
		case err := <-done:
			if err != nil {
				t.Fatalf("Init once the reader let go: %v", err)
			}
		case <-time.After(hang):
			t.Fatal("Init still waits after the reader let go")
		}
		if f := facts(t, st); f["busy_timeout_ms"] != "0" {
			t.Errorf("op connections' busy_timeout = %s, want 0", f["busy_timeout_ms"])
		}
	})
}

// isBusy reports whether err, or one it wraps, is of class busy or locked.
func isBusy(err error) bool {
	for e := err; e != nil; e = errors.Unwrap(e) {
		if c := store.Classify(e); c == store.Busy || c == store.Locked {
			return true
		}
	}
	return false
}

// waitPending returns once a writer holds the PENDING lock of the database
// at path (waiting for readers to go): a new reader is refused, when it
// reads or already when it opens (mattn reads the schema then).
func waitPending(t *testing.T, d *Driver, path string, done <-chan error) {
	t.Helper()
	read := func() error {
		probe, err := d.be.open(dsn(path, "rw") + "&_busy_timeout=0") // mattn waits 5 s unless told
		if err != nil {
			return err
		}
		defer probe.Close()
		if _, err := probe.queryString("PRAGMA busy_timeout=0"); err != nil {
			return err
		}
		_, err = probe.queryString("SELECT count(*) FROM kv")
		return err
	}
	deadline := time.Now().Add(hang)
	for {
		select {
		case err := <-done:
			t.Fatalf("Init ended before it waited for the lock: %v", err)
		default:
		}
		err := read()
		if err != nil && isBusy(d.wrap(err)) {
			return
		}
		if err != nil {
			t.Fatalf("probe: %v", err)
		}
		if time.Now().After(deadline) {
			t.Fatal("no writer waited for the lock")
		}
		time.Sleep(5 * time.Millisecond)
	}
}
