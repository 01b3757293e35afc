package cli

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/gobench/gobench/pkg/report"
	"github.com/gobench/gobench/pkg/result"
	"github.com/gobench/gobench/pkg/store"
)

// reportOptions are the flags of gobench report.
type reportOptions struct {
	format string
	out    string
	force  bool
	stats  []string // the latency statistics of a run's table
}

// AddFlags binds the options to flags.
func (o *reportOptions) AddFlags(fs *pflag.FlagSet) {
	fs.StringVarP(&o.format, "format", "f", "text", formatUsage("output format", "")+" (default: from -o's extension, "+strings.Join(report.Extensions(formatsOf[""]), " ")+", else text)")
	fs.StringVarP(&o.out, "output", "o", "", "write to this file (atomically) instead of stdout")
	fs.Var(statsValue{&o.stats}, "stats", statsUsage())
	fs.BoolVar(&o.force, "force", false, "let --output replace a file gobench did not write (another program's data, a SQLite database)")
}

func newReportCommand(env *Env) *cobra.Command {
	o := &reportOptions{}
	cmd := &cobra.Command{
		Use:   "report RESULT.json",
		Short: "Render a result file: an HTML report with charts, or any other format",
		Long: `report renders a result file (a run or a suite, from --json or merge, or
a capacity search from --find-rate) in
any format. html is one self-contained file, with no scripts and nothing
fetched, that any browser opens offline. For a run it has the text report,
throughput over time per op kind, the latency percentile spectrum per op
kind (to the 99.999th percentile), and each worker's throughput. For a
matrix it has a bar per cell for every throughput and p99 metric, with its
factor against the baseline.`,
		Example: `  gobench mix --procs 25 --queries 15000 --json run.json
  gobench report run.json -o report.html
  gobench report suite.json --format markdown >> "$GITHUB_STEP_SUMMARY"`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) != 1 {
				return usage(fmt.Errorf("report takes one result file (got %d)", len(args)))
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if !cmd.Flags().Changed("format") {
				o.format = formatOf(o.out, o.format)
			}
			return runReport(cmd.Context(), o, args[0], env)
		},
	}
	o.AddFlags(cmd.Flags())
	return cmd
}

func runReport(ctx context.Context, o *reportOptions, path string, env *Env) error {
	if err := report.CheckFormat(o.format); err != nil {
		return usage(fmt.Errorf("--format: %w", err))
	}
	if o.out != "" {
		c := newPathCheck(env, o.force)
		c.input("the input", path)
		if err := c.output("--output", o.out); err != nil {
			return err
		}
		if err := c.hold(); err != nil {
			return err
		}
	}
	v, err := readInput(ctx, env, path, readAnyNamed(env.registry()))
	if err != nil {
		return err
	}
	opts := report.Options{Stats: o.stats}
	if o.out == "" {
		opts.Width = env.stdoutWidth()
	}
	render, err := report.Render(o.format, v, opts)
	if err != nil {
		return usage(err)
	}
	if o.out == "" {
		return render(env.Stdout)
	}
	return env.FS.WriteOutput(o.out, render)
}

// readAnyNamed returns a reader of any result file (result.ReadAny), a
// run's or a suite's settings named as reg's engines name them today.
func readAnyNamed(reg *store.Registry) func(io.Reader) (any, error) {
	return func(r io.Reader) (any, error) {
		v, err := result.ReadAny(r)
		if s, ok := v.(*result.Suite); ok && err == nil {
			return s.Named(reg)
		}
		return v, err
	}
}
