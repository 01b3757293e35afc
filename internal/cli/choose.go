package cli

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/gobench/gobench/pkg/choose"
	"github.com/gobench/gobench/pkg/job"
	"github.com/gobench/gobench/pkg/judge"
	"github.com/gobench/gobench/pkg/preset"
	"github.com/gobench/gobench/pkg/report"
	"github.com/gobench/gobench/pkg/result"
	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/workload"
)

// chooseOptions are the flags of gobench choose.
type chooseOptions struct {
	spec    choose.Spec
	work    chooseWorkload
	drivers store.List
	expect  []string
	run     runOptions
}

func defaultChooseOptions() *chooseOptions {
	return &chooseOptions{
		spec: choose.Spec{Keep: choose.KeepAcked, Budget: 5 * time.Minute, Workers: 8},
		work: chooseWorkload{mix: preset.DefaultMixSpec(), order: workload.ReplayCommit},
		run:  runOptions{repeat: 1, format: "text", ready: time.Minute, stall: time.Minute, calibrate: true, maxRuns: 10_000, maxRepeats: 30, progress: -1, inconclusive: string(judge.InconclusiveFails)},
	}
}

// AddFlags binds the options to flags.
func (o *chooseOptions) AddFlags(fs *pflag.FlagSet) {
	inGroup(fs, groupWorkload, func() {
		o.work.AddFlags(fs)
		fs.StringVar(&o.spec.Keep, "keep", o.spec.Keep, "the promise the service needs: acked (no acknowledged write lost at a power cut), process-crash (none lost when the process dies) or none")
		fs.StringVar(&o.spec.RankBy, "rank-by", "", "with --role, the role whose ops/s ranks the rows and the margin (default: the first closed-loop role that writes, else the first closed-loop role, else the first role)")
		fs.DurationVar(&o.spec.Budget, "budget", o.spec.Budget, "the time the measuring may take; it sizes the runs, their repeats and the power cuts")
		fs.StringArrayVar(&o.expect, "expect", nil, "gate on the winner's margin over the runner-up, 'margin OP FACTOR' (such as 'margin >= 1.5'): exit 3 when the interval of the ratio lies wholly on the wrong side, 4 when it straddles the factor or there is none (repeatable)")
	})
	inGroup(fs, groupEngine, func() {
		fs.Var(&o.drivers, "driver", "consider only these drivers (a comma list; default: every one this build has)")
	})
	inGroup(fs, groupWorkers, func() {
		fs.IntVar(&o.spec.Workers, "workers", o.spec.Workers, "goroutines of the one process every candidate runs in, a worker process of its own for each speed run (bbolt, pebble and badger allow one process)")
	})
	inGroup(fs, groupOutput, func() {
		fs.StringVar(&o.run.jsonOut, "json", "", "also write the answer as JSON to this file")
		fs.StringVarP(&o.run.format, "format", "f", o.run.format, formatUsage("report format on stdout", "choice"))
		fs.BoolVarP(&o.run.quiet, "quiet", "q", false, "print only the answer (no notes on stderr)")
	})
}

