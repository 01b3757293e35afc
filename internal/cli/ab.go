package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/gobench/gobench/pkg/ab"
	"github.com/gobench/gobench/pkg/judge"
	"github.com/gobench/gobench/pkg/report"
)

// abOptions are the flags of gobench ab.
type abOptions struct {
	old, new      string
	rounds        int
	runTimeout    time.Duration
	dir           string
	maxRegression string
	metrics       []string
	inconclusive  string
	out           runOptions // the outputs: --format, --json, --html, --summary, --force, -q
}

// AddFlags binds the options to flags.
func (o *abOptions) AddFlags(fs *pflag.FlagSet) {
	fs.StringVar(&o.old, "old", "", "the old build: a gobench binary, or a git revision of the repository in the current directory, built with go build")
	fs.StringVar(&o.new, "new", "", "the new build, as --old")
	fs.IntVar(&o.rounds, "rounds", ab.DefaultRounds, "ABBA rounds: each runs the old build, the new one twice, the old one again")
	fs.DurationVar(&o.runTimeout, "run-timeout", time.Hour, "stop a run of either build that takes longer than this and fail (a build that hangs); 0: no limit. A build's --dry-run has 2 minutes, building a revision 30")
	fs.StringVar(&o.dir, "dir", "", "keep the builds, every run's result and each build's merged results (old.json, new.json) in this directory (default: a temporary one, removed)")
	fs.StringVar(&o.maxRegression, "max-regression", "10%", "a regression is a change the wrong way beyond this, all of the ratio's 90% interval beyond it")
	fs.StringArrayVar(&o.metrics, "metric", nil, "a metric to judge, such as 'total ops/s' or 'cpu µs/op' (repeatable; default: throughput, CPU per op, and p50/p99/p99.9 of every op kind)")
	fs.StringVar(&o.inconclusive, "inconclusive", string(judge.InconclusiveFails), "what a comparison the data cannot decide counts as: fail (exit 4) or pass")
	fs.StringVarP(&o.out.format, "format", "f", "text", formatUsage("report format on stdout", "comparison"))
	fs.StringVar(&o.out.jsonOut, "json", "", "also write the comparison as JSON to this file")
	fs.StringVar(&o.out.html, "html", "", "also write the comparison as a self-contained HTML page to this file")
	fs.StringVar(&o.out.summary, "summary", "", "also append the comparison in markdown to this file, such as $GITHUB_STEP_SUMMARY")
	fs.BoolVar(&o.out.force, "force", false, "let --json, --html and --summary write over a file gobench did not write")
	fs.BoolVarP(&o.out.quiet, "quiet", "q", false, "print only the report (no notes on stderr)")
}

func newABCommand(env *Env) *cobra.Command {
	o := &abOptions{}
	cmd := &cobra.Command{
		Use:         "ab --old BUILD --new BUILD [flags] -- COMMAND [FLAGS]",
		Annotations: map[string]string{rendersKind: "comparison"},
		Short:       "Run one benchmark with two builds alternately on one machine; fail on a regression",
		Long: `ab answers "did this change make it slower?". It runs one benchmark command
(mix, sql, crud, blob, or run PLAN.json, with their flags) with two gobench
builds alternately on this machine, in ABBA order (old, new, new, old, once
per round), one repeat a run, and compares the new build's runs with the
old's. Two invocations minutes apart drift more than repeats do; run
alternately, both builds meet the same drift, so each metric is judged on
the 90% interval of the ratio new/old over the runs (the Mann-Whitney U test
inverted, as --expect's relative gates are): a regression when all of it is
worse than --max-regression, a pass when all of it is better, inconclusive
otherwise (exit 3, 0 and 4). A percentile needs 10/(1-q) ops of its kind a
run to be judged (p99 1,000).

A build is a gobench binary (a value naming an existing file) or a git
revision of the repository in the current directory (HEAD~1, main, a
commit), extracted with git archive and built with go build into a
temporary directory. Both builds must resolve the command to the same
workload; each is asked first (--dry-run), and a build that refuses the
command, or two that differ, exit 2 before any run.`,
		Example: `  # This checkout's last commit against the one before it
  gobench ab --old HEAD~1 --new HEAD -- mix --journal wal --procs 8 --queries 2000

  # Two binaries, five rounds, the verdicts on a CI job's page
  gobench ab --old ./gobench-base --new ./gobench-pr --rounds 5 --summary "$GITHUB_STEP_SUMMARY" -- mix --procs 8 --queries 2000`,
		Args: func(cmd *cobra.Command, args []string) error { return usage(ab.CheckArgs(args)) },
		RunE: func(cmd *cobra.Command, args []string) error {
			return runAB(cmd.Context(), o, args, env)
		},
	}
	cmd.Flags().SetInterspersed(false) // the command's own flags follow it, with or without --
	o.AddFlags(cmd.Flags())
	return cmd
}

