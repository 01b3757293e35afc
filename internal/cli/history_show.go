package cli

import (
	"context"
	"fmt"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/gobench/gobench/pkg/history"
	"github.com/gobench/gobench/pkg/judge"
	"github.com/gobench/gobench/pkg/report"
)

// historyShowOptions are the flags of gobench history show and gate.
type historyShowOptions struct {
	figures, where               []string
	branch, since, plan          string
	raw                          bool
	minStep, maxDrift, maxReg    string
	alpha                        float64
	permutations, minSeg, recent int
	seed                         uint64
	format                       string
	gate                         bool
}

// AddFlags binds the options to flags.
func (o *historyShowOptions) AddFlags(fs *pflag.FlagSet) {
	d := history.DefaultDetector
	fs.StringArrayVar(&o.figures, "figure", nil, "a figure of the figure table, such as 'read p99' or 'total ops/s' (repeatable; default: total ops/s)")
	fs.StringArrayVar(&o.where, "where", nil, "keep the cells with these settings, such as journal=wal or journal=wal,procs=4 (repeatable)")
	fs.StringVar(&o.branch, "branch", "", "keep the runs of this branch (default: every branch)")
	fs.StringVar(&o.since, "since", "", "keep the runs started since: a span back from now (30d, 2w, 12h) or a date (2026-11-01)")
	fs.StringVar(&o.plan, "plan", "", "keep the runs of the plan whose hash begins with this")
	fs.BoolVar(&o.raw, "raw", false, "search the figures as measured, not normalised by each run's calibration")
	fs.StringVar(&o.minStep, "min-step", "5%", "the smallest change of the median, either side of a change point, that is one")
	fs.Float64Var(&o.alpha, "alpha", d.Alpha, "the largest p of the permutation test that keeps a change point")
	fs.IntVar(&o.permutations, "permutations", d.Permutations, "shuffles of the permutation test")
	fs.IntVar(&o.minSeg, "min-points", d.MinSegment, "the fewest points (commits) on either side of a change point")
	fs.Uint64Var(&o.seed, "seed", d.Seed, "the seed of the permutation test's shuffles")
	fs.StringVar(&o.maxDrift, "max-drift", "20%", "leave out of the search the runs whose machine's calibration moved more than this during the run")
	fs.StringVarP(&o.format, "format", "f", "text", formatUsage("output format", "history"))
	if o.gate {
		fs.StringVar(&o.maxReg, "max-regression", "10%", "fail when the change point at the head is the wrong way by more than this, all of its interval beyond it")
		fs.IntVar(&o.recent, "recent", 0, "judge a change point at the head only within the last this many commits (0: wherever the last one is)")
	}
}

func newHistoryShowCommand(env *Env, h *historyOptions, gate bool) *cobra.Command {
	o := &historyShowOptions{gate: gate}
	cmd := &cobra.Command{
		Use:         "show [flags]",
		Annotations: map[string]string{rendersKind: "history"},
		Short:       "Print a figure's series over commits and its change points",
		Long:        historyShowLong,
		Example:     historyShowExample,
		Args:        cobra.NoArgs,
		RunE:        func(cmd *cobra.Command, _ []string) error { return runHistoryShow(cmd.Context(), h, o, env) },
	}
	if gate {
		cmd.Use, cmd.Short, cmd.Long, cmd.Example = "gate [flags]", "Fail (exit 3) on a regression at the head of a branch", historyGateLong, historyGateExample
	}
	o.AddFlags(cmd.Flags())
	return cmd
}

// parse reads the options as the queries and the search's options.
func (o *historyShowOptions) parse(now time.Time) ([]history.Query, history.Options, error) {
	opts := history.DefaultOptions
	where, err := history.ParseWhere(o.where)
	if err != nil {
		return nil, opts, err
	}
	since, err := history.ParseSince(o.since, now)
	if err != nil {
		return nil, opts, err
	}
	if opts.Detector.MinStep, err = parsePercent(o.minStep); err != nil {
		return nil, opts, fmt.Errorf("--min-step: %w", err)
	}
	if opts.MaxDrift, err = parsePercent(o.maxDrift); err != nil {
		return nil, opts, fmt.Errorf("--max-drift: %w", err)
	}
	if !(o.alpha > 0 && o.alpha < 1) || o.permutations < 1 || o.minSeg < 1 {
		return nil, opts, fmt.Errorf("--alpha wants a p between 0 and 1, --permutations and --min-points at least 1")
	}
	opts.Detector.Alpha, opts.Detector.Permutations, opts.Detector.MinSegment, opts.Detector.Seed = o.alpha, o.permutations, o.minSeg, o.seed
	opts.Raw = o.raw
	figures := o.figures
	if len(figures) == 0 {
		figures = []string{"total ops/s"}
	}
	var qs []history.Query
	for _, f := range figures {
		m, err := judge.ParseMetric(f)
		if err != nil {
			return nil, opts, fmt.Errorf("--figure: %w", err)
		}
		qs = append(qs, history.Query{Figure: m.String(), Where: where, Branch: o.branch, Since: since, Plan: o.plan})
	}
	return qs, opts, nil
}

