package e2e

import (
	"bytes"
	"context"
	"database/sql"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// dbBytes is the size of the run's database files in the temporary
// directory tmp (the database, its journal or WAL).
func dbBytes(tmp string) int64 {
	files, _ := filepath.Glob(filepath.Join(tmp, "gobench-*", "gobench.db*"))
	var n int64
	for _, f := range files {
		if fi, err := os.Stat(f); err == nil {
			n += fi.Size()
		}
	}
	return n
}

// SIGTERM during a long setup statement (the accounts of --builtin
// tpcb-like at scale 50, five million rows) stops it on every SQLite
// driver: exit 143, a message saying setup was interrupted at that
// statement's line, no result, and the temporary database removed. The
// signal is sent once the database files have grown past 8 MiB, which
// only the accounts' INSERT does. How long the exit took after the
// signal is logged, for the record.
func TestInterruptedSchema(t *testing.T) {
	stopped := regexp.MustCompile(`gobench: interrupted while setting up the store, before anything was measured: .*schema \S+:17 stopped: context canceled`)
	for _, driver := range []string{"mattn", "modernc", "ncruces", "capi"} {
		t.Run(driver, func(t *testing.T) {
			tmp := t.TempDir()
			cmd := gobenchCmd(t, tmp, "sql", "--builtin", "tpcb-like", "--scale", "50", "--driver", driver, "--procs", "1", "--queries", "10")
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			exited := make(chan error, 1) // cmd.Wait: stderr is copied whole
			go func() { exited <- cmd.Wait() }()
			deadline := time.Now().Add(hangLimit)
			for dbBytes(tmp) < 8<<20 {
				select {
				case <-exited:
					t.Fatalf("gobench exited during setup, before the signal; stderr:\n%s", &stderr)
				default:
				}
				if time.Now().After(deadline) {
					_ = cmd.Process.Kill()
					t.Fatalf("the accounts were never written; stderr:\n%s", &stderr)
				}
				time.Sleep(10 * time.Millisecond)
			}
			sent := time.Now()
			if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
				t.Fatal(err)
			}
			var code int
			select {
			case err := <-exited:
				t.Logf("%s: exited %v after SIGTERM", driver, time.Since(sent).Round(time.Millisecond))
				code = exitStatus(err)
			case <-time.After(hangLimit):
				_ = cmd.Process.Kill()
				t.Fatalf("%s: still running %v after SIGTERM; stderr:\n%s", driver, hangLimit, &stderr)
			}
			if code != 143 || !stopped.MatchString(stderr.String()) {
				t.Fatalf("exit status %d, want 143 and the statement named; stderr:\n%s", code, &stderr)
			}
			if stdout.Len() != 0 {
				t.Errorf("a report of nothing:\n%s", &stdout)
			}
			assertEmptyDir(t, tmp)
		})
	}
}

