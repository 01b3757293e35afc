package cli

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/gobench/gobench/pkg/ab"
	"github.com/gobench/gobench/pkg/history"
	"github.com/gobench/gobench/pkg/judge"
	"github.com/gobench/gobench/pkg/report"
)

// historyConfirmOptions are the flags of gobench history confirm.
type historyConfirmOptions struct {
	show          historyShowOptions
	after         string
	rounds        int
	runTimeout    time.Duration
	maxRegression string
}

// AddFlags binds the options to flags.
func (o *historyConfirmOptions) AddFlags(fs *pflag.FlagSet) {
	o.show.AddFlags(fs)
	fs.Lookup("format").Usage = formatUsage("format of ab's comparison on stdout", "comparison")
	fs.StringVar(&o.after, "after", "", "the change point whose later commit begins with this (default: the series' last)")
	fs.IntVar(&o.rounds, "rounds", ab.DefaultRounds, "ABBA rounds of gobench ab")
	fs.DurationVar(&o.runTimeout, "run-timeout", time.Hour, "stop a run of either build that takes longer than this and fail; 0: no limit")
	fs.StringVar(&o.maxRegression, "max-regression", "10%", "the regression threshold of gobench ab's verdict")
}

func newHistoryConfirmCommand(env *Env, h *historyOptions) *cobra.Command {
	o := &historyConfirmOptions{}
	cmd := &cobra.Command{
		Use:   "confirm --figure FIGURE [flags] [-- COMMAND [FLAGS]]",
		Short: "Run gobench ab of a change point's two commits and record its verdict beside it",
		Long: `confirm takes a change point of one series (the figure's series that --plan,
--where and --branch leave; its last change point, or the one --after
names) and runs gobench ab of its two commits on this machine: each commit
built from the git repository in the current directory (or, where a commit
names an existing file, that gobench binary), the command run by both in
ABBA order, and the figure judged on the interval of the ratio. The
command is the series' latest run's own command line, without its output
and repeat flags, or the COMMAND given after --. The verdict (regression,
pass or inconclusive) is recorded beside the change point: history show
prints it, and history gate follows it. confirm exits as ab does: 3 on a
regression, 4 on a verdict the runs could not decide.`,
		Example: `  gobench history confirm --figure 'read p99' --branch main
  gobench history confirm --figure 'upsert p99' --after 4f2a9c1 --rounds 5 -- mix --journal wal --procs 8 --duration 20s`,
		Annotations: map[string]string{examplesParsed: "yes", rendersKind: "comparison"},
		RunE: func(cmd *cobra.Command, args []string) error {
			return runHistoryConfirm(cmd.Context(), h, o, args, cmd.Root(), env)
		},
	}
	o.AddFlags(cmd.Flags())
	return cmd
}

func runHistoryConfirm(ctx context.Context, h *historyOptions, o *historyConfirmOptions, args []string, root *cobra.Command, env *Env) error {
	qs, opts, err := o.show.parse(time.Now())
	if err != nil {
		return usage(err)
	}
	if _, err := report.Render(o.show.format, (*judge.Comparison)(nil), report.Options{}); err != nil {
		return usage(fmt.Errorf("--format: %w", err))
	}
	maxReg, err := parsePercent(o.maxRegression)
	if err != nil || maxReg == 0 || len(qs) != 1 || o.rounds < 1 {
		return usage(errors.New("confirm takes one --figure, --rounds of 1 or more and a --max-regression above 0%"))
	}
	store, err := h.open(ctx, env, false)
	if err != nil {
		return err
	}
	defer store.Close()
	sr, c, err := confirmTarget(ctx, store, qs[0], opts, o.after)
	if err != nil {
		return usage(err)
	}
	if len(args) == 0 {
		args = abCommand(root, sr.Args)
	}
	if err := ab.CheckArgs(args); err != nil {
		return usage(err)
	}
	notes := prefixWriter{w: env.Stderr, prefix: "gobench: history confirm: "}
	fmt.Fprintf(notes, "%s %s → %s: gobench ab -- %s\n", sr.Figure, c.Before, c.After, strings.Join(args, " "))
	res, err := ab.Run(ctx, ab.Spec{Old: c.Before, New: c.After, Args: args, Rounds: o.rounds, RunLimit: o.runTimeout, Notes: notes})
	if errors.Is(err, ab.ErrRefused) {
		return usage(err)
	} else if err != nil {
		return err
	}
	m, _ := judge.ParseMetric(sr.Figure)
	cmp, err := judge.Compare(c.Before, res.Old, c.After, res.New, []judge.Metric{m}, judge.CompareOptions{MaxRegression: maxReg, Interleaved: true, Explicit: true})
	if err != nil {
		return usage(err)
	}
	return recordVerdict(ctx, store, sr, c, cmp, o.show.format, env)
}

