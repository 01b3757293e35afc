package report

import (
	"strings"
	"testing"

	"github.com/gobench/gobench/pkg/result"
	"github.com/gobench/gobench/pkg/sqltrace"
	"github.com/gobench/gobench/pkg/workload"
)

// A replay whose trace does not hold every statement whole (a parameter
// omitted, a text cut) says so where the database differs, and does not
// blame the race, nor does one of a single connection; the statements it did not run are told apart from those
// skipped for a captured busy error.
func TestReplayLinesLoss(t *testing.T) {
	differs := &workload.ReplayCheck{Order: workload.ReplayRace, Compared: true, Tables: 1, Differences: []string{"table t differs"}}
	omitted := sqltrace.Loss{Statements: 1, IDs: []string{"q30553912"}}
	cut := sqltrace.Loss{Statements: 2, IDs: []string{"q591fdb11"}}
	tests := []struct {
		name      string
		rp        workload.Replay
		skipped   int64
		want, not []string
	}{
		{"a race", workload.Replay{Order: workload.ReplayRace, Workers: []workload.ReplayWorker{{Stream: 1}, {Stream: 2}}}, 0,
			[]string{"the transactions raced"}, []string{"omitted", "cut"}},
		{"one connection", workload.Replay{Order: workload.ReplayRace, Workers: []workload.ReplayWorker{{Stream: 1}, {}}}, 0,
			[]string{"not a race: one connection ran every statement", "randomblob()"}, []string{"raced"}},
		{"a value omitted", workload.Replay{Order: workload.ReplayRace, Omitted: omitted}, 0,
			[]string{"not a race: 0 statements cut and not run, 1 run with filler", "omitted: 1 statements with a parameter longer than 1 MiB", "(q30553912)"}, []string{"raced"}},
		{"texts cut, busy skipped", workload.Replay{Order: workload.ReplayCommit, Cut: cut}, 5,
			[]string{"; 3 not run (they found the database busy", "; 2 not run (their text was longer than the 1 MiB", "cut: 2 statements longer than 1 MiB", "not a race: 2 statements cut"}, []string{"raced", "databases:"}},
		{"another database", workload.Replay{Order: workload.ReplayCommit, Database: "/a.db", Unreplayed: []string{"/b.db"}}, 0,
			[]string{"databases: replayed /a.db; not replayed /b.db, which the trace's statements also ran on (--database picks another)"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rp := tt.rp
			r := &result.Result{Replay: differs}
			r.Plan.Replay = &rp
			ph := result.Phase{}
			ph.Total.Skipped = tt.skipped
			checkText(t, strings.Join(replayLines(r, ph), "\n"), tt.want, tt.not)
		})
	}
}

// A kind of statement that failed is told with its errors by class and
// the first one's message; a kind without a kept message is not.
func TestReplayLinesFirstError(t *testing.T) {
	r := &result.Result{Replay: &workload.ReplayCheck{Errors: []workload.ReplayError{
		{Kind: "q1a2b3c4", Class: "constraint", Message: "UNIQUE constraint failed: users.email"},
		{Kind: "q5", Class: "busy", Message: "database is locked"},
		{Kind: "q7", Class: "other", Message: "no such table: users"}}}}
	r.Plan.Replay = &workload.Replay{}
	ph := result.Phase{Ops: []result.OpStats{
		{Kind: "q1a2b3c4", Errors: result.Errors{Total: 55, Constraint: 55}},
		{Kind: "q5", Errors: result.Errors{Total: 3, Busy: 2, Other: 1}},
		{Kind: "q6", Errors: result.Errors{Total: 4, Other: 4}},
		{Kind: "q7", Errors: result.Errors{Total: 1, Other: 1}}}}
	checkText(t, strings.Join(replayLines(r, ph), "\n"),
		[]string{"failed q1a2b3c4: 55 constraint errors, first: UNIQUE constraint failed: users.email",
			"failed q5: 3 errors (busy 2, other 1), first: database is locked",
			"failed q7: 1 other error, first: no such table: users"}, []string{"q6"})
}

// The fairness line says how many workers it left out for running
// nothing.
func TestFairnessTextIdle(t *testing.T) {
	w := func(id int, ops int64) result.Worker {
		return result.Worker{ID: id, Ops: ops, OpsPerSec: float64(ops), Seconds: 1, Finished: true}
	}
	ph := &result.Phase{Workers: []result.Worker{w(0, 10), w(1, 10), w(2, 0)}}
	checkText(t, fairnessText(ph), []string{"fairness 1.00 (Jain's index over 2 workers' ops/s, not the 1 that ran nothing)"}, nil)
}
