package e2e

import (
	"context"
	"database/sql"
	"fmt"
	"net/url"
	"os"
	"strconv"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"
	_ "modernc.org/sqlite" // an outside witness: another SQLite than the one under test

	"github.com/gobench/gobench/pkg/result"
)

// openOutside opens the database at path with modernc's database/sql
// driver, as another application would.
func openOutside(ts *testscript.TestScript, path, mode string) *sql.DB {
	u := url.URL{Scheme: "file", Opaque: (&url.URL{Path: ts.MkAbs(path)}).EscapedPath(), RawQuery: "mode=" + mode}
	db, err := sql.Open("sqlite", u.String())
	ts.Check(err)
	return db
}

// sqlexec DB SQL... runs statements on DB (creating it), outside gobench:
// a user's own database, made the way their application would.
func sqlExec(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: sqlexec DB SQL...")
	}
	db := openOutside(ts, args[0], "rwc")
	defer db.Close()
	for _, q := range args[1:] {
		if _, err := db.ExecContext(context.Background(), q); err != nil {
			ts.Fatalf("%s: %v", q, err)
		}
	}
}

// sqlvalue DB QUERY WANT asserts that QUERY, read outside gobench, gives
// the one value WANT.
func sqlValue(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 3 {
		ts.Fatalf("usage: sqlvalue DB QUERY WANT")
	}
	got := queryOne(ts, args[0], args[1])
	if (got == args[2]) == neg {
		ts.Fatalf("%s gave %s; want %s%s", args[1], got, map[bool]string{true: "not "}[neg], args[2])
	}
}

func queryOne(ts *testscript.TestScript, path, query string) string {
	db := openOutside(ts, path, "ro")
	defer db.Close()
	var v sql.NullString
	if err := db.QueryRowContext(context.Background(), query).Scan(&v); err != nil {
		ts.Fatalf("%s: %v", query, err)
	}
	return v.String
}

// ackcheck RESULT SCRIPT DB QUERY asserts that QUERY on DB, read outside
// gobench, counts exactly the runs of SCRIPT the result acknowledged
// (over every run and phase, warm-up excluded), and that there were
// some: no acknowledged write lost, none counted that did not commit.
func ackCheck(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 4 {
		ts.Fatalf("usage: ackcheck RESULT SCRIPT DB QUERY")
	}
	s := readSuite(ts, args[0])
	var acked, failed int64
	for _, c := range s.Cells {
		for _, r := range c.Runs {
			for _, ph := range r.Phases {
				if o, ok := ph.Op(args[1]); ok {
					acked += o.Count - o.Errors.Total - o.NotFound
					failed += o.Errors.Total
				}
			}
		}
	}
	got, err := strconv.ParseInt(queryOne(ts, args[2], args[3]), 10, 64)
	ts.Check(err)
	ts.Logf("%s: %d acknowledged, %d failed; %s = %d", args[1], acked, failed, args[3], got)
	if acked == 0 || got != acked {
		ts.Fatalf("%s counts %d, but the result acknowledged %d runs of %s", args[3], got, acked, args[1])
	}
}

// samerows DB QUERY DB... asserts that QUERY, a query of two columns,
// gives the same rows, and some, on every database, read outside gobench:
// runs of one seed on several drivers and modes logged the same scripts,
// with the same parameter values, for every worker.
func sameRows(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 3 {
		ts.Fatalf("usage: samerows DB QUERY DB...")
	}
	query := args[1]
	var first string
	for i, path := range append([]string{args[0]}, args[2:]...) {
		db := openOutside(ts, path, "ro")
		rows, err := db.QueryContext(context.Background(), query)
		ts.Check(err)
		var b strings.Builder
		n := 0
		for rows.Next() {
			var a, c sql.NullString
			ts.Check(rows.Scan(&a, &c))
			fmt.Fprintf(&b, "%s=%s\n", a.String, c.String)
			n++
		}
		ts.Check(rows.Err())
		rows.Close()
		db.Close()
		if n == 0 {
			ts.Fatalf("%s: %s gave no rows", path, query)
		}
		if i == 0 {
			first = b.String()
			ts.Logf("%s:\n%s", path, first)
		} else if b.String() != first {
			ts.Fatalf("%s differs from %s:\n%s\nwant:\n%s", path, args[0], b.String(), first)
		}
	}
}

// tpcbcheck FILE asserts that every run of a result or suite file ran
// TPC-B's check after it (see gobench sql --builtin tpcb-like) and that
// the check held: its four invariants tested, none broken, over as many
// transactions as the run acknowledged, and some.
func tpcbCheck(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: tpcbcheck FILE")
	}
	s := readSuite(ts, args[0])
	runs := 0
	for _, c := range s.Cells {
		for _, r := range c.Runs {
			runs++
			v := r.Verify
			if !r.Complete || v == nil {
				ts.Fatalf("%s: complete %v, check %+v: want a complete, checked run", c.Settings, r.Complete, v)
			}
			var acked int64
			for _, ph := range r.Phases {
				acked += ph.Total.Count - ph.Total.Errors.Total
			}
			if v.Invariants != 4 || v.Violations != 0 || v.AckedWrites != acked || acked == 0 {
				ts.Fatalf("%s: check %+v; want 4 invariants, 0 violations, over the %d transactions acknowledged", c.Settings, v, acked)
			}
			ts.Logf("%s: TPC-B invariants hold over %d transactions", c.Settings, acked)
		}
	}
	if runs == 0 {
		ts.Fatalf("no runs in %s", args[0])
	}
}