// confirmTarget finds the one series the query leaves and its change
// point: the one whose later commit begins with after, or its last.
func confirmTarget(ctx context.Context, store *history.Store, q history.Query, opts history.Options, after string) (*history.Series, history.Change, error) {
	ss, err := store.Show(ctx, q, opts)
	if err != nil {
		return nil, history.Change{}, err
	}
	if len(ss) != 1 {
		var which []string
		for _, s := range ss {
			which = append(which, fmt.Sprintf("plan %.12s [%s]", s.Plan, s.Cell))
		}
		return nil, history.Change{}, fmt.Errorf("%s: %d series (%s): confirm takes one; narrow it with --plan, --where or --branch", q.Figure, len(ss), strings.Join(which, "; "))
	}
	sr := ss[0]
	for i := len(sr.Changes) - 1; i >= 0; i-- {
		if c := sr.Changes[i]; strings.HasPrefix(c.After, after) {
			return sr, c, nil
		}
	}
	return nil, history.Change{}, fmt.Errorf("%s: no change point%s in the series of plan %.12s [%s]", q.Figure, map[bool]string{true: " after " + after}[after != ""], sr.Plan, sr.Cell)
}

// recordVerdict writes the A/B comparison and records its verdict beside
// the change point; its error is the comparison's (exit 3 on a
// regression).
func recordVerdict(ctx context.Context, store *history.Store, sr *history.Series, c history.Change, cmp *judge.Comparison, format string, env *Env) error {
	if err := renderTo(env, format, cmp); err != nil {
		return err
	}
	verdict, abErr := history.VerdictPass, cmp.Err(judge.InconclusiveFails)
	switch {
	case errors.Is(abErr, judge.ErrThreshold):
		verdict = history.VerdictRegression
	case errors.Is(abErr, judge.ErrInconclusive):
		verdict = history.VerdictInconclusive
	}
	detail := "gobench ab: " + cmp.Outcome
	if len(cmp.Rows) > 0 && cmp.Rows[0].Old.Median != 0 {
		detail = fmt.Sprintf("gobench ab: %s, %s ×%.3f", cmp.Outcome, sr.Figure, cmp.Rows[0].New.Median/cmp.Rows[0].Old.Median)
	}
	conf := history.Confirmation{Plan: sr.Plan, Cell: sr.Cell, Figure: sr.Figure, Before: c.Before, After: c.After, Verdict: verdict, Detail: detail}
	if err := store.Confirm(ctx, conf); err != nil {
		return err
	}
	fmt.Fprintf(env.Stderr, "gobench: history confirm: recorded %q beside %s → %s of %s in %s\n", verdict, c.Before, c.After, sr.Figure, store)
	return abErr
}

// abCommand is a recorded run's command line as gobench ab runs it:
// without the flags ab sets itself (its output, repeats, gates), each
// with its value.
func abCommand(root *cobra.Command, args []string) []string {
	sub, _, err := root.Find(args)
	if err != nil {
		return args
	}
	var out []string
	for i := 0; i < len(args); i++ {
		name, _, inline := strings.Cut(args[i], "=")
		if !ab.Refused(name) {
			out = append(out, args[i])
			continue
		}
		var f *pflag.Flag
		if short, ok := strings.CutPrefix(name, "-"); ok && !strings.HasPrefix(short, "-") {
			f = sub.Flags().ShorthandLookup(short)
		} else {
			f = sub.Flag(strings.TrimPrefix(name, "--"))
		}
		if !inline && f != nil && f.NoOptDefVal == "" {
			i++ // its value is the next word
		}
	}
	return out
}
