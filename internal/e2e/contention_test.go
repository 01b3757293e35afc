package e2e

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
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

// holdread DB DURATION is another application reading the database: once
// gobench has created and preloaded it, it opens a read transaction
// (BEGIN; SELECT count(*) FROM kv) and holds it, and so the file's SHARED
// lock, for DURATION, then commits.
func holdRead(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: holdread DB DURATION")
	}
	hold, err := time.ParseDuration(args[1])
	ts.Check(err)
	ctx := context.Background()
	deadline := time.Now().Add(time.Minute)
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
		ts.Logf("holding a read transaction on %d rows for %v", n, hold)
		time.Sleep(hold)
		_, err = c.ExecContext(ctx, "COMMIT")
		c.Close()
		db.Close()
		ts.Check(err)
		return
	}
}
