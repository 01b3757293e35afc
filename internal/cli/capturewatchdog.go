package cli

import (
	"github.com/spf13/cobra"

	"github.com/gobench/gobench/pkg/capture/preload"
)

// captureWatchdogArg is the hidden command's name, the argument capture
// starts its own executable with as the watchdog of a captured program
// (no longer than a shown command's: cobra pads help to the longest
// name, hidden ones included).
const captureWatchdogArg = "watchdog"

// newCaptureWatchdogCommand is the hidden command capture starts beside a
// captured program: it kills the program's process group when the
// capturing gobench dies without ending the capture (preload.Watchdog).
func newCaptureWatchdogCommand(env *Env) *cobra.Command {
	return &cobra.Command{
		Use:    captureWatchdogArg,
		Short:  "Kill a captured program's processes if its gobench capture dies (internal)",
		Hidden: true,
		Args:   noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			// Signals meant for the capture reach it through its
			// capturing process, never through this one.
			if env.IgnoreInterrupts != nil {
				env.IgnoreInterrupts()
			}
			return preload.Watchdog(env.Stdin)
		},
	}
}
