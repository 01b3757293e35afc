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

// scalesteps FILE ONE SCALES [FOLDED] asserts that the scale search
// FILE ran the scales listed (1,2,4), in that order, each running its
// scale times the statements the replay result ONE ran; a search by the
// fold (--by fold) ran the statements of ONE at fold 1 and those of the
// folded replay result FOLDED (its schema statements run first, not
// counted) at every other.
func scaleSteps(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 3 && len(args) != 4 {
		ts.Fatalf("usage: scalesteps FILE ONE SCALES [FOLDED]")
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
	folded := int64(-1)
	if len(args) == 4 {
		folded, _ = replayRan(ts, args[3])
	}
	if (s.By == result.ScaleByFold) != (folded >= 0) || s.Cells[0].By != s.By {
		ts.Fatalf("%s: a search by %q (its cell's by %q), and FOLDED given: %v", args[0], s.By, s.Cells[0].By, folded >= 0)
	}
	for _, st := range s.Cells[0].Steps {
		got = append(got, strconv.Itoa(st.Scale))
		if folded >= 0 {
			if want := map[bool]int64{true: one, false: folded}[st.Scale == 1]; st.Statements != want {
				ts.Fatalf("%s: fold %d ran %d statements, want %d", args[0], st.Scale, st.Statements, want)
			}
			continue
		}
		if st.Statements != int64(st.Scale)*one {
			ts.Fatalf("%s: scale %d ran %d statements, want %d × %d", args[0], st.Scale, st.Statements, st.Scale, one)
		}
	}
	if strings.Join(got, ",") != args[2] {
		ts.Fatalf("%s: scales %s, want %s", args[0], strings.Join(got, ","), args[2])
	}
}
