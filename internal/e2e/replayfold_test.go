package e2e

import (
	"strconv"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/gobench/gobench/pkg/workload"
)

// replayfold A K ONE asserts that the replay result A folded the capture
// the result ONE replayed whole into K time slices (gobench replay
// --fold K): the statements A ran (run or skipped) and its schema
// statements run first are the capture's, each once; each of its
// connections is a captured connection's part in one slice, each slice's
// part of a connection once, no connection's parts more than its
// statements; and A ran more connections than ONE, at most K times as
// many.
func replayFold(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 3 {
		ts.Fatalf("usage: replayfold A K ONE")
	}
	k, err := strconv.Atoi(args[1])
	ts.Check(err)
	stmts, conns := replayRan(ts, args[0])
	oneStmts, oneConns := replayRan(ts, args[2])
	one := map[[2]uint64]int64{}
	for _, w := range onlyReplay(ts, args[2]).Workers {
		one[[2]uint64{w.Stream, w.Conn}] += w.Statements
	}
	r := onlyReplay(ts, args[0])
	f := r.TimeFold
	if f == nil || f.Slices != k || len(f.Statements) != k {
		ts.Fatalf("%s: fold %+v, want %d slices", args[0], f, k)
	}
	if stmts+f.Schema != oneStmts || r.Statements != oneStmts {
		ts.Fatalf("%s ran %d statements and %d schema statements first, of %d; the capture's are %d", args[0], stmts, f.Schema, r.Statements, oneStmts)
	}
	parts := map[[3]uint64]bool{}
	per := map[[2]uint64]int64{}
	for _, w := range r.Workers {
		if w.Stream == 0 {
			continue
		}
		key := [3]uint64{w.Stream, w.Conn, uint64(w.Slice)}
		if parts[key] || w.Slice < 0 || w.Slice >= k {
			ts.Fatalf("%s: connection %d of process %d in slice %d twice, or of no slice", args[0], w.Conn, w.Stream, w.Slice)
		}
		parts[key] = true
		per[[2]uint64{w.Stream, w.Conn}] += w.Statements
	}
	for c, n := range per {
		if n > one[c] {
			ts.Fatalf("%s: connection %v ran %d statements in its slices, the capture %d", args[0], c, n, one[c])
		}
	}
	if conns <= oneConns || conns > int64(k)*oneConns {
		ts.Fatalf("%s ran %d connections, want more than the capture's %d, at most %d times as many", args[0], conns, oneConns, k)
	}
	ts.Logf("%s: %d statements (%d schema first) on %d connections, the capture's %d on %d; slices %v", args[0], stmts, f.Schema, conns, oneStmts, oneConns, f.Statements)
}

// onlyReplay returns the replay of a result file of one run.
func onlyReplay(ts *testscript.TestScript, name string) *workload.Replay {
	s := readSuite(ts, name)
	if len(s.Cells) != 1 || len(s.Cells[0].Runs) != 1 || s.Cells[0].Runs[0].Plan.Replay == nil {
		ts.Fatalf("%s: not one replay's run", name)
	}
	return s.Cells[0].Runs[0].Plan.Replay
}
