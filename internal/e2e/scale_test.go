package e2e

import (
	"os"
	"strconv"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/gobench/gobench/pkg/result"
)

// scaleResult writes a synthetic run: a recorded run with its latencies
// multiplied and its throughputs divided by FACTOR (1.3: a build 30%
// slower per op), started HOURS later, its plan's seed SEED where given
// (another plan). A results history of such runs has a step exactly
// where the script puts one, whatever this machine's speed.
//
//	scaleresult IN OUT FACTOR HOURS [SEED]
func scaleResult(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 4 || len(args) > 5 {
		ts.Fatalf("usage: scaleresult IN OUT FACTOR HOURS [SEED]")
	}
	r := readResult(ts, args[0])
	factor, err := strconv.ParseFloat(args[2], 64)
	ts.Check(err)
	hours, err := strconv.Atoi(args[3])
	ts.Check(err)
	if len(args) == 5 {
		r.Plan.Seed, err = strconv.ParseUint(args[4], 10, 64)
		ts.Check(err)
	}
	scale(r, factor, hours)
	f, err := os.Create(ts.MkAbs(args[1]))
	ts.Check(err)
	ts.Check(r.Write(f))
	ts.Check(f.Close())
}

// scale makes r a synthetic run: its latencies multiplied and its
// throughputs divided by factor, started hours later.
func scale(r *result.Result, factor float64, hours int) {
	r.StartedAt = r.StartedAt.Add(time.Duration(hours) * time.Hour)
	ph := &r.Phases[0]
	ops := []*result.OpStats{&ph.Total}
	for i := range ph.Ops {
		ops = append(ops, &ph.Ops[i])
	}
	for _, o := range ops {
		o.OpsPerSec /= factor
		l := &o.Latency
		for _, v := range []*float64{&l.MeanMicros, &l.P50Micros, &l.P90Micros, &l.P99Micros, &l.P999Micros, &l.MaxMicros} {
			*v *= factor
		}
	}
}
