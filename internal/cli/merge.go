package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/gobench/gobench/pkg/judge"
	"github.com/gobench/gobench/pkg/result"
)

// mergeOptions are the flags of gobench merge.
type mergeOptions struct {
	out          string
	force        bool
	partial      bool
	expects      []string
	inconclusive string
}

// AddFlags binds the options to flags.
func (o *mergeOptions) AddFlags(fs *pflag.FlagSet) {
	fs.StringVarP(&o.out, "output", "o", "", "write the merged JSON to this file (atomically) instead of stdout")
	fs.BoolVar(&o.force, "force", false, "let --output replace a file gobench did not write (another program's data, a SQLite database)")
	fs.BoolVar(&o.partial, "partial", false, "merge the shards there are when some are missing or did not complete: the result is marked incomplete, naming them (default: refuse)")
	fs.StringArrayVar(&o.expects, "expect", nil, "a gate to judge on the merged result, besides those the shards' command gave (--shard keeps them for the merge), such as 'upsert ops/s: wal >= 3x rollback'; exit 3 when one fails, 4 when one cannot decide (repeatable)")
	fs.StringVar(&o.inconclusive, "inconclusive", string(judge.InconclusiveFails), "what a gate the data cannot decide counts as: fail (exit 4) or pass")
}

func newMergeCommand(env *Env) *cobra.Command {
	o := &mergeOptions{}
	cmd := &cobra.Command{
		Use:   "merge RESULT.json... | DIR",
		Short: "Merge result files of one workload from several machines or CI jobs",
		Long: `merge combines result files (single runs or suites) of the same workload
into one JSON result.

Shards of a job (gobench mix --journal rollback,wal,truncate,persist
--repeat 2 --shard I/N, one CI job each) become the job's suite: every
cell with all its repeats, in the job's order, as one machine would have
run them. The gates the shards' command gave (--expect), which no shard
can judge alone, are judged here on the merged suite, with any --expect
given to merge: exit 3 when one fails, 4 when one cannot decide.

Shards of one run's workers (--shard I/N --shard-by workers on N
machines) become that run: histograms merge losslessly, counts and file
I/O add up, workers are united, wall time is the longest shard's. Runs
with other settings become cells of a suite (so one CI job per journal
mode merges into the comparison), and runs with the same settings become
repeats. Files of different workloads (seed, mix, ops, keys, …) are
refused.

A directory stands for the result files (*.json) in it, as a CI job's
artifacts are collected. Shards that are not all there, or whose runs
did not all complete, are refused, naming the missing ones and their
runs (and a file's incomplete runs), unless --partial.`,
		Example: `  # A matrix of four journal modes, 2 repeats, over two CI jobs; merged, its gates judged
  gobench mix --journal rollback,wal,truncate,persist --repeat 2 --expect 'errors == 0' --shard 1/2 --json shards/s1.json
  gobench mix --journal rollback,wal,truncate,persist --repeat 2 --expect 'errors == 0' --shard 2/2 --json shards/s2.json
  gobench merge shards/ -o all.json

  # Shards of one 100-process run's workers on four machines
  gobench mix --procs 100 --shard 1/4 --shard-by workers --json w1.json   # on machine 1, and so on
  gobench merge w1.json w2.json w3.json w4.json > all.json

  # One CI job per journal mode, compared afterwards
  gobench merge rollback.json wal.json -o both.json

  # Every result a CI job left in results/, missing shards named
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
	inconclusive, err := judge.ParseInconclusive(o.inconclusive)
	if err != nil {
		return usage(err)
	}
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
	suites, err := readSuites(ctx, env, paths)
	if err != nil {
		return err
	}
	m, err := mergeSuites(suites, paths)
	if err != nil {
		return err
	}
	if !o.partial {
		if err := refuseIncomplete(m, suites, paths); err != nil {
			return err
		}
	}
	gates, err := mergeGates(m, suites, o.expects)
	if err != nil {
		return usage(err)
	}
	single := m.ReadsAsRun()
	var gateErr error
	if len(gates) > 0 {
		gateErr = judgeGates(env, m, gates, single, inconclusive)
		if gateErr != nil && !errors.Is(gateErr, judge.ErrThreshold) && !errors.Is(gateErr, judge.ErrInconclusive) {
			return gateErr
		}
	}
	write := m.Write
	if single {
		write = m.Cells[0].Runs[0].Write // one run stays a plain result
	}
	if o.out != "" {
		if err := env.FS.WriteOutput(o.out, write); err != nil {
			return fmt.Errorf("writing %s: %w", o.out, err)
		}
		return gateErr
	}
	return errors.Join(write(io.Writer(env.Stdout)), gateErr)
}

// readSuites reads each of paths as a suite (a run reads as a suite of
// one).
func readSuites(ctx context.Context, env *Env, paths []string) ([]*result.Suite, error) {
	var suites []*result.Suite
	for _, p := range paths {
		s, err := readSuite(ctx, env, p)
		if err != nil {
			return nil, err
		}
		suites = append(suites, s)
	}
	return suites, nil
}

// refuseIncomplete refuses, without --partial, a merge whose shards hold
// a run that did not complete, or that misses shards: each named, with
// its file where it has one.
func refuseIncomplete(m *result.Suite, suites []*result.Suite, paths []string) error {
	var incomplete []string
	for k, s := range suites {
		for _, r := range s.IncompleteShardRuns() {
			incomplete = append(incomplete, paths[k]+": "+r)
		}
	}
	if len(incomplete) > 0 {
		return usage(fmt.Errorf("merging: %s (give --partial to merge what is there)", strings.Join(incomplete, "; ")))
	}
	if missing := missingShards(m); len(missing) > 0 {
		return usage(fmt.Errorf("merging: %s (give --partial to merge what is there)", strings.Join(missing, "; ")))
	}
	return nil
}

// mergeSuites merges the suites read from paths (result.Merge); an
// error of one of them names its file.
func mergeSuites(suites []*result.Suite, paths []string) (*result.Suite, error) {
	m, err := result.Merge(suites)
	if err != nil {
		if ie := (*result.InputError)(nil); errors.As(err, &ie) && ie.Input < len(paths) {
			return nil, usage(fmt.Errorf("merging %s: %w", paths[ie.Input], ie.Err))
		}
		return nil, usage(fmt.Errorf("merging: %w", err))
	}
	return m, nil
}

// mergeGates parses the gates to judge on the merged suite m: those the
// shards of a job kept for the merge (result.Shard.Expect), then extra,
// each once, checked against m's cells.
func mergeGates(m *result.Suite, suites []*result.Suite, extra []string) ([]judge.Expectation, error) {
	var exprs []string
	for _, s := range suites {
		if s.Shard != nil {
			exprs = append(exprs, s.Shard.Expect...)
			break // every shard of one job keeps the same (result.Merge checks)
		}
	}
	var gates []judge.Expectation
	seen := map[string]bool{}
	for _, e := range append(exprs, extra...) {
		if seen[e] {
			continue
		}
		seen[e] = true
		g, err := judge.ParseExpectation(e)
		if err != nil {
			return nil, fmt.Errorf("--expect: %w", err)
		}
		if err := g.Validate(m); err != nil {
			return nil, fmt.Errorf("--expect %q: %w", e, err)
		}
		gates = append(gates, g)
	}
	return gates, nil
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

// missingShards names the shards missing from the merge: those of a job
// (result.Suite.Missing), and of a run's workers: a run whose shards were
// not all given stays a shard, its problems saying which are missing.
func missingShards(s *result.Suite) []string {
	out := slices.Clone(s.Missing)
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
