package e2e

import (
	"encoding/json"
	"os"
	"strconv"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/gobench/gobench/pkg/result"
)

// replaysum A N B... asserts that the replay result A ran N times the
// statements the results B ran together (each file's every run counted:
// statements run and skipped), and, with one B, N times its captured
// connections: a scaled replay (--scale N) against one of the whole
// capture, or a whole replay against its windows (N 1).
func replaySum(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 3 {
		ts.Fatalf("usage: replaysum A N B...")
	}
	n, err := strconv.ParseInt(args[1], 10, 64)
	ts.Check(err)
	stmts, conns := replayRan(ts, args[0])
	var sum, sumConns int64
	for _, b := range args[2:] {
		s, c := replayRan(ts, b)
		sum, sumConns = sum+s, sumConns+c
	}
	if stmts != n*sum {
		ts.Fatalf("%s ran %d statements, want %d × %d (%v)", args[0], stmts, n, sum, args[2:])
	}
	if len(args) == 3 && conns != n*sumConns {
		ts.Fatalf("%s replayed %d connections, want %d × %d (%s)", args[0], conns, n, sumConns, args[2])
	}
	ts.Logf("%s: %d statements on %d connections", args[0], stmts, conns)
}

// replayRan returns the statements a replay result's runs ran (or
// skipped) and the captured connections they replayed, copies counted.
func replayRan(ts *testscript.TestScript, name string) (stmts, conns int64) {
	s := readSuite(ts, name)
	for _, c := range s.Cells {
		for _, r := range c.Runs {
			if r.Plan.Replay == nil || len(r.Phases) != 1 {
				ts.Fatalf("%s: not a replay's run", name)
			}
			t := r.Phases[0].Total
			stmts += t.Count + t.Skipped
			for _, w := range r.Plan.Replay.Workers {
				if w.Stream != 0 {
					conns++
				}
			}
		}
	}
	if stmts == 0 {
		ts.Fatalf("%s ran no statement", name)
	}
	return stmts, conns
}

// scalesteps FILE ONE SCALES asserts that the scale search FILE ran the
// scales listed (1,2,4), in that order, each running its scale times
// the statements the replay result ONE ran.
func scaleSteps(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 3 {
		ts.Fatalf("usage: scalesteps FILE ONE SCALES")
	}
	b, err := os.ReadFile(ts.MkAbs(args[0]))
	ts.Check(err)
	var s result.Scale
	ts.Check(json.Unmarshal(b, &s))
	one, _ := replayRan(ts, args[1])
	if len(s.Cells) != 1 {
		ts.Fatalf("%s: %d cells, want 1", args[0], len(s.Cells))
	}
	var got []string
	for _, st := range s.Cells[0].Steps {
		got = append(got, strconv.Itoa(st.Scale))
		if st.Statements != int64(st.Scale)*one {
			ts.Fatalf("%s: scale %d ran %d statements, want %d × %d", args[0], st.Scale, st.Statements, st.Scale, one)
		}
	}
	if strings.Join(got, ",") != args[2] {
		ts.Fatalf("%s: scales %s, want %s", args[0], strings.Join(got, ","), args[2])
	}
}
