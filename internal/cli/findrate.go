package cli

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/spf13/pflag"

	"github.com/gobench/gobench/internal/coord"
	"github.com/gobench/gobench/pkg/capacity"
	"github.com/gobench/gobench/pkg/job"
	"github.com/gobench/gobench/pkg/judge"
	"github.com/gobench/gobench/pkg/report"
	"github.com/gobench/gobench/pkg/result"
	"github.com/gobench/gobench/pkg/workload"
)

// searchFlags are the flags of a capacity search (--find-rate), on the
// commands that run open loop.
type searchFlags struct {
	spec capacity.Spec
	step time.Duration
	// settle is bound apart: a flag of its own type cannot bind a
	// workload.Duration.
	settle time.Duration
}

// AddFlags binds the flags.
func (f *searchFlags) AddFlags(fs *pflag.FlagSet) {
	f.spec = capacity.DefaultSpec()
	inGroup(fs, groupSearch, func() {
		fs.StringVar(&f.spec.Objectives, "find-rate", "", "find the highest open-loop rate that meets these latency objectives, such as 'upsert p99 <= 5ms' (several joined with commas, all must hold), judged from each op's due time; prints each cell's sustainable rate and its curve")
		fs.Var(rateValue{&f.spec.RateMax}, "rate-max", "--find-rate: the highest rate to try (default: what a closed-loop probe of one step achieves)")
		fs.Var(shareValue{p: &f.spec.Tolerance}, "tolerance", "--find-rate: bisect until the highest rate met is within this share of the lowest failed (5% or 0.05)")
		fs.DurationVar(&f.step, "step-duration", time.Duration(f.spec.Step), "--find-rate: measured length of each step (after --settle); the rate found is confirmed by three runs 3× as long")
		fs.DurationVar(&f.settle, "settle", time.Duration(f.spec.Settle), "--find-rate: how long each step runs at its rate before it is measured")
		fs.Var(shareValue{p: &f.spec.MaxErrorShare}, "max-errors", "--find-rate: the share of a step's ops that may fail (1% or 0.01); a step must also complete 95% of the ops it was offered")
	})
}

// searchConflicts are the flags a capacity search sets itself, per step.
var searchConflicts = []string{"rate", "duration", "queries", "warmup", "hlog", "ceiling", "crash"}

// search returns the capacity search the flags ask for, or nil without
// --find-rate.
func (f *searchFlags) search(fs *pflag.FlagSet, o *runOptions) (*capacity.Spec, error) {
	if f.spec.Objectives == "" {
		for _, name := range []string{"rate-max", "tolerance", "step-duration", "settle", "max-errors"} {
			if fs.Changed(name) {
				return nil, fmt.Errorf("--%s applies to --find-rate", name)
			}
		}
		return nil, nil
	}
	for _, name := range searchConflicts {
		if fs.Lookup(name) != nil && fs.Changed(name) {
			return nil, fmt.Errorf("--find-rate runs steps of its own: it takes no --%s (see --step-duration, --settle, --rate-max)", name)
		}
	}
	if o.repeat != 1 {
		return nil, errors.New("--find-rate runs each cell's search once: it takes no --repeat")
	}
	s := f.spec
	s.Step, s.Settle = workload.Duration(f.step), workload.Duration(f.settle)
	if err := s.Validate(); err != nil {
		return nil, err
	}
	return &s, nil
}

// runSearch runs the job's capacity search on every cell and writes the
// report. An interrupted search reports the steps it ran.
func runSearch(ctx context.Context, env *Env, o *runOptions, j *job.Job, gates []judge.Expectation) error {
	s, err := j.Search.Search()
	if err != nil {
		return usage(err)
	}
	skeleton, err := j.Skeleton()
	if err != nil {
		return usage(err)
	}
	cfg, err := o.coordCells(env, j, 1)
	if err != nil {
		return err
	}
	cfg.Base.Notes = nil // each step's setup notes would drown the steps' own
	n, d := j.Search.Estimate()
	o.notef(env, "--find-rate: about %d steps a cell, %s for %d %s, longer if confirmations fail", n,
		(time.Duration(len(j.Cells)) * d).Round(time.Second), len(j.Cells), map[bool]string{true: "cell", false: "cells"}[len(j.Cells) == 1])
	steps := 0
	curves, runErr := coord.FindRates(ctx, coord.Search{Cells: cfg, Search: s, Settle: time.Duration(j.Search.Settle),
		Observe: func(i int, st result.CapacityStep) {
			steps++
			o.notef(env, "%s", fitWidth(env, fmt.Sprintf("step %d: %s", steps, report.StepSummary(st)), len("gobench: ")))
		}})
	if len(curves) == 0 {
		return runErr
	}
	c := &result.Capacity{Kind: result.KindCapacity, SchemaVersion: result.SchemaVersion, Command: j.Command, Args: env.Args,
		Tool: result.ToolInfo(), Objectives: objectiveTexts(s.Objectives), MaxErrorShare: s.MaxErrorShare, MinAchieved: s.MinAchieved,
		Tolerance: s.Tolerance, StepSeconds: s.Step.Seconds(), Confirmations: s.Confirmations, ConfirmFactor: s.ConfirmFactor, Cells: curves}
	c.Varied, c.Baseline = skeleton.Varied, skeleton.Baseline
	var gateErr error
	if runErr == nil && len(gates) > 0 {
		if gateErr, err = judgeCapacity(env, c, gates); err != nil {
			return err
		}
	}
	if err := o.writeRendered(env, c, c.Write); err != nil || runErr != nil {
		return errors.Join(runErr, err)
	}
	for _, cv := range curves {
		if !cv.Found {
			o.notef(env, "%s: no sustainable rate at %s: %s", cv.Settings, j.Search.Objectives, cv.NotFound())
		}
	}
	return gateErr
}

// judgeCapacity evaluates the capacity gates, keeps the verdicts in c,
// prints them and returns ErrThreshold (as gateErr) when any failed.
func judgeCapacity(env *Env, c *result.Capacity, gates []judge.Expectation) (gateErr, err error) {
	if c.Gates, err = judge.EvaluateCapacity(c, gates); err != nil {
		return nil, err
	}
	for _, g := range c.Gates {
		fmt.Fprintf(env.Stderr, "gobench: %s\n", g.Verdict)
	}
	if n := result.GatesFailed(c.Gates); n > 0 {
		return fmt.Errorf("%w: %d of %d gates failed", judge.ErrThreshold, n, len(c.Gates)), nil
	}
	return nil, nil
}

func objectiveTexts(exps []judge.Expectation) []string {
	out := make([]string, len(exps))
	for i, e := range exps {
		out[i] = e.Text
	}
	return out
}

// fitWidth cuts line to the width of the terminal stderr is, less
// prefix columns, ending it with "…": a line that wraps breaks the
// column of lines under it. Elsewhere (a file, a pipe) the line is whole.
func fitWidth(env *Env, line string, prefix int) string {
	if !env.StderrIsTerminal || env.StderrWidth == nil {
		return line
	}
	w := env.StderrWidth() - prefix
	if w < 20 {
		return line
	}
	r := []rune(line)
	if len(r) <= w {
		return line
	}
	return string(r[:w-1]) + "…"
}
