package cli

import (
	"os"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// floatFlag is a float flag of a command of the tree.
type floatFlag struct {
	path []string // the command's words after "gobench"
	name string
}

// floatFlags walks the command tree and lists every float flag of every
// command, inherited ones included.
func floatFlags(cmd *cobra.Command, path []string) []floatFlag {
	var out []floatFlag
	cmd.Flags().VisitAll(func(f *pflag.Flag) {
		if isFloatFlag(f) {
			out = append(out, floatFlag{path, f.Name})
		}
	})
	for _, sub := range cmd.Commands() {
		out = append(out, floatFlags(sub, append(append([]string(nil), path...), sub.Name()))...)
	}
	return out
}

// operands are what a command needs besides flags to get as far as its
// flags' checks: the files it reads.
var operands = map[string][]string{
	"report":  {fixture},
	"merge":   {fixture},
	"compare": {fixture, fixture},
	"run":     {fixture},
	"ycsb":    {"run", "a"},
}

// Every float flag of every command, found by walking the command tree
// (a new one is covered without being listed), refuses NaN, +Inf, -Inf
// and 1e309 with exit 2 and one line naming the flag, before any work:
// nothing on stdout, nothing in the temporary directory.
func TestFloatFlagsRefuseNonFinite(t *testing.T) {
	env, _, _ := testEnv(t)
	flags := floatFlags(newRootCommand(env), nil)
	names := map[string]bool{}
	for _, f := range flags {
		names[f.name] = true
	}
	for _, known := range []string{"rate", "zipf-theta", "rate-max", "tolerance", "max-errors"} {
		if !names[known] {
			t.Fatalf("the walk found no --%s among %d float flags: it misses flags", known, len(flags))
		}
	}
	for _, f := range flags {
		for _, v := range []string{"NaN", "+Inf", "-Inf", "1e309"} {
			args := append(append(append([]string(nil), f.path...), operands[f.path[0]]...), "--"+f.name, v)
			t.Run(strings.Join(args, " "), func(t *testing.T) {
				env, stdout, stderr := testEnv(t)
				if code := Main(args, env); code != ExitUsage {
					t.Fatalf("exit %d, want %d: %s", code, ExitUsage, stderr)
				}
				if msg := stderr.String(); strings.Count(msg, "\n") != 1 || !strings.Contains(msg, "--"+f.name) {
					t.Errorf("stderr is not one line naming --%s:\n%s", f.name, msg)
				}
				if stdout.Len() != 0 {
					t.Errorf("stdout: %s", stdout)
				}
				if ents, _ := os.ReadDir(os.Getenv("TMPDIR")); len(ents) != 0 {
					t.Errorf("work started: %d entries in the temporary directory", len(ents))
				}
			})
		}
	}
	t.Logf("%d float flags × 4 values refused", len(flags))
}
