package cli

import (
	"github.com/spf13/cobra"

	"github.com/gobench/gobench/pkg/recfs"
)

// newRecordFSCommand is the hidden command a coordinator starts to serve
// the FUSE recording file system over a run's database directory
// (--io-trace fs, and --crash on engines without a VFS of their own):
// its configuration and requests on stdin, its answers on stdout.
func newRecordFSCommand(env *Env) *cobra.Command {
	return &cobra.Command{
		Use:    "recordfs",
		Short:  "Serve the recording file system of a gobench coordinator (internal)",
		Hidden: true,
		Args:   noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			// The coordinator decides when the mount goes: it closes
			// stdin, or dies, once nothing uses it.
			if env.IgnoreInterrupts != nil {
				env.IgnoreInterrupts()
			}
			if env.IgnoreBrokenPipe != nil {
				env.IgnoreBrokenPipe()
			}
			return recfs.Serve(cmd.Context(), env.Stdin, env.Stdout)
		},
	}
}
