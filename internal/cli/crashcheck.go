package cli

import (
	"github.com/spf13/cobra"

	"github.com/gobench/gobench/internal/coord"
)

// newCrashCheckCommand is the hidden command a coordinator starts to
// check one --crash state of an engine whose C code can abort the
// process that opens a broken state (LMDB's assertions): the request on
// stdin, the verdict as JSON on stdout. An abort ends this process, not
// the run.
func newCrashCheckCommand(env *Env) *cobra.Command {
	return &cobra.Command{
		Use:    "crashcheck",
		Short:  "Check one crash state for a gobench coordinator (internal)",
		Hidden: true,
		Args:   noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			// The coordinator decides when the check stops.
			if env.IgnoreInterrupts != nil {
				env.IgnoreInterrupts()
			}
			return coord.ServeCrashCheck(cmd.Context(), env.Stdin, env.Stdout, env.registry())
		},
	}
}