// abVerdict is what ab judges with, from its flags.
type abVerdict struct {
	opts    judge.CompareOptions
	metrics []judge.Metric
	policy  judge.Inconclusive
}

// resolve checks ab's own flags and outputs, before anything is built.
func (o *abOptions) resolve(env *Env) (abVerdict, error) {
	var v abVerdict
	if o.old == "" || o.new == "" {
		return v, errors.New("--old and --new are both needed: a gobench binary or a git revision each")
	}
	if o.rounds < 1 {
		return v, fmt.Errorf("--rounds %d: want 1 or more", o.rounds)
	}
	if o.runTimeout < 0 {
		return v, fmt.Errorf("--run-timeout %v: want a duration, or 0 for no limit", o.runTimeout)
	}
	if _, err := report.Render(o.out.format, (*judge.Comparison)(nil), report.Options{}); err != nil {
		return v, fmt.Errorf("--format: %w", err)
	}
	var err error
	if v.opts.MaxRegression, err = parsePercent(o.maxRegression); err != nil || v.opts.MaxRegression == 0 {
		return v, fmt.Errorf("--max-regression %q: want a percentage above 0, such as 10%%", o.maxRegression)
	}
	if v.policy, err = judge.ParseInconclusive(o.inconclusive); err != nil {
		return v, err
	}
	for _, m := range o.metrics {
		mt, err := judge.ParseMetric(m)
		if err != nil {
			return v, fmt.Errorf("--metric: %w", err)
		}
		v.metrics = append(v.metrics, mt)
	}
	v.opts.Interleaved, v.opts.Explicit = true, v.metrics != nil
	c := newPathCheck(env, o.out.force)
	for _, out := range []struct{ flag, path string }{{"--json", o.out.jsonOut}, {"--html", o.out.html}} {
		if out.path != "" {
			if err := c.output(out.flag, out.path); err != nil {
				return v, err
			}
		}
	}
	if o.out.summary != "" {
		if err := c.appended("--summary", o.out.summary); err != nil {
			return v, err
		}
	}
	return v, c.hold()
}

// runAB builds and runs both builds (ab.Run), compares their runs as
// interleaved and writes the comparison; its verdict is the error.
func runAB(ctx context.Context, o *abOptions, args []string, env *Env) error {
	v, err := o.resolve(env)
	if err != nil {
		return usage(err)
	}
	var notes io.Writer
	if !o.out.quiet {
		notes = prefixWriter{w: env.Stderr, prefix: "gobench: ab: "}
	}
	res, err := ab.Run(ctx, ab.Spec{Old: o.old, New: o.new, Args: args, Rounds: o.rounds, RunLimit: o.runTimeout, Dir: o.dir, Notes: notes})
	if errors.Is(err, ab.ErrRefused) {
		return usage(err)
	} else if err != nil {
		return err
	}
	if v.metrics == nil {
		v.metrics = judge.DefaultMetrics(res.Old)
	}
	c, err := judge.Compare(o.old, res.Old, o.new, res.New, v.metrics, v.opts)
	if err != nil {
		return usage(err)
	}
	asJSON := func(w io.Writer) error {
		render, err := report.Render("json", c, report.Options{})
		if err != nil {
			return err
		}
		return render(w)
	}
	if err := o.out.writeRendered(env, c, asJSON); err != nil {
		return err
	}
	return c.Err(v.policy)
}
