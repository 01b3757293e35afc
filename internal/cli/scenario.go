package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/gobench/gobench/pkg/job"
	"github.com/gobench/gobench/pkg/judge"
	"github.com/gobench/gobench/pkg/preset"
	"github.com/gobench/gobench/pkg/report"
	"github.com/gobench/gobench/pkg/result"
	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/store/all"
	"github.com/gobench/gobench/pkg/workload"
)

// scenarioOptions are the flags of gobench scenario run.
type scenarioOptions struct {
	matrix   *matrixFlags
	run      runOptions
	duration time.Duration
	queries  int64
	seed     uint64
	warmup   string
	swap     bool
}

func defaultScenarioOptions(reg *store.Registry) *scenarioOptions {
	return &scenarioOptions{
		matrix: newMatrixFlags(reg, all.DefaultDriver(), workload.ModeProcess, "", "1"),
		run:    runOptions{repeat: 1, format: "text", ready: time.Minute},
	}
}

// AddFlags binds the options to flags.
func (o *scenarioOptions) AddFlags(fs *pflag.FlagSet) {
	o.matrix.AddFlags(fs, "ops per transaction (1: each op is its own transaction)")
	inGroup(fs, groupLoad, func() {
		fs.Var(newCount(&o.queries), "queries", "ops per worker, in place of the scenario's own count or duration")
		fs.DurationVar(&o.duration, "duration", 0, "run each worker for this long, in place of the scenario's own count or duration")
		fs.Uint64Var(&o.seed, "seed", 0, "base seed of every worker's random streams (default: the scenario's)")
		fs.StringVar(&o.warmup, "warmup", "", "first run the same workload for this long (such as 5s) or this many ops per worker, unmeasured")
	})
	fs.BoolVar(&o.swap, "swap", false, "run the fix in place of the pitfall, under the pitfall's name: the gates must then say not reproduced (a check of the scenario itself)")
	o.run.AddFlags(fs, false)
	_ = fs.MarkHidden("dry-run") // refused: a scenario's gates and finding are not a plan file's
}

func newScenarioCommand(env *Env) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "scenario list|run",
		Short: "Reproduce SQLite's concurrency pitfalls: each a ready experiment contrasting the pitfall with its fix",
		Long: `scenario runs SQLite's well-known concurrency pitfalls as ready
experiments on your machine and driver: a deferred BEGIN that fails busy
whatever the busy timeout, a reader that keeps the rollback journal's
writer waiting, a long read that starves WAL checkpoints, 25 processes
barging past each other's sleeping busy handlers, a connection opened for
every operation, automatic checkpoints turned off, synchronous=NORMAL's
trade against a power cut.

Each scenario is a few cells, the pitfall beside its fix, run on real
worker processes against one database file each; its gates say
"reproduced" when the pitfall shows and the fix removes it, and its
finding says in plain words what was measured, with a link to the SQLite
page that explains it. 'scenario list' names them; 'scenario run NAME…'
or 'scenario run all' runs them.`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return cmd.Help() },
	}
	cmd.AddCommand(newScenarioListCommand(env), newScenarioRunCommand(env))
	return cmd
}

func newScenarioListCommand(env *Env) *cobra.Command {
	return &cobra.Command{
		Use:     "list",
		Short:   "List the scenarios: each one's name, how long it takes, and what it shows",
		Example: `  gobench scenario list`,
		Args:    noArgs,
		RunE: func(*cobra.Command, []string) error {
			tw := tabwriter.NewWriter(env.Stdout, 0, 0, 2, ' ', 0)
			fmt.Fprintf(tw, "name\ttakes\tshows\n")
			for _, sc := range preset.Scenarios() {
				title := sc.Title
				if sc.Named {
					title += " (by name only: not in all)"
				}
				fmt.Fprintf(tw, "%s\t~%s\t%s\n", sc.Name, sc.Takes, title)
			}
			return tw.Flush()
		},
	}
}

