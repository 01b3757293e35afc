package cli

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/gobench/gobench/pkg/result"
)

// mergeOptions are the flags of gobench merge.
type mergeOptions struct {
	out     string
	force   bool
	partial bool
}

// AddFlags binds the options to flags.
func (o *mergeOptions) AddFlags(fs *pflag.FlagSet) {
	fs.StringVarP(&o.out, "output", "o", "", "write the merged JSON to this file (atomically) instead of stdout")
	fs.BoolVar(&o.force, "force", false, "let --output replace a file gobench did not write (another program's data, a SQLite database)")
	fs.BoolVar(&o.partial, "partial", false, "merge the shards there are when some are missing: the result is marked incomplete, naming them (default: refuse)")
}

func newMergeCommand(env *Env) *cobra.Command {
	o := &mergeOptions{}
	cmd := &cobra.Command{
		Use:   "merge RESULT.json... | DIR",
		Short: "Merge result files of one workload from several machines or CI jobs",
		Long: `merge combines result files (single runs or suites) of the same workload
into one JSON result. Shards of one run (gobench mix --shard I/N on N
machines) become that run: histograms merge losslessly, counts add up,
workers are united, wall time is the longest shard's. Runs with other
settings become cells of a suite (so one CI job per journal mode merges
into the comparison), and runs with the same settings become repeats.
Files of different workloads (seed, mix, ops, keys, …) are refused.

A directory stands for the result files (*.json) in it, as a CI job's
artifacts are collected. A run whose shards are not all there is refused,
naming the missing ones, unless --partial.`,
		Example: `  # Shards of one 100-process run on four machines
  gobench mix --procs 100 --shard 1/4 --json s1.json   # on machine 1, and so on
  gobench merge s1.json s2.json s3.json s4.json > all.json

  # One CI job per journal mode, compared afterwards
  gobench merge rollback.json wal.json -o both.json

  # Every shard a CI job left in results/, missing ones named
  gobench merge results/ -o all.json`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return usage(errNoInputs)
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			return runMerge(cmd.Context(), o, args, env)
		},
	}
	o.AddFlags(cmd.Flags())
	return cmd
}

func runMerge(ctx context.Context, o *mergeOptions, args []string, env *Env) error {
	paths, err := mergeInputs(env, args)
	if err != nil {
		return err
	}
	if o.out != "" {
		c := newPathCheck(env, o.force)
		for _, p := range paths {
			c.input("an input", p)
		}
		if err := c.output("--output", o.out); err != nil {
			return err
		}
		if err := c.hold(); err != nil {
			return err
		}
	}
	var suites []*result.Suite
	for _, p := range paths {
		s, err := readSuite(ctx, env, p)
		if err != nil {
			return err
		}
		suites = append(suites, s)
	}
	m, err := result.Merge(suites)
	if err != nil {
		return usage(fmt.Errorf("merging: %w", err))
	}
	if missing := missingShards(m); len(missing) > 0 && !o.partial {
		return usage(fmt.Errorf("merging: %s (give --partial to merge what is there)", strings.Join(missing, "; ")))
	}
	write := m.Write
	if len(m.Cells) == 1 && len(m.Cells[0].Runs) == 1 {
		write = m.Cells[0].Runs[0].Write // one run stays a plain result
	}
	if o.out != "" {
		if err := env.FS.WriteOutput(o.out, write); err != nil {
			return fmt.Errorf("writing %s: %w", o.out, err)
		}
		return nil
	}
	return write(io.Writer(env.Stdout))
}

// mergeInputs expands the arguments of merge: a directory stands for the
// *.json files in it, sorted; one without any is an error.
func mergeInputs(env *Env, args []string) ([]string, error) {
	var out []string
	for _, a := range args {
		fi, err := env.FS.Stat(a)
		if err != nil || !fi.IsDir() {
			out = append(out, a) // reading it says what is wrong
			continue
		}
		files, err := env.FS.Glob(filepath.Join(a, "*.json"))
		if err != nil {
			return nil, usage(fmt.Errorf("%s: %w", a, err))
		}
		if len(files) == 0 {
			return nil, usage(fmt.Errorf("%s holds no result file (*.json)", a))
		}
		out = append(out, files...)
	}
	return out, nil
}

// missingShards names the shards missing from the merged runs: a run
// whose shards were not all given stays a shard, its problems saying
// which are missing.
func missingShards(s *result.Suite) []string {
	var out []string
	for _, c := range s.Cells {
		for _, r := range c.Runs {
			if r.Plan.Shard == nil {
				continue
			}
			for _, p := range r.Problems {
				if strings.HasSuffix(p, " is missing") {
					out = append(out, strings.TrimPrefix(c.Settings.String()+": ", "(all): ")+p)
				}
			}
		}
	}
	return out
}
