package cli

import (
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/gobench/gobench/pkg/choose"
	"github.com/gobench/gobench/pkg/report"
	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/workload"
)

// registerCompletions gives every flag of cmd and its subcommands whose
// values are a known list (see flagValues) value completion in the shells
// cobra's completion command writes scripts for; other flags complete
// file names. The lists are read only when a shell asks, so no other
// invocation pays for them.
func registerCompletions(cmd *cobra.Command, env *Env) {
	renders := cmd.Annotations[rendersKind]
	cmd.Flags().VisitAll(func(f *pflag.Flag) {
		flag := f.Name
		_ = cmd.RegisterFlagCompletionFunc(flag, func(c *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
			vals := flagValues(env.registry(), renders, flag)
			if vals == nil {
				return nil, cobra.ShellCompDirectiveDefault
			}
			return completeList(vals)(c, args, toComplete)
		})
	})
	for _, sub := range cmd.Commands() {
		registerCompletions(sub, env)
	}
}

// rendersKind annotates a command whose --format renders something else
// than results: "comparison" or "disk".
const rendersKind = "gobench/renders"

// flagValues lists the values a flag of a command takes: gobench's own
// (--driver, --mode, --busy, --format of what the command renders) and
// each engine's (store.Completer); nil for a flag of free values.
func flagValues(reg *store.Registry, renders, flag string) []string {
	switch flag {
	case "driver":
		return reg.Names()
	case "mode":
		return []string{workload.ModeProcess, workload.ModeGoroutine}
	case "busy":
		return []string{workload.BusyTimeout, workload.BusyRetry}
	case "format":
		return report.FormatsFor(formatsOf[renders])
	case "keep":
		if renders == "choice" { // choose's promise; elsewhere --keep keeps temporary databases
			return choose.Keeps()
		}
	}
	return reg.Settings().Values(flag)
}

// completeList completes the last item of a comma list from vals: the
// items before it stay as typed.
func completeList(vals []string) cobra.CompletionFunc {
	return func(_ *cobra.Command, _ []string, toComplete string) ([]string, cobra.ShellCompDirective) {
		done := toComplete[:strings.LastIndex(toComplete, ",")+1]
		var out []string
		for _, v := range vals {
			if strings.HasPrefix(done+v, toComplete) {
				out = append(out, done+v)
			}
		}
		return out, cobra.ShellCompDirectiveNoFileComp
	}
}