func newChooseCommand(env *Env) *cobra.Command {
	o := defaultChooseOptions()
	cmd := &cobra.Command{
		Use:         "choose",
		Annotations: map[string]string{runsWorkers: "yes", rendersKind: "choice"},
		Short:       "Rank every engine and setting that keeps the promise you need, measured on your workload",
		Long: `choose answers the store question in one command: which engine, at which
settings, is fastest on this workload while keeping the promise the
service needs of its writes (--keep), and by how much.

The workload is one of (two are refused):
  --mix read=20,upsert=80      a mix of key-value ops over --keys preloaded rows (the default: read=95,upsert=5)
  --role NAME:COUNT:MIX[@RATE] roles with mixes and rates of their own, as gobench mix takes them (repeatable)
  --ycsb a..f|FILE             YCSB's core workload, as gobench ycsb run runs it (-p NAME=VALUE overrides a property)
  --file FILE[@WEIGHT]         SQL scripts, as gobench sql runs them (--schema first; or --builtin tpcb-like)
  --trace FILE                 a captured application's trace, replayed as gobench replay does (in commit order)
SQL scripts and traces run on the SQLite drivers only: the other engines
are named, in one line, among what was not measured. A candidate the
workload's own checks refuse (a YCSB workload's records on an engine that
keeps no record tables, its scans on one that keeps them in no key order)
is listed there too, saying why, and the rest are measured.

Every engine and setting able to keep the promise is a candidate, as the
engines themselves declare it: for acked, the SQLite drivers in WAL at
synchronous=FULL and in the rollback journal at EXTRA (FULL may lose the
last transaction), bbolt with and without group commit, pebble and badger
at sync full at both profiles (their library's defaults and their own
benchmark tool's, --profile tool), LMDB at sync full; for process-crash, each at the cheapest setting
that keeps it. Each runs the workload in one process of --workers
goroutines (a YCSB workload's threadcount; a role's COUNT; a trace's
captured connections): interleaved repeats for its speed, each in a
worker process of its own, and, for acked, power cuts simulated on its
own traced run (as --crash does: key-value and YCSB writes checked one
by one, SQL scripts' and a trace's states judged by content against the
prefixes of the run's commits). --budget sizes both (a trace replays
whole each run). The answer is one table: those that kept the promise
ranked by median ops/s with its interval, p99, what the power cuts lost,
syncs per commit, size on disk (and space amplification from 64 MiB of
live data on), the engine's memory (its worker's peak less a null-driver
worker's) and the engine's version; those that did not, with what they
lost; the winner and its margin over the runner-up, with the interval of
the ratio; and what was not measured. With roles, each row shows each
role's ops/s and p99, and one role's ops/s ranks the rows and the margin:
--rank-by ROLE's, by default the first closed-loop role that writes (the
promise is about writes), else the first closed-loop role, else the first
role; the header says which. --expect 'margin >= 1.5' gates the
margin: exit 3 when the interval of the ratio lies wholly below 1.5, 4
when it cannot tell.`,
		Example: `  # Write-heavy service that must not lose an acknowledged write at a power cut
  gobench choose --mix upsert=80,read=20 --keep acked --budget 5m

  # Three writers appending beside a reader, on the engines you consider
  gobench choose --role writer:3:append=100 --role reader:1:read=100 --driver mattn,bbolt,pebble --budget 3m

  # The same, ranked by what the reader gets rather than the writers
  gobench choose --role writer:3:append=100 --role reader:1:read=100 --rank-by reader --budget 3m

  # YCSB's workload A (or a property file of yours), 10,000 records, 4 workers
  gobench choose --ycsb a -p recordcount=10000 --workers 4 --budget 5m

  # Your own SQL scripts: the SQLite drivers and settings, ranked
  gobench choose --schema schema.sql --file order.sql@9 --file report.sql@1 --budget 3m

  # Your application's statements, captured once (gobench capture), replayed on each candidate
  gobench choose --trace app.trace --budget 3m

  # Only some engines, a short budget, markdown for a design document
  gobench choose --mix upsert=50,read=50 --driver mattn,bbolt,pebble --budget 2m --format markdown

  # A cache that only must survive its process crashing
  gobench choose --mix read=90,upsert=10 --keep process-crash --json choice.json

  # Fail a CI job unless the winner leads the runner-up by half again
  gobench choose --mix append=80,read=20 --budget 10m --expect 'margin >= 1.5'`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runChoose(cmd.Context(), env, o, cmd.Flags()) },
	}
	o.AddFlags(cmd.Flags())
	return cmd
}

