package cli

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/spf13/pflag"

	"github.com/gobench/gobench/internal/coord"
	"github.com/gobench/gobench/pkg/capacity"
	"github.com/gobench/gobench/pkg/judge"
	"github.com/gobench/gobench/pkg/report"
	"github.com/gobench/gobench/pkg/result"
	"github.com/gobench/gobench/pkg/units"
	"github.com/gobench/gobench/pkg/workload"
)

// searchFlags are the flags of a capacity search (--find-rate), on the
// commands that run open loop.
type searchFlags struct {
	objectives string
	rateMax    float64
	tolerance  float64
	step       time.Duration
	settle     time.Duration
	maxErrors  float64
}

// AddFlags binds the flags.
func (f *searchFlags) AddFlags(fs *pflag.FlagSet) {
	fs.StringVar(&f.objectives, "find-rate", "", "find the highest open-loop rate that meets these latency objectives, such as 'upsert p99 <= 5ms' (several joined with commas, all must hold), judged from each op's due time; prints each cell's sustainable rate and its curve")
	fs.Float64Var(&f.rateMax, "rate-max", 0, "--find-rate: the highest rate to try (default: what a closed-loop probe of one step achieves)")
	fs.Float64Var(&f.tolerance, "tolerance", capacity.DefaultTolerance, "--find-rate: bisect until the highest rate met is within this share of the lowest failed")
	fs.DurationVar(&f.step, "step-duration", capacity.DefaultStep, "--find-rate: measured length of each step (after --settle); the rate found is confirmed by three runs 3× as long")
	fs.DurationVar(&f.settle, "settle", coord.DefaultSettle, "--find-rate: how long each step runs at its rate before it is measured")
	fs.Float64Var(&f.maxErrors, "max-errors", capacity.DefaultMaxErrorShare, "--find-rate: the share of a step's ops that may fail (0.01: 1%); a step must also complete 95% of the ops it was offered")
}

// conflicts are the flags a capacity search sets itself, per step.
var searchConflicts = []string{"rate", "duration", "queries", "warmup", "hlog", "dry-run", "ceiling"}

// search returns the capacity search the flags ask for, or nil without
// --find-rate.
func (f *searchFlags) search(fs *pflag.FlagSet, o *runOptions) (*capacity.Search, error) {
	if f.objectives == "" {
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
	obj, err := capacity.ParseObjectives(f.objectives)
	if err != nil {
		return nil, fmt.Errorf("--find-rate: %w", err)
	}
	switch {
	case !(f.tolerance > 0 && f.tolerance < 1):
		return nil, fmt.Errorf("--tolerance %g: want a share between 0 and 1, such as 0.05", f.tolerance)
	case f.step < 100*time.Millisecond || f.settle < 0:
		return nil, errors.New("--step-duration must be at least 100ms and --settle not negative")
	case !(f.maxErrors >= 0 && f.maxErrors < 1):
		return nil, fmt.Errorf("--max-errors %g: want a share between 0 and 1, such as 0.01", f.maxErrors)
	case f.rateMax < 0 || f.rateMax > workload.MaxRate:
		return nil, fmt.Errorf("--rate-max %g is out of range", f.rateMax)
	}
	return &capacity.Search{Objectives: obj, RateMax: f.rateMax, Tolerance: f.tolerance, Step: f.step,
		MaxErrorShare: f.maxErrors, MinAchieved: capacity.DefaultMinAchieved, ConfirmFactor: capacity.DefaultConfirmFactor,
		Confirmations: capacity.DefaultConfirmations}, nil
}

// runSearch runs the capacity search on every cell and writes the report:
// what mix and sql do under --find-rate. An interrupted search reports
// the steps it ran.
func runSearch(ctx context.Context, env *Env, o *runOptions, f *searchFlags, s *capacity.Search, command string, cells []*workload.Plan, baseline string, expects []string) error {
	skeleton, err := o.newJob(env, command, cells, baseline, expects).Skeleton()
	if err != nil {
		return usage(err)
	}
	var gates []judge.Expectation
	for _, e := range expects {
		g, err := judge.ParseCapacityGate(e)
		if err != nil {
			return usage(err)
		}
		gates = append(gates, g)
	}
	if err := judge.ValidateCapacityGates(skeleton, gates); err != nil {
		return usage(err)
	}
	cfg, err := o.coordCells(env, command, cells, 1)
	if err != nil {
		return err
	}
	cfg.Base.Notes = nil // each step's setup notes would drown the steps' own
	steps := 0
	curves, runErr := coord.FindRates(ctx, coord.Search{Cells: cfg, Search: *s, Settle: f.settle,
		Observe: func(i int, st result.CapacityStep) {
			steps++
			o.notef(env, "step %d: %s", steps, report.StepSummary(st))
		}})
	if len(curves) == 0 {
		return runErr
	}
	c := &result.Capacity{Kind: result.KindCapacity, SchemaVersion: result.SchemaVersion, Command: command, Args: env.Args,
		Tool: result.ToolInfo(), Objectives: objectiveTexts(s.Objectives), MaxErrorShare: s.MaxErrorShare, MinAchieved: s.MinAchieved,
		Tolerance: s.Tolerance, StepSeconds: s.Step.Seconds(), Confirmations: s.Confirmations, ConfirmFactor: s.ConfirmFactor, Cells: curves}
	c.Varied, c.Baseline = skeleton.Varied, skeleton.Baseline
	var gateErr error
	if runErr == nil && len(gates) > 0 {
		if c.Gates, err = judge.EvaluateCapacity(c, gates); err != nil {
			return err
		}
		for _, g := range c.Gates {
			fmt.Fprintf(env.Stderr, "gobench: %s\n", g.Verdict)
		}
		if n := result.GatesFailed(c.Gates); n > 0 {
			gateErr = fmt.Errorf("%w: %d of %d gates failed", judge.ErrThreshold, n, len(c.Gates))
		}
	}
	if err := o.writeRendered(env, c, c.Write, report.Options{}); err != nil || runErr != nil {
		return errors.Join(runErr, err)
	}
	for _, cv := range curves {
		if !cv.Found {
			o.notef(env, "%s: no rate met %s, not even %s ops/s", cv.Settings, f.objectives, units.Rate(lowest(cv)))
		}
	}
	return gateErr
}

func objectiveTexts(exps []judge.Expectation) []string {
	out := make([]string, len(exps))
	for i, e := range exps {
		out[i] = e.Text
	}
	return out
}

// lowest is the lowest rate a curve tried.
func lowest(cv result.CapacityCurve) float64 {
	low := 0.0
	for _, st := range cv.Steps {
		if low == 0 || st.Offered < low {
			low = st.Offered
		}
	}
	return low
}