// outsideDB opens a database with another SQLite than the one under test
// (modernc through database/sql), as another program would.
func outsideDB(t *testing.T, path string) *sql.DB {
	t.Helper()
	u := url.URL{Scheme: "file", Opaque: (&url.URL{Path: path}).EscapedPath(), RawQuery: "mode=rw"}
	db, err := sql.Open("sqlite", u.String())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// holdReadTx opens a read transaction on db, holding the database's SHARED
// lock (rollback journal) until the returned function is called.
func holdReadTx(t *testing.T, db *sql.DB) (release func()) {
	t.Helper()
	ctx := context.Background()
	c, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{"PRAGMA busy_timeout=60000", "BEGIN"} {
		if _, err := c.ExecContext(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	var n int64
	if err := c.QueryRowContext(ctx, "SELECT count(*) FROM kv").Scan(&n); err != nil {
		t.Fatal(err)
	}
	return sync.OnceFunc(func() {
		if _, err := c.ExecContext(ctx, "COMMIT"); err != nil {
			t.Error(err)
		}
		c.Close()
	})
}

// Under --busy retry, setup waits for a lock within the retry budget, as
// the workers do: a rerun on a database another program is reading waits
// for it (while it waits to commit it holds the PENDING lock, so a new
// reader is refused: that is how the test knows), then runs. It failed at
// once with "busy timeout of 0 ms". The reader is a process of its own:
// SQLite lets a connection of a process that already reads the database
// read on, PENDING or not.
func TestSetupWaitsUnderBusyRetry(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "retry.db")
	first := gobenchCmd(t, dir, "mix", "--db", path, "--queries", "100", "-q")
	if out, err := first.CombinedOutput(); err != nil {
		t.Fatalf("first run: %v\n%s", err, out)
	}
	release := holdReadElsewhere(t, path)
	defer release()
	cmd := gobenchCmd(t, dir, "mix", "--db", path, "--busy", "retry", "--busy-timeout", "2m", "--queries", "100", "-q")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1) // cmd.Wait: stderr is copied whole
	go func() { exited <- cmd.Wait() }()
	db := outsideDB(t, path)
	deadline := time.Now().Add(hangLimit)
	for !pending(db) {
		select {
		case err := <-exited:
			t.Fatalf("the rerun ended without waiting for the reader: exit %d; stderr:\n%s", exitStatus(err), &stderr)
		default:
		}
		if time.Now().After(deadline) {
			_ = cmd.Process.Kill()
			t.Fatal("the rerun never waited for the lock")
		}
		time.Sleep(10 * time.Millisecond)
	}
	release()
	select {
	case err := <-exited:
		if code := exitStatus(err); code != 0 {
			t.Fatalf("exit status %d; stderr:\n%s", code, &stderr)
		}
	case <-time.After(hangLimit):
		_ = cmd.Process.Kill()
		t.Fatal("the rerun did not finish once the reader let go")
	}
}

// holdReadElsewhere starts a process (this test binary as sqlhold) that
// holds a read transaction on the database at path until the returned
// function is called.
func holdReadElsewhere(t *testing.T, path string) (release func()) {
	t.Helper()
	cmd := toolCmd(t, "sqlhold", t.TempDir(), path)
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	o := watchOutput(out, "holding")
	o.wait(t, "holding")
	release = sync.OnceFunc(func() {
		in.Close()
		if code := waitExit(t, cmd); code != 0 {
			t.Errorf("sqlhold exited %d", code)
		}
	})
	t.Cleanup(release)
	return release
}

// sqlHold is the sqlhold command: it opens the database named by its
// argument, begins a read transaction, says "holding" on stdout, and
// commits once stdin closes.
func sqlHold() int {
	u := url.URL{Scheme: "file", Opaque: (&url.URL{Path: os.Args[1]}).EscapedPath(), RawQuery: "mode=rw"}
	db, err := sql.Open("sqlite", u.String())
	if err != nil {
		return fail(err)
	}
	defer db.Close()
	ctx := context.Background()
	c, err := db.Conn(ctx)
	if err != nil {
		return fail(err)
	}
	defer c.Close()
	var n int64
	for _, q := range []string{"PRAGMA busy_timeout=60000", "BEGIN"} {
		if _, err := c.ExecContext(ctx, q); err != nil {
			return fail(err)
		}
	}
	if err := c.QueryRowContext(ctx, "SELECT count(*) FROM kv").Scan(&n); err != nil {
		return fail(err)
	}
	os.Stdout.WriteString("holding\n")
	_, _ = io.Copy(io.Discard, os.Stdin)
	if _, err := c.ExecContext(ctx, "COMMIT"); err != nil {
		return fail(err)
	}
	return 0
}

func fail(err error) int {
	os.Stderr.WriteString("sqlhold: " + err.Error() + "\n")
	return 1
}

// pending reports whether a writer holds the database's PENDING lock: a
// new reader, which does not wait, is refused busy.
func pending(db *sql.DB) bool {
	ctx := context.Background()
	c, err := db.Conn(ctx)
	if err != nil {
		return false
	}
	defer c.Close()
	if _, err := c.ExecContext(ctx, "PRAGMA busy_timeout=0"); err != nil {
		return strings.Contains(err.Error(), "locked")
	}
	var n int64
	err = c.QueryRowContext(ctx, "SELECT count(*) FROM kv").Scan(&n)
	return err != nil && strings.Contains(err.Error(), "database is locked")
}

// Under --busy retry every op that failed busy counts as given up: with a
// budget of 1 ms and another program reading the database for the rest
// of the run, writers' COMMITs fail busy, and for every op kind gave_up
// equals its busy and locked errors.
func TestGaveUpCountsEveryBusyOp(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "gaveup.db")
	out := filepath.Join(dir, "run.json")
	cmd := gobenchCmd(t, dir, "mix", "--db", path, "--busy", "retry", "--busy-timeout", "1ms", "--procs", "4",
		"--duration", "3s", "--mix", "read=50,upsert=50", "--json", out)
	_, stderr, wait := startRun(t, cmd)
	release := holdReadTx(t, outsideDB(t, path))
	code := exitStatus(wait())
	release()
	if code != 0 {
		t.Fatalf("exit status %d; stderr:\n%s", code, stderr)
	}
	res := readRun(t, out)
	var busy int64
	for _, o := range res.Phases[0].Ops {
		failed := o.Errors.Busy + o.Errors.Locked
		busy += failed
		if o.LockWaits == nil || o.LockWaits.GaveUp != failed {
			t.Errorf("%s: %d ops failed busy or locked, lock waits %+v", o.Kind, failed, o.LockWaits)
		}
	}
	if busy == 0 {
		t.Fatal("no op failed busy: the reader held nothing up, and the test proves nothing")
	}
	if tot := res.Phases[0].Total; tot.LockWaits == nil || tot.LockWaits.GaveUp != busy {
		t.Errorf("total: %d failed busy, lock waits %+v", busy, tot.LockWaits)
	}
}