// capcheck FILE check... asserts facts about a capacity result:
//
//	found   every cell found a rate, confirmed by a step that met every
//	        objective at that rate, after steps judged on each objective
//	consistent  the search followed what it measured, whatever the
//	        machine sustained: each step is met exactly when all its
//	        verdicts pass, the achieved-rate verdict is the step's achieved
//	        rate against its offered one, a single step met leads to
//	        confirmation steps, and a rate found is that of a confirmation
//	        met (none found: no rate, no confirmation kept)
//	max=R   no step offered more than R ops/s
//	none    no cell found a rate, and every step was judged not met
func capCheck(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: capcheck FILE check...")
	}
	f, err := os.Open(ts.MkAbs(args[0]))
	ts.Check(err)
	defer f.Close()
	c, err := result.ReadCapacity(f)
	ts.Check(err)
	if len(c.Cells) == 0 {
		ts.Fatalf("no cells")
	}
	for _, cv := range c.Cells {
		if !cv.Complete || len(cv.Steps) == 0 {
			ts.Fatalf("%s: complete %v, %d steps", cv.Settings, cv.Complete, len(cv.Steps))
		}
		for _, st := range cv.Steps {
			if len(st.Verdicts) != len(c.Objectives)+2 {
				ts.Fatalf("a step with %d verdicts for %d objectives and 2 implicit conditions", len(st.Verdicts), len(c.Objectives))
			}
		}
		for _, a := range args[1:] {
			key, val, _ := strings.Cut(a, "=")
			switch key {
			case "found":
				if cf := cv.Confirmed; !cv.Found || cf == nil || !cf.Met || !cf.Confirmation || cf.Offered != cv.Rate {
					ts.Fatalf("%s: found %v at %v, confirmed by %+v", cv.Settings, cv.Found, cv.Rate, cv.Confirmed)
				}
			case "consistent":
				capConsistent(ts, cv)
			case "max":
				limit, _ := strconv.ParseFloat(val, 64)
				for _, st := range cv.Steps {
					if st.Offered > limit {
						ts.Fatalf("a step offered %v ops/s, above %v", st.Offered, limit)
					}
				}
			case "none":
				for _, st := range cv.Steps {
					if st.Met {
						ts.Fatalf("a step was met: %+v", st)
					}
				}
				if cv.Found {
					ts.Fatalf("%s found %v", cv.Settings, cv.Rate)
				}
			default:
				ts.Fatalf("unknown check %q", a)
			}
		}
		ts.Logf("%s: %d steps, found %v at %.1f ops/s", cv.Settings, len(cv.Steps), cv.Found, cv.Rate)
	}
}

// capConsistent checks that a capacity curve follows from its own steps
// (capcheck's consistent).
func capConsistent(ts *testscript.TestScript, cv result.CapacityCurve) {
	singleMet, confirmations := false, 0
	for i, st := range cv.Steps {
		all := true
		for _, v := range st.Verdicts {
			all = all && v.Pass
			if strings.HasPrefix(v.Expression, "achieved rate >= ") &&
				(v.Value != st.Achieved || v.Threshold > st.Offered || v.Pass != (st.Achieved >= v.Threshold)) {
				ts.Fatalf("step %d: offered %v, achieved %v, judged %+v", i+1, st.Offered, st.Achieved, v)
			}
		}
		if st.Met != all {
			ts.Fatalf("step %d: met %v, its verdicts %+v", i+1, st.Met, st.Verdicts)
		}
		singleMet = singleMet || (st.Met && !st.Confirmation)
		if st.Confirmation {
			confirmations++
		}
	}
	if singleMet && confirmations == 0 {
		ts.Fatalf("%s: a step met the objectives and none confirmed it", cv.Settings)
	}
	if cf := cv.Confirmed; cv.Found {
		if cf == nil || !cf.Met || !cf.Confirmation || cf.Offered != cv.Rate {
			ts.Fatalf("%s: found %v, confirmed by %+v", cv.Settings, cv.Rate, cf)
		}
	} else if cv.Rate != 0 || cf != nil {
		ts.Fatalf("%s: no rate found, yet rate %v, confirmed by %+v", cv.Settings, cv.Rate, cf)
	}
	ts.Logf("%s: %d steps (%d confirmations), single steps met: %v, found %v", cv.Settings, len(cv.Steps), confirmations, singleMet, cv.Found)
}
