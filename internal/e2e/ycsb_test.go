package e2e

import (
	"math"
	"strconv"

	"github.com/gobench/gobench/pkg/deal"
	"github.com/gobench/gobench/pkg/result"
	"github.com/gobench/gobench/pkg/workload"
	"github.com/rogpeppe/go-internal/testscript"
)

// ycsbCheck is "ycsbcheck FILE CELLS": every run of the result file (a
// suite of CELLS cells, or one run) ran a YCSB workload whole: complete;
// a load inserted every record of its range, once; a run dealt
// operationcount ops, each op kind as often as the workers' decks deal it
// (its exact proportion of every full deck) and within one deck per
// worker of its proportion; no op failed, and no read found a record
// missing (the records were loaded, and latest reads only acknowledged
// inserts).
func ycsbCheck(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: ycsbcheck FILE CELLS")
	}
	s := readSuite(ts, args[0])
	if n, _ := strconv.Atoi(args[1]); len(s.Cells) != n {
		ts.Fatalf("%d cells, want %s", len(s.Cells), args[1])
	}
	for _, c := range s.Cells {
		for _, r := range c.Runs {
			checkYCSBRun(ts, r)
		}
	}
}

func checkYCSBRun(ts *testscript.TestScript, r *result.Result) {
	cell := result.PlanSettings(&r.Plan).String()
	rec := r.Plan.Records
	if !r.Complete || rec == nil {
		ts.Fatalf("%s: complete %v, records %v: not a whole YCSB run", cell, r.Complete, rec != nil)
	}
	ph := r.Phases[0]
	spec := r.Plan.Phases[0]
	want := int64(rec.OperationCount)
	if spec.Access == workload.AccessEach {
		want = int64(rec.InsertCount)
	}
	if ph.Total.Count != want {
		ts.Fatalf("%s: %d ops, want %d", cell, ph.Total.Count, want)
	}
	dealt := map[workload.Op]int64{}
	for w := range r.Plan.Workers() {
		l := deal.NewLottery(&r.Plan, 0, w)
		for range l.Len() {
			op, _ := l.Next()
			dealt[op]++
		}
	}
	for _, w := range spec.Mix {
		o, _ := ph.Op(w.Op.String())
		if o.Count != dealt[w.Op] {
			ts.Fatalf("%s: %d %s ops, the decks dealt %d", cell, o.Count, w.Op, dealt[w.Op])
		}
		if share := float64(want) * w.Percent / 100; math.Abs(float64(o.Count)-share) > 20*float64(r.Plan.Workers()) {
			ts.Fatalf("%s: %d %s ops, more than a deck per worker away from %v%% of %d", cell, o.Count, w.Op, w.Percent, want)
		}
		if o.Errors.Total != 0 || o.NotFound != 0 {
			ts.Fatalf("%s: %s: %d errors %+v, %d found no record", cell, w.Op, o.Errors.Total, o.Errors, o.NotFound)
		}
	}
}