// runChoose builds the plan, runs its power-cut runs one cell at a time
// (one that fails leaves its row unranked) and its speed runs as one
// interleaved job, and writes the ranked answer.
func runChoose(ctx context.Context, env *Env, o *chooseOptions, fs *pflag.FlagSet) error {
	spec := o.spec
	spec.Drivers = o.drivers
	// The formats of a choice first: resolve's error would list every
	// report format, csv and ycsb among them, that a choice has not.
	if _, err := report.Render(o.run.format, formatsOf["choice"], report.Options{}); err != nil {
		return usage(fmt.Errorf("--format: %w", err))
	}
	if err := o.run.resolve(); err != nil {
		return usage(err)
	}
	gates, err := parseChooseGates(o.expect)
	if err != nil {
		return usage(err)
	}
	note := func(n string) { o.run.notef(env, "note: %s", n) }
	if spec.Workload, err = o.work.workload(env, fs, spec.Workers, note); err != nil {
		return usage(err)
	}
	p, err := choose.Build(spec, env.registry())
	if err != nil {
		return usage(err)
	}
	// The outputs once, before anything runs: each job checks them again,
	// and a bad --json would fail every candidate, a line each.
	if err := o.run.checkPaths(env, 1); err != nil {
		return err
	}
	began := time.Now()
	m, runErr := o.runCuts(ctx, env, p)
	if runErr != nil && ctx.Err() == nil {
		return runErr // every candidate failed: one line, no table of dashes
	}
	stopped := "the power-cut runs stopped early, and no speed run was made: "
	if runErr == nil {
		stopped = "the speed runs stopped early: "
		m.Speed, runErr = o.runJob(ctx, env, p.SpeedCells(), p.Size.Repeats)
	}
	m.Elapsed = time.Since(began)
	choice := choose.Rank(p, m)
	if runErr != nil {
		why := runErr.Error()
		if errors.Is(runErr, context.Canceled) {
			why = "interrupted"
		}
		choice.NotMeasured = append(choice.NotMeasured, stopped+why)
	}
	gateErr := judgeChoice(choice, gates)
	return errors.Join(runErr, o.run.writeRendered(env, choice, choice.Write), gateErr)
}

// runCuts runs the plan's power-cut runs one cell at a time: one that
// fails leaves its row unranked, and an interrupt stops them, returning
// what the finished ones gave (the interrupted run's partial record is
// dropped) for the answer to show.
func (o *chooseOptions) runCuts(ctx context.Context, env *Env, p *choose.Plan) (choose.Measured, error) {
	m := choose.Measured{Failed: map[string]string{}}
	var failed []string
	errs := map[string]error{}
	for i, c := range p.Crash {
		if c == nil {
			continue
		}
		runs, err := o.runJob(ctx, env, []*workload.Plan{c}, 1)
		if err != nil {
			if errors.Is(ctx.Err(), context.Canceled) {
				return m, err
			}
			m.Failed[p.Candidates[i].Name()] = err.Error()
			failed, errs[p.Candidates[i].Name()] = append(failed, p.Candidates[i].Name()), err
		}
		m.Crash = append(m.Crash, runs...)
	}
	// Said once where every one failed (the workload's own fault), else
	// a note each, after the runs.
	if err := choose.EveryFailed(p, errs); err != nil {
		return m, err
	}
	for _, name := range failed {
		o.run.notef(env, "%s: power-cut run failed: %v", name, m.Failed[name])
	}
	return m, nil
}

// parseChooseGates reads choose's --expect values.
func parseChooseGates(exprs []string) ([]choose.Gate, error) {
	gates := make([]choose.Gate, len(exprs))
	for i, e := range exprs {
		g, err := choose.ParseGate(e)
		if err != nil {
			return nil, err
		}
		gates[i] = g
	}
	return gates, nil
}

// judgeChoice judges the gates on c's margin, recording each in c; the
// error of the first that failed, else of the first undecided.
func judgeChoice(c *result.Choice, gates []choose.Gate) error {
	var failed, undecided error
	for _, g := range gates {
		jg, err := g.Judge(c)
		c.Gates = append(c.Gates, jg)
		switch {
		case errors.Is(err, judge.ErrThreshold) && failed == nil:
			failed = err
		case err != nil && undecided == nil:
			undecided = err
		}
	}
	return cmp.Or(failed, undecided)
}

// runJob checks and runs cells repeat times, interleaved, through the one
// cell runner.
func (o *chooseOptions) runJob(ctx context.Context, env *Env, cells []*workload.Plan, repeat int) ([]*result.Result, error) {
	j := job.New("choose", result.ShapeMatrix, env.Args, cells, repeat)
	if err := j.CheckCells(ctx, env.registry()); err != nil {
		return nil, fmt.Errorf("%s: %w", strings.TrimSpace(cells[0].Driver), err)
	}
	o.run.repeat = repeat
	return o.run.runCells(ctx, env, j, nil)
}
