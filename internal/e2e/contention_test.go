package e2e

import (
	"context"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/gobench/gobench/pkg/result"
)

// contention FILE check... asserts facts about every run of a result or
// suite file, to prove a contended run told the truth and met contention:
//
//	verified        complete, verified, 0 violations over acknowledged writes
//	steps           every run had ops whose BEGIN or COMMIT found the
//	                database busy, as the engine counted them
//	steps=DRIVERS   the same, for the runs of DRIVERS (a comma list) only
//	                (where the others' busy handler, SQLite's own, waits
//	                out of sight)
//	commits         busy COMMITs in each driver's runs in a journal mode
//	                where a COMMIT waits for readers (all but WAL)
//	commits=any     busy COMMITs in such runs of some driver
//	failed          some ops failed busy: writes that were not acknowledged
func contention(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: contention FILE check...")
	}
	f, err := os.Open(ts.MkAbs(args[0]))
	ts.Check(err)
	defer f.Close()
	s, err := result.ReadSuite(f)
	ts.Check(err)
	var runs []*result.Result
	for _, c := range s.Cells {
		runs = append(runs, c.Runs...)
	}
	name := func(r *result.Result) string {
		return fmt.Sprintf("%s/%s/%s", r.Plan.Driver, r.Plan.Mode, r.Environment.StoreFact("journal_mode"))
	}
	commits := map[string]int64{} // busy COMMITs by driver, outside WAL
	var failed int64
	for _, r := range runs {
		var begins, comms int64
		for _, ph := range r.Phases {
			for _, o := range ph.Ops {
				begins += o.BusyBegins
				comms += o.BusyCommits
			}
			failed += ph.Total.Errors.Busy + ph.Total.Errors.Locked
		}
		if r.Environment.StoreFact("journal_mode") != "wal" {
			commits[r.Plan.Driver] += comms
		}
		ts.Logf("%s: %d ops met a busy BEGIN, %d a busy COMMIT; %d ops failed busy", name(r), begins, comms, r.Phases[0].Total.Errors.Busy)
		for _, a := range args[1:] {
			key, val, _ := strings.Cut(a, "=")
			switch {
			case key == "verified":
				v := r.Verify
				if !r.Complete || v == nil || v.Violations != 0 || v.AckedWrites == 0 {
					ts.Fatalf("%s: complete %v, problems %v, verify %+v", name(r), r.Complete, r.Problems, v)
				}
			case key == "steps" && (val == "" || slices.Contains(strings.Split(val, ","), r.Plan.Driver)):
				if begins+comms == 0 {
					ts.Fatalf("%s: no op met a busy BEGIN or COMMIT: the run was not contended", name(r))
				}
			}
		}
	}
	var allCommits int64
	for _, n := range commits {
		allCommits += n
	}
	for _, a := range args[1:] {
		switch a {
		case "commits":
			for d, n := range commits {
				if n == 0 {
					ts.Fatalf("%s: no busy COMMIT in any run outside WAL", d)
				}
			}
			if len(commits) == 0 {
				ts.Fatalf("no run outside WAL")
			}
		case "commits=any":
			if allCommits == 0 {
				ts.Fatalf("no busy COMMIT in any run outside WAL")
			}
		case "failed":
			if failed == 0 {
				ts.Fatalf("no op failed busy")
			}
		}
	}
}

// holdread DB TIMEOUT is another application reading the database, for
// a run whose busy timeout is TIMEOUT: once gobench has created and
// preloaded it, it opens a read transaction (BEGIN; SELECT count(*) FROM
// kv) and holds it, and so the file's SHARED lock, until a writer's
// COMMIT waits for it (a writer holds the PENDING lock), then for twice
// TIMEOUT and a second more, then commits. The writer it saw waiting,
// which began waiting before it was seen, times out busy: readiness, not
// a guess at how long the run takes to start. (SQLite's busy handler
// counts the sleeps it asks for, not the time they take, so on a loaded
// machine a wait can outlast its timeout; hence twice.)
func holdRead(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: holdread DB TIMEOUT")
	}
	timeout, err := time.ParseDuration(args[1])
	ts.Check(err)
	ctx := context.Background()
	deadline := time.Now().Add(time.Minute) // only a bound on a broken run
	for {
		if time.Now().After(deadline) {
			ts.Fatalf("the database was not ready within a minute")
		}
		time.Sleep(20 * time.Millisecond)
		db := openOutside(ts, args[0], "ro")
		c, err := db.Conn(ctx)
		if err != nil {
			db.Close()
			continue
		}
		var n int64
		if _, err := c.ExecContext(ctx, "BEGIN"); err != nil {
			c.Close()
			db.Close()
			continue
		}
		if err := c.QueryRowContext(ctx, "SELECT count(*) FROM kv").Scan(&n); err != nil || n < 10000 {
			_, _ = c.ExecContext(ctx, "ROLLBACK")
			c.Close()
			db.Close()
			continue // not created or not preloaded yet
		}
		ts.Logf("holding a read transaction on %d rows until a writer waits for it", n)
		// Closing a descriptor of the file drops every POSIX lock this
		// process holds on it, the read transaction's too: the probe's
		// stays open until the transaction ended.
		f, err := os.Open(ts.MkAbs(args[0]))
		ts.Check(err)
		waitForWriter(ts, f, deadline)
		hold := 2*timeout + time.Second
		ts.Logf("a writer waits for the lock: holding it %v more", hold)
		time.Sleep(hold)
		_, err = c.ExecContext(ctx, "COMMIT")
		c.Close()
		db.Close()
		f.Close()
		ts.Check(err)
		return
	}
}

// pendingByte is the offset of the byte whose write lock is SQLite's
// PENDING lock on a rollback-journal database (os_unix.c).
const pendingByte = 0x40000000

// waitForWriter returns once another process holds the PENDING lock on
// the database open as f: a writer waiting for readers to leave so that
// its COMMIT can write. (A second connection of this process would not
// see it: SQLite shares one process's locks between its connections.)
func waitForWriter(ts *testscript.TestScript, f *os.File, deadline time.Time) {
	for {
		lk := syscall.Flock_t{Type: syscall.F_RDLCK, Whence: io.SeekStart, Start: pendingByte, Len: 1}
		ts.Check(syscall.FcntlFlock(f.Fd(), syscall.F_GETLK, &lk))
		if lk.Type == syscall.F_WRLCK {
			return
		}
		if time.Now().After(deadline) {
			ts.Fatalf("no writer waited for the lock within a minute")
		}
		time.Sleep(5 * time.Millisecond)
	}
}