func runHistoryShow(ctx context.Context, h *historyOptions, o *historyShowOptions, env *Env) error {
	if _, err := report.Render(o.format, (*history.Report)(nil), report.Options{}); err != nil {
		return usage(fmt.Errorf("--format: %w", err))
	}
	qs, opts, err := o.parse(time.Now())
	if err != nil {
		return usage(err)
	}
	maxReg := 0.0
	if o.gate {
		if maxReg, err = parsePercent(o.maxReg); err != nil {
			return usage(fmt.Errorf("--max-regression: %w", err))
		}
	}
	store, err := h.open(ctx, env, false)
	if err != nil {
		return err
	}
	defer store.Close()
	rep := &history.Report{History: store.String(), Branch: o.branch, Since: qs[0].Since, MaxRegression: maxReg}
	if len(qs[0].Where) > 0 {
		rep.Where = qs[0].Where.String()
	}
	for _, q := range qs {
		ss, err := store.Show(ctx, q, opts)
		if err != nil {
			return err
		}
		rep.Figures, rep.Series = append(rep.Figures, q.Figure), append(rep.Series, ss...)
	}
	if o.gate {
		rep.Gate = history.Gate(rep.Series, maxReg, o.recent)
	}
	if err := renderTo(env, o.format, rep); err != nil {
		return err
	}
	return history.ErrRegression(rep.Gate)
}

// renderTo renders v in format on stdout.
func renderTo(env *Env, format string, v any) error {
	render, err := report.Render(format, v, report.Options{Width: env.stdoutWidth()})
	if err != nil {
		return usage(fmt.Errorf("--format: %w", err))
	}
	if err := render(env.Stdout); err != nil {
		return fmt.Errorf("writing the report: %w", err)
	}
	return nil
}

const historyShowLong = `show prints each series of a figure: one per plan and cell (runs of
unlike plans never share one), a point per commit in the order the runs
started, the median of the commit's runs with its interval (from 5 runs;
below, their range), and the change points found in them.

Values are normalised by each run's calibration where the figure moves
with the machine: latency and throughput of writing op kinds (upsert,
insert, update, delete, append, read-modify-write, commit, a role's of
these) by the fsync probe, every other latency,
throughput and CPU per op by the CPU loop, each to the series' median
calibration; counts and shares are not. A run on a slower machine is then
not a regression. The raw median is shown beside; --raw searches it. A run
whose calibration moved by more than --max-drift between before and after
(the machine changed under it) is shown, marked, and left out of the search.

Change points are found by E-divisive means (Matteson & James 2014): the
split of the points that maximises the energy distance between its sides,
kept when a permutation test (--permutations shuffles, seeded by --seed:
the same history gives the same answer) gives p <= --alpha, then searched
again on either side. A change point needs --min-points commits on either
side and a step of the median of --min-step (5%) between its neighbours:
a single outlier is not one. Each names the commits on either side, the
step, its p and the 90% interval of after/before.`

const historyShowExample = `  gobench history show --figure 'read p99'
  gobench history show --figure 'read p99' --where journal=wal --branch main --since 30d
  gobench history show --figure 'read p99' --branch main --raw --min-step 10%
  gobench history show --figure 'total ops/s' --figure 'upsert p99' -f json
  gobench history show --figure 'read p99' -f html > trend.html`

const historyGateLong = `gate reads each figure's series as show does and fails (exit 3) on a
change point at the head of the series (its last: the branch's head is at
the level after it) that is a regression: the wrong way (latency up,
throughput down) and either confirmed by 'gobench history confirm', or,
not confirmed, with all of its 90% interval of after/before beyond
--max-regression. A change point that history confirm found no regression
passes. A step the wrong way whose interval reaches the threshold passes,
and says so: run history confirm to decide it. --recent N judges only a
change point within the last N commits, so a regression once accepted
stops failing. Each series' verdict is printed, the failing ones named.`

const historyGateExample = `  gobench history gate --branch main --figure 'total ops/s' --figure 'read p99'
  gobench history gate --branch main --figure 'upsert p99' --max-regression 5% --recent 5`