func newScenarioRunCommand(env *Env) *cobra.Command {
	o := defaultScenarioOptions(env.registry())
	cmd := &cobra.Command{
		Use:         "run NAME…|all",
		Annotations: map[string]string{runsWorkers: "yes", examplesParsed: "yes"},
		Short:       "Run scenarios by name, or all of them (but those run by name only), each reporting whether its pitfall was reproduced",
		Long: `run runs each named scenario (or all) in turn: its cells, the pitfall
and its fix (and points between), each on a fresh temporary database, then
its gates and its finding. Every gate reads the median of its cells' runs
(with --repeat, of several): "reproduced" when all pass, "not reproduced"
(exit 3) when one fails, "inconclusive" (exit 4) when a figure is missing.

The matrix flags apply as to mix: --driver (a list runs every cell on
each driver), --procs, --mode, --busy, --sync, --busy-timeout, --repeat.
A flag that a scenario's cells set themselves, as the contrast they show
(--journal in checkpoint-starvation), is refused for that scenario.
--queries or --duration runs longer than the scenario's quick default.

Scenarios:
` + scenarioHelp(),
		Example: `  # Every scenario, on the default driver
  gobench scenario run all

  # One scenario on the pure-Go driver, with 8 worker processes, its suite kept as JSON
  gobench scenario run deferred-begin --driver modernc --procs 8 --json deferred.json

  # Longer runs, 3 repeats each, as one markdown summary for a pull request
  gobench scenario run checkpoint-starvation autocheckpoint --duration 10s --repeat 3 --format markdown

  # A scenario on every SQLite driver, its suite kept to compare with a later run (gobench compare)
  gobench scenario run reader-blocks-writer --driver mattn,modernc,ncruces --json now.json

  # The check of a scenario itself: the fix run in the pitfall's place must say not reproduced (exit 3)
  gobench scenario run deferred-begin --swap`,
		Args: cobra.MinimumNArgs(1),
		ValidArgsFunction: func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
			return append(preset.ScenarioNames(), "all"), cobra.ShellCompDirectiveNoFileComp
		},
		RunE: func(cmd *cobra.Command, args []string) error { return runScenarios(cmd, env, o, args) },
	}
	o.AddFlags(cmd.Flags())
	return cmd
}

// scenarioHelp lists the scenarios for --help.
func scenarioHelp() string {
	var b strings.Builder
	for _, sc := range preset.Scenarios() {
		fmt.Fprintf(&b, "  %s\n%s\n", sc.Name, wrapIndent(sc.Title, 73, "      "))
	}
	return strings.TrimRight(b.String(), "\n")
}

// wrapIndent wraps text to width, each line indented.
func wrapIndent(text string, width int, indent string) string {
	var lines []string
	for l := range strings.SplitSeq(wrapText(text, width-len(indent)), "\n") {
		lines = append(lines, indent+l)
	}
	return strings.Join(lines, "\n")
}

// scenariosNamed returns the scenarios args name; for "all", every one
// but those that run only when named (preset.Scenario.Named).
func scenariosNamed(args []string) ([]*preset.Scenario, error) {
	if slices.Contains(args, "all") {
		if len(args) > 1 {
			return nil, errors.New("all runs every scenario: name no other")
		}
		return slices.DeleteFunc(preset.Scenarios(), func(sc *preset.Scenario) bool { return sc.Named }), nil
	}
	var out []*preset.Scenario
	for i, name := range args {
		if slices.Contains(args[:i], name) {
			return nil, fmt.Errorf("scenario %s is named twice", name)
		}
		sc, err := preset.ScenarioNamed(name)
		if err != nil {
			return nil, err
		}
		out = append(out, sc)
	}
	return out, nil
}

// resolve returns a job per scenario: its cells over the matrix flags.
func (o *scenarioOptions) resolve(cmd *cobra.Command, env *Env, scs []*preset.Scenario) ([]*job.Job, error) {
	fs := cmd.Flags()
	if err := o.run.resolve(); err != nil {
		return nil, err
	}
	switch {
	case o.run.dryRun:
		return nil, errors.New("a scenario writes no plan file: its gates and finding are the scenario's (--dry-run)")
	case fs.Changed("duration") && fs.Changed("queries"):
		return nil, errors.New("--queries and --duration both given (want one of them)")
	case fs.Changed("duration") && o.duration <= 0:
		return nil, errors.New("--duration must be a positive duration")
	}
	m, err := o.matrix.matrix(fs)
	if err != nil {
		return nil, err
	}
	engine := map[string]string{}
	for _, name := range preset.EngineFlags(o.matrix.reg) {
		if fs.Changed(name) {
			engine[name] = fs.Lookup(name).Value.String()
		}
	}
	var jobs []*job.Job
	for _, sc := range scs {
		spec := preset.ScenarioSpec{Scenario: sc, Loop: preset.Loop{Duration: o.duration, Warmup: o.warmup},
			Queries: o.queries, Seed: o.seed, Engine: engine, Swap: o.swap}
		cells, err := spec.Plans(m)
		if err != nil {
			return nil, err
		}
		j := o.run.newJob(cmd, env, spec, cells, jobParts{})
		j.Command = "scenario"
		jobs = append(jobs, j)
	}
	return jobs, nil
}

