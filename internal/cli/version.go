package cli

import (
	"fmt"
	"runtime"
	"strings"

	"github.com/spf13/cobra"

	"github.com/gobench/gobench/pkg/result"
	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/store/all"
)

func newVersionCommand(env *Env) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print gobench's version, revision, Go version and the engine each driver carries",
		Args:  noArgs,
		RunE: func(*cobra.Command, []string) error {
			_, err := fmt.Fprint(env.Stdout, versionText())
			return err
		},
	}
}

// versionText is what gobench version and gobench --version print: the
// build (module version, VCS revision and whether the checkout was
// modified), the Go toolchain and platform, and each driver with the
// engine version it carries.
func versionText() string {
	t := result.ToolInfo()
	var b strings.Builder
	fmt.Fprintf(&b, "gobench %s\n", strings.TrimSpace(strings.TrimSuffix(t.Version, t.Revision)))
	if t.Revision != "" {
		modified := ""
		if t.Modified {
			modified = " (modified)"
		}
		fmt.Fprintf(&b, "revision %s%s, committed %s\n", t.Revision, modified, t.RevisionTime)
	}
	fmt.Fprintf(&b, "%s %s/%s\n", t.GoVersion, runtime.GOOS, runtime.GOARCH)
	reg := all.Registry()
	for _, name := range reg.Names() {
		d, err := reg.Lookup(name)
		if err != nil {
			continue
		}
		fmt.Fprintf(&b, "driver %s", name)
		if v, ok := d.(store.Versioned); ok {
			if ev, err := v.EngineVersion(); err == nil {
				fmt.Fprintf(&b, ": %s", ev)
			} else {
				fmt.Fprintf(&b, ": version unknown (%v)", err)
			}
		}
		b.WriteString("\n")
	}
	return b.String()
}
