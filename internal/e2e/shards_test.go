package e2e

import (
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/gobench/gobench/pkg/result"
)

// suiteCheck checks a suite result file's cells and the runs of each:
//
//	suitecheck FILE shard=I/N|whole CELL:REPEATS...
//
// shard=I/N: the suite is shard I of N of its job; whole: it is no shard
// and misses no run. Each CELL:REPEATS, in order, is a cell's settings
// (journal=wal: every run of the cell has them) and the job's repeats
// its runs were (1,2), and there are no other cells. Every run ran every worker of its cell (no shard of
// its workers).
func suiteCheck(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 3 {
		ts.Fatalf("usage: suitecheck FILE shard=I/N|whole CELL:REPEATS...")
	}
	f, err := os.Open(ts.MkAbs(args[0]))
	ts.Check(err)
	defer f.Close()
	s, err := result.ReadSuite(f)
	ts.Check(err)
	switch want := args[1]; {
	case want == "whole":
		if s.Shard != nil || len(s.Missing) > 0 {
			ts.Fatalf("%s is %v, missing %v; want the whole job", args[0], s.Shard, s.Missing)
		}
	case strings.HasPrefix(want, "shard="):
		if s.Shard == nil || fmt.Sprintf("shard=%d/%d", s.Shard.Index, s.Shard.Count) != want {
			ts.Fatalf("%s is %v, want %s", args[0], s.Shard, want)
		}
	default:
		ts.Fatalf("suitecheck: %q: want shard=I/N or whole", want)
	}
	cells := args[2:]
	if len(s.Cells) != len(cells) {
		ts.Fatalf("%s has %d cells, want %d (%s)", args[0], len(s.Cells), len(cells), strings.Join(cells, " "))
	}
	for i, c := range s.Cells {
		name, reps, _ := strings.Cut(cells[i], ":")
		var got []string
		for _, r := range c.Runs {
			if r.Slot == nil {
				ts.Fatalf("cell %s: a run without its place in the job", name)
			}
			have := result.RunSettings(r)
			for _, want := range strings.Split(name, ",") {
				k, v, _ := strings.Cut(want, "=")
				if got, _ := have.Get(k); got != v {
					ts.Fatalf("cell %d: a run of %s, want %s", i+1, have, name)
				}
			}
			got = append(got, strconv.Itoa(r.Slot.Repeat))
			workers, want := len(r.Phases[0].Workers), r.Plan.Procs*r.Plan.Goroutines
			if r.Plan.Shard != nil || workers != want || !r.Complete {
				ts.Fatalf("cell %s repeat %d: %d workers of %d, worker shard %v, complete %v", name, r.Slot.Repeat, workers, want, r.Plan.Shard, r.Complete)
			}
		}
		if !slices.Equal(got, strings.Split(reps, ",")) {
			ts.Fatalf("cell %s ran repeats %s, want %s", name, strings.Join(got, ","), reps)
		}
	}
}
