package cli

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/gobench/gobench/internal/coord"
)

// newWorkerCommand is the hidden command a coordinator starts for each
// worker process: plan on stdin, samples on fd 3.
func newWorkerCommand(env *Env) *cobra.Command {
	return &cobra.Command{
		Use:    "worker",
		Short:  "Run as a worker process of a gobench coordinator (internal)",
		Hidden: true,
		Args:   noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runWorker(cmd.Context(), env)
		},
	}
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
