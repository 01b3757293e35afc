package runner

import (
	"context"
	"fmt"
	"strings"

	"github.com/gobench/gobench/pkg/workload"

	"github.com/gobench/gobench/pkg/store"
)

// tpcbChecks are TPC-B's invariants on pgbench's tables, each a query
// that returns a row only when its invariant does not hold (a Scripter's
// statement counts rows, it does not return values). :acked is the number
// of transactions acknowledged.
var tpcbChecks = []struct {
	what, sql string
	acked     bool // the query binds :acked
}{
	{"the sum of account balances equals the sum of teller balances",
		`SELECT 1 WHERE (SELECT total(abalance) FROM pgbench_accounts) != (SELECT total(tbalance) FROM pgbench_tellers)`, false},
	{"the sum of teller balances equals the sum of branch balances",
		`SELECT 1 WHERE (SELECT total(tbalance) FROM pgbench_tellers) != (SELECT total(bbalance) FROM pgbench_branches)`, false},
	{"the sum of branch balances equals the sum of the history's deltas",
		`SELECT 1 WHERE (SELECT total(bbalance) FROM pgbench_branches) != (SELECT total(delta) FROM pgbench_history)`, false},
	{"the history holds one row per acknowledged transaction",
		`SELECT 1 WHERE (SELECT count(*) FROM pgbench_history) != :acked`, true},
}

// CheckSQL runs a sql workload's check (SQL.Check) on st after the run:
// for CheckTPCB, TPC-B's invariants, with acked the number of the
// script's transactions acknowledged over the whole run, warm-up
// included. Every invariant that does not hold is a violation; any makes
// the error ErrVerify. A plan without a check returns nil, nil.
func CheckSQL(ctx context.Context, st store.Store, plan *workload.Plan, acked int64) (*workload.VerifyReport, error) {
	if plan.SQL == nil || plan.SQL.Check == "" {
		return nil, nil
	}
	c, err := st.Conn(ctx)
	if err != nil {
		return nil, fmt.Errorf("checking the database: opening a connection: %w", err)
	}
	defer c.Close()
	sc, ok := c.(store.Scripter)
	if !ok {
		return nil, fmt.Errorf("%w: driver %s cannot run SQL", store.ErrInvalid, plan.Driver)
	}
	rep := &workload.VerifyReport{Integrity: "not available", AckedWrites: acked}
	if err := checkIntegrity(ctx, rep, st); err != nil {
		return nil, err
	}
	for _, chk := range tpcbChecks {
		var params []string
		var args []any
		if chk.acked {
			params, args = []string{"acked"}, []any{acked}
		}
		stmt, err := sc.Prepare(chk.sql, params)
		if err != nil {
			return rep, fmt.Errorf("checking that %s: %w", chk.what, err)
		}
		rows, err := stmt.Run(args...)
		if err != nil {
			return rep, fmt.Errorf("checking that %s: %w", chk.what, err)
		}
		rep.Invariants++
		if rows > 0 {
			rep.Violations++
			rep.Examples = append(rep.Examples, "TPC-B invariant broken: "+chk.what+" does not hold")
		}
	}
	if rep.Violations > 0 {
		return rep, fmt.Errorf("%w: %d violations after %d acknowledged transactions (integrity %s; %s)", workload.ErrVerify, rep.Violations, acked, rep.Integrity, strings.Join(rep.Examples, "; "))
	}
	return rep, nil
}
