package cli

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/spf13/cobra"

	"github.com/gobench/gobench/pkg/bytesize"
	"github.com/gobench/gobench/pkg/capacity"
	"github.com/gobench/gobench/pkg/job"
	"github.com/gobench/gobench/pkg/judge"
	"github.com/gobench/gobench/pkg/preset"
	"github.com/gobench/gobench/pkg/report"
	"github.com/gobench/gobench/pkg/result"
	"github.com/gobench/gobench/pkg/workload"
)

// planner is the options of a command that runs a preset: resolve turns
// the command's flags into the job it runs (or prints, with --dry-run),
// and runOptions says where the output goes. Every run command has this
// one shape, so that tests iterate over all of them.
type planner interface {
	resolve(cmd *cobra.Command, env *Env) (*job.Job, error)
	runOpts() *runOptions
}

// runPlanned is the body of every run command: resolve its flags into a
// job (a bad flag is a usage error), then run it.
func runPlanned(cmd *cobra.Command, env *Env, p planner) error {
	j, err := p.resolve(cmd, env)
	if err != nil {
		return usage(err)
	}
	return runJob(cmd.Context(), env, p.runOpts(), j)
}

// jobParts are what a command resolved besides its cells: the gates, the
// baseline cell of a matrix, and a capacity search.
type jobParts struct {
	baseline string
	expects  []string
	search   *capacity.Spec
}

// newJob returns the job a run command resolved: the preset's cells and
// shape, the run options that belong to the plan (repeats, where
// databases live, the fsync ceiling) and the command line it came from.
func (o *runOptions) newJob(cmd *cobra.Command, env *Env, spec preset.Spec, cells []*workload.Plan, parts jobParts) *job.Job {
	args := slices.DeleteFunc(slices.Clone(env.Args), func(a string) bool { return a == "--dry-run" || a == "--dry-run=true" })
	j := job.New(cmd.Name(), spec.Shape(), args, cells, o.repeat)
	j.Baseline, j.Reference, j.Expect, j.Search = parts.baseline, spec.Reference(), parts.expects, parts.search
	j.Ceiling, j.DB, j.Reuse, j.Dir = o.ceiling, o.db, o.reuse, o.dir
	if o.precision > 0 {
		j.Precision = &job.Precision{Target: o.precision, MaxTime: workload.Duration(o.maxTime)}
	}
	return j
}

// dryRun prints the job as a plan file on stdout: what would run.
func dryRun(env *Env, j *job.Job) error {
	if err := j.Write(env.Stdout); err != nil {
		return fmt.Errorf("writing the plan: %w", err)
	}
	return nil
}

// runJob runs every cell of the job its number of repeats, interleaved
// (or each cell's capacity search), judges its gates and writes the
// report: what every run command does once its flags (or a plan file)
// are resolved.
func runJob(ctx context.Context, env *Env, o *runOptions, j *job.Job) error {
	// Every cell is checked as a plan file's are (its store opened with
	// its options, its record table and its schema's tables, which
	// touches no file): what flags made is refused as a file would be,
	// before anything is created, and --dry-run writes no plan that run
	// would refuse.
	if err := j.CheckCells(ctx, env.registry()); err != nil {
		return usage(err)
	}
	gates, err := j.Gates()
	if err != nil {
		return usage(err)
	}
	if err := j.CheckShard(); err != nil {
		return usage(err)
	}
	o.noteGateSizes(env, j, gates)
	if o.dryRun {
		return dryRun(env, j)
	}
	o.repeat, o.ceiling = j.Repeat, j.Ceiling
	o.db, o.reuse, o.dir = j.DB, j.Reuse, j.Dir
	if j.Search != nil {
		return runSearch(ctx, env, o, j, gates)
	}
	runs, runErr := o.runCells(ctx, env, j, gates)
	if len(runs) == 0 {
		return runErr
	}
	suite, err := j.NewSuite(runs)
	if err != nil {
		return errors.Join(runErr, err)
	}
	if j.Precision != nil && runErr == nil {
		suite.Precision = precisionOf(j, gates, suite)
		o.notef(env, "%s", suite.Precision.Text)
	}
	// A single run of a matrix is reported (and written as JSON) as a
	// run, not a suite of one; a shard's runs stay the suite that says
	// which shard it is (result.Suite.ReadsAsRun, which the report follows
	// too).
	single := suite.ReadsAsRun()
	var gateErr error
	switch {
	case runErr != nil:
	case j.Shard != nil:
		o.notef(env, "%s", suite.ShardLine())
		if len(gates) > 0 {
			o.notef(env, "the gates compare cells of every shard: gobench merge judges them on the merged suite")
		}
	default:
		gateErr = judgeGates(env, suite, gates, single, judge.Inconclusive(o.inconclusive))
	}
	if err := o.writeOutput(env, suite, single); err != nil || runErr != nil {
		return errors.Join(runErr, err)
	}
	return gateErr
}

// noteGateSizes says, before anything runs, whether the plan's runs will
// hold ops enough for each gated percentile (judge.PlanSizes).
func (o *runOptions) noteGateSizes(env *Env, j *job.Job, gates []judge.Expectation) {
	if j.Search != nil {
		return // a capacity search's gates read its steps' figures
	}
	for _, line := range judge.PlanSizes(j.Cells, gates) {
		o.notef(env, "gate %s", line)
	}
}

// judgeGates evaluates the gates on the suite, keeps the verdicts in it
// (and in the run, for a single run), prints each verdict on stderr and
// returns ErrThreshold when any failed, or ErrInconclusive when any could
// not decide and that counts as a failure.
func judgeGates(env *Env, suite *result.Suite, expects []judge.Expectation, single bool, p judge.Inconclusive) error {
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
	return verdictsError(judge.GateError(gates, p), judge.GatesSummary(gates))
}

// verdictsError is the one-line error of verdicts that failed or could
// not decide, their summary after it; nil stays nil.
func verdictsError(err error, summary string) error {
	switch {
	case errors.Is(err, judge.ErrThreshold):
		return fmt.Errorf("%w: %s", judge.ErrThreshold, summary)
	case errors.Is(err, judge.ErrInconclusive):
		return fmt.Errorf("%w: %s (--inconclusive pass would count what could not decide as passed)", judge.ErrInconclusive, summary)
	}
	return err
}

// renderOptions are how the run's reports read.
func (o *runOptions) renderOptions() report.Options {
	return report.Options{Units: bytesize.Units{SI: o.si}, Stats: o.stats}
}

// precisionOf says what --precision reached on the suite, and what
// stopped the repeats.
func precisionOf(j *job.Job, gates []judge.Expectation, s *result.Suite) *result.Precision {
	rule := j.Rule(gates)
	rows := rule.Of(s)
	repeats := 0
	for _, c := range s.Cells {
		repeats = max(repeats, len(c.Runs))
	}
	stopped := "reached"
	switch {
	case rule.Done(rows):
	case repeats >= j.Repeat:
		stopped = fmt.Sprintf("--max-repeats %d", j.Repeat)
	default:
		stopped = fmt.Sprintf("--max-time %v", j.Precision.MaxTime)
	}
	return &result.Precision{Target: rule.Target, Repeats: repeats, Reached: rule.Done(rows), StoppedBy: stopped,
		Text: judge.PrecisionText(rule.Target, repeats, stopped, rows)}
}
