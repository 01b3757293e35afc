package cli

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/gobench/gobench/internal/coord"
)

// newWorkerCommand is the hidden command a coordinator starts for each
// worker process: plan on stdin, samples on fd 3; with --describe, the
// store's facts as this build's engine reads them, on stdout.
func newWorkerCommand(env *Env) *cobra.Command {
	var describe bool
	cmd := &cobra.Command{
		Use:    "worker",
		Short:  "Run as a worker process of a gobench coordinator (internal)",
		Hidden: true,
		Args:   noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if describe {
				return coord.DescribeWorker(cmd.Context(), env.Stdin, env.Stdout, env.registry())
			}
			return runWorker(cmd.Context(), env)
		},
	}
	cmd.Flags().BoolVar(&describe, "describe", false, "read a plan as JSON on stdin and write its store's facts as JSON")
	return cmd
}

func runWorker(ctx context.Context, env *Env) error {
	// A terminal's Ctrl-C reaches the whole process group; the
	// coordinator decides how its workers stop.
	if env.IgnoreInterrupts != nil {
		env.IgnoreInterrupts()
	}
	out, err := env.SampleOut()
	if err != nil {
		return usage(err)
	}
	defer out.Close()
	return coord.ServeWorker(ctx, env.Stdin, out, env.registry(), env.PID)
}
