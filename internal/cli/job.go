package cli

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/gobench/gobench/pkg/job"
	"github.com/gobench/gobench/pkg/judge"
	"github.com/gobench/gobench/pkg/report"
	"github.com/gobench/gobench/pkg/result"
	"github.com/gobench/gobench/pkg/workload"
)

// newJob returns the job a run command resolved: its cells and the run
// options that belong to the plan (repeats, where databases live, the
// fsync ceiling), with the command line it came from.
func (o *runOptions) newJob(env *Env, command string, cells []*workload.Plan, baseline string, expects []string) *job.Job {
	args := slices.DeleteFunc(slices.Clone(env.Args), func(a string) bool { return a == "--dry-run" || a == "--dry-run=true" })
	j := job.New(command, args, cells, o.repeat)
	j.Baseline, j.Expect, j.Ceiling = baseline, expects, o.ceiling
	j.DB, j.Reuse, j.Dir = o.db, o.reuse, o.dir
	return j
}

// dryRun prints the job as a plan file on stdout: what would run.
func dryRun(env *Env, j *job.Job) error {
	if err := j.Write(env.Stdout); err != nil {
		return fmt.Errorf("writing the plan: %w", err)
	}
	return nil
}

// runJob runs every cell of the job its number of repeats, interleaved,
// judges its gates and writes the report: what every run command does
// once its flags (or a plan file) are resolved. ro says how the report
// reads; a crud job's baseline goes into it.
func runJob(ctx context.Context, env *Env, o *runOptions, j *job.Job, ro report.Options) error {
	gates, err := j.Gates()
	if err != nil {
		return usage(err)
	}
	if o.dryRun {
		return dryRun(env, j)
	}
	o.repeat, o.ceiling = j.Repeat, j.Ceiling
	o.db, o.reuse, o.dir = j.DB, j.Reuse, j.Dir
	if j.Command == "crud" {
		ro.Baseline = j.Baseline
	}
	runs, runErr := o.runCells(ctx, env, j.Command, j.Cells)
	if len(runs) == 0 {
		return runErr
	}
	suite, err := result.NewSuite(j.Command, "interleaved", runs, j.SuiteBaseline())
	if err != nil {
		return errors.Join(runErr, err)
	}
	// A single mix or sql run is reported (and written as JSON) as a run,
	// not a suite of one.
	single := job.IsMatrix(j.Command) && len(j.Cells)*j.Repeat == 1
	var gateErr error
	if runErr == nil {
		gateErr = judgeGates(env, suite, gates, single)
	}
	if err := o.writeOutput(env, suite, single, ro); err != nil || runErr != nil {
		return errors.Join(runErr, err)
	}
	return gateErr
}

// judgeGates evaluates the gates on the suite, keeps the verdicts in it (and
// in the run, for a single run), prints each verdict on stderr and returns
// ErrThreshold when any failed.
func judgeGates(env *Env, suite *result.Suite, expects []judge.Expectation, single bool) error {
	if len(expects) == 0 {
		return nil
	}
	gates, err := judge.Evaluate(suite, expects)
	if err != nil {
		return err
	}
	suite.Gates = gates
	if single {
		suite.Cells[0].Runs[0].Gates = gates
	}
	for _, g := range gates {
		fmt.Fprintf(env.Stderr, "gobench: %s\n", g.Verdict)
	}
	if n := result.GatesFailed(gates); n > 0 {
		return fmt.Errorf("%w: %d of %d gates failed", judge.ErrThreshold, n, len(gates))
	}
	return nil
}
