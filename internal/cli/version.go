package cli

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/gobench/gobench/pkg/result"
)

func newVersionCommand(env *Env) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print gobench's version, Go version and drivers",
		Args:  noArgs,
		RunE: func(*cobra.Command, []string) error {
			t := result.ToolInfo()
			_, err := fmt.Fprintf(env.Stdout, "%s %s, %s, drivers: %s\n", t.Name, t.Version, t.GoVersion, driverNames())
			return err
		},
	}
}