// runScenarios runs each scenario's job, judges it and writes its report;
// the exit says whether every one was reproduced.
func runScenarios(cmd *cobra.Command, env *Env, o *scenarioOptions, args []string) error {
	scs, err := scenariosNamed(args)
	if err != nil {
		return usage(err)
	}
	jobs, err := o.resolve(cmd, env, scs)
	if err != nil {
		return usage(err)
	}
	// Several scenarios' HTML and JSON are one book (one page, one file),
	// written when the last is done; their other reports are written as
	// each ends.
	book := len(jobs) > 1 && (o.run.html != "" || o.run.jsonOut != "" || o.run.format == "html" || o.run.format == "json")
	each := o.run
	each.html, each.jsonOut = "", ""
	var suites []*result.Suite
	var failed, undecided []string
	for i, j := range jobs {
		suite, err := runScenario(cmd.Context(), env, &o.run, scs[i], j)
		if err != nil {
			return fmt.Errorf("scenario %s: %w", scs[i].Name, err)
		}
		switch {
		case !book:
			err = o.run.writeOutput(env, suite, false)
		case o.run.format != "html" && o.run.format != "json":
			err = each.writeOutput(env, suite, false)
		}
		if err != nil {
			return fmt.Errorf("scenario %s: %w", scs[i].Name, err)
		}
		suites = append(suites, suite)
		verdict := suite.Scenario.Verdict
		o.run.notef(env, "scenario %s: %s", scs[i].Name, verdict)
		switch verdict {
		case result.OutcomeNotReproduced:
			failed = append(failed, scs[i].Name)
		case result.OutcomeInconclusive:
			undecided = append(undecided, scs[i].Name)
		}
	}
	if book {
		if err := o.run.writeBook(env, suites); err != nil {
			return err
		}
	}
	switch {
	case len(failed) > 0:
		return fmt.Errorf("%w: not reproduced: %s", judge.ErrThreshold, strings.Join(failed, ", "))
	case len(undecided) > 0:
		return fmt.Errorf("%w: inconclusive: %s", judge.ErrInconclusive, strings.Join(undecided, ", "))
	}
	return nil
}

// runScenario runs one scenario's cells and judges its gates: the suite
// holds its verdict and finding.
func runScenario(ctx context.Context, env *Env, o *runOptions, sc *preset.Scenario, j *job.Job) (*result.Suite, error) {
	if err := j.CheckCells(ctx, env.registry()); err != nil {
		return nil, usage(err)
	}
	runs, runErr := o.runCells(ctx, env, j, nil)
	if runErr != nil {
		return nil, runErr
	}
	suite, err := j.NewSuite(runs)
	if err != nil {
		return nil, err
	}
	if err := sc.Judge(suite); err != nil {
		return nil, err
	}
	return suite, nil
}

// writeBook writes several scenarios' suites as one book
// (result.Book): one HTML page to --html, one JSON file to --json, and
// either to stdout under --format html or json.
func (o *runOptions) writeBook(env *Env, suites []*result.Suite) error {
	bk := result.NewBook(suites)
	html, err := report.Render("html", bk, o.renderOptions())
	if err != nil {
		return err
	}
	if o.html != "" {
		if err := env.FS.WriteOutput(o.html, html); err != nil {
			return fmt.Errorf("writing --html %s: %w", o.html, err)
		}
	}
	if o.jsonOut != "" {
		if err := env.FS.WriteOutput(o.jsonOut, bk.Write); err != nil {
			return fmt.Errorf("writing --json %s: %w", o.jsonOut, err)
		}
	}
	write := map[string]func(io.Writer) error{"html": html, "json": bk.Write}[o.format]
	if write == nil {
		return nil
	}
	if err := write(env.Stdout); err != nil {
		return fmt.Errorf("writing the report: %w", err)
	}
	return nil
}
