package cli

import (
	"context"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/gobench/gobench/pkg/job"
)

// runFileOptions are the flags of gobench run: where output goes, and
// what may override the plan file (repeats, where databases live).
type runFileOptions struct {
	run runOptions
}

func newRunCommand(env *Env) *cobra.Command {
	o := &runFileOptions{run: runOptions{repeat: 1, format: "text", ready: time.Minute}}
	cmd := &cobra.Command{
		Use:         "run FILE",
		Annotations: map[string]string{runsWorkers: "yes"},
		Short:       "Run a saved plan file, or again the plan a result file recorded",
		Long: `run runs a plan file, as any run command writes it with --dry-run: the
command (mix, crud or blob), every cell's plan (seed included), the
repeats, the baseline and the gates. Given a result file (--json of a
run or a matrix), it runs again what that result ran: the same cells,
seed and gates, as many repeats as it had.

The plan file is checked as flags are (drivers, engine options, every
setting; exit 2 with a message naming the cell). Output flags (--json,
--format, --html, …) are this run's own; --repeat, --db and --dir, when
given, override the file's. A plan file is plain JSON: edit it, keep it
beside the code it benchmarks, review it in a pull request.`,
		Example: `  # Save a plan, look at it, run it, then run its result's plan again
  gobench mix --procs 4 --queries 200 --journal rollback,wal --dry-run > plan.json
  gobench run plan.json --json result.json
  gobench run result.json

  # A result from CI, run again on this machine with more repeats
  gobench run ci-result.json --repeat 5 --format markdown

  # Turn a result into a plan file
  gobench run result.json --dry-run > plan.json`,
		Args: exactlyOneFile,
		RunE: func(cmd *cobra.Command, args []string) error {
			j, err := o.load(cmd.Context(), env, args[0], cmd.Flags(), planCommands(cmd.Root()))
			if err != nil {
				return err
			}
			return runJob(cmd.Context(), env, &o.run, j)
		},
	}
	fs := cmd.Flags()
	fs.StringVar(&o.run.dir, "dir", "", "make the databases' temporary directories here instead of where the plan says")
	fs.BoolVar(&o.run.si, "si", false, "print rates and sizes in powers of 1000 (blob)")
	o.run.AddFlags(fs, true)
	return cmd
}

// exactlyOneFile takes one file argument, as a usage error otherwise.
func exactlyOneFile(cmd *cobra.Command, args []string) error {
	if len(args) != 1 {
		return usage(fmt.Errorf("%s takes one plan or result file, got %d arguments", cmd.CommandPath(), len(args)))
	}
	return nil
}

// load reads and checks the plan (or result) file, and applies the flags
// that override it.
func (o *runFileOptions) load(ctx context.Context, env *Env, path string, fs *pflag.FlagSet, commands map[string]string) (*job.Job, error) {
	if err := o.run.resolve(); err != nil {
		return nil, usage(err)
	}
	j, err := readJob(ctx, env, path)
	if err != nil {
		return nil, err
	}
	source, ok := commands[j.Command]
	if !ok {
		names := slices.Sorted(maps.Keys(commands))
		return nil, usage(fmt.Errorf("%s: command %q is none of gobench's that write plans (want %s)", path, j.Command, strings.Join(names, ", ")))
	}
	if err := j.DealsFrom(source); err != nil {
		return nil, usage(fmt.Errorf("%s: %w", path, err))
	}
	if fs.Changed("repeat") {
		j.Repeat = o.run.repeat
	}
	if fs.Changed("db") {
		j.DB, j.Reuse = o.run.db, o.run.reuse
	}
	if fs.Changed("dir") {
		j.Dir = o.run.dir
	}
	if o.run.keep && j.DB != "" {
		return nil, usage(fmt.Errorf("--keep applies to temporary databases; the plan's db %s is never removed", j.DB))
	}
	if err := j.Validate(ctx, env.registry()); err != nil {
		return nil, usage(fmt.Errorf("%s: %w", path, err))
	}
	return j, nil
}

// readJob reads a plan file or a result file, as readInput reads.
func readJob(ctx context.Context, env *Env, path string) (*job.Job, error) {
	return readInput(ctx, env, path, func(r io.Reader) (*job.Job, error) { return job.Read(r, env.registry()) })
}
