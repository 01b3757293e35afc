package cli

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/gobench/gobench/pkg/report"
	"github.com/gobench/gobench/pkg/sqltrace"
)

// replayOptions are the flags of gobench replay.
type replayOptions struct {
	info   bool
	format string
}

// AddFlags binds the options to flags.
func (o *replayOptions) AddFlags(fs *pflag.FlagSet) {
	fs.BoolVar(&o.info, "info", false, "summarise the trace (processes, connections, statements, fingerprints, commits, duration, databases, size) and run nothing")
	fs.StringVar(&o.format, "format", "text", formatUsage("the report's format", "")+" (--info prints text or json)")
}

func newReplayCommand(env *Env) *cobra.Command {
	o := &replayOptions{}
	cmd := &cobra.Command{
		Use:   "replay TRACE",
		Short: "Summarise a trace gobench capture recorded",
		Long: `replay reads a trace that gobench capture (or package capture's Go
wrapper) recorded. With --info it summarises it: its processes,
connections and threads, its statements (how many, how many failed, how
many distinct once literals and parameters are taken out), its commits,
how long it ran, each database it touched with how the order of its
commits was recorded and the size of its snapshot, and the statements
that ran most often.

A trace that is truncated or corrupt is refused with the byte offset
where it went wrong (exit 2); one written by a newer gobench says so.`,
		Example: `  # A trace gobench capture recorded
  gobench replay --info shop.trace
  gobench replay --info --format json shop.trace`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) != 1 {
				return usage(errors.New("replay takes one trace file"))
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			return runReplay(cmd.Context(), o, args[0], env)
		},
	}
	o.AddFlags(cmd.Flags())
	return cmd
}

func runReplay(ctx context.Context, o *replayOptions, trace string, env *Env) error {
	if !o.info {
		return usage(errors.New("replay runs only --info so far: give --info"))
	}
	if o.format != "text" && o.format != "json" {
		return usage(fmt.Errorf("--format %s: --info prints text or json", o.format))
	}
	in, err := inspectTrace(env, trace)
	if err != nil {
		return err
	}
	render, err := report.TraceInfo(o.format, in, report.Options{})
	if err != nil {
		return err
	}
	return render(env.Stdout)
}

// inspectTrace summarises a trace; one that does not read is bad input.
func inspectTrace(env *Env, path string) (*sqltrace.Info, error) {
	in, err := sqltrace.Inspect(func() (io.ReadCloser, error) { return env.FS.Open(path) })
	if err != nil {
		return nil, usage(fmt.Errorf("%s: %w", path, err))
	}
	return in, nil
}
