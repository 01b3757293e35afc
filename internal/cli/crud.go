package cli

import (
	"errors"
	"fmt"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/gobench/gobench/pkg/job"
	"github.com/gobench/gobench/pkg/preset"
	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/store/all"
	"github.com/gobench/gobench/pkg/units"
	"github.com/gobench/gobench/pkg/workload"
)

// crudOptions are the flags of gobench crud.
type crudOptions struct {
	matrix  *matrixFlags
	run     runOptions
	spec    preset.CRUDSpec
	rows    string
	storage string
}

func defaultCRUDOptions(reg *store.Registry) *crudOptions {
	return &crudOptions{
		matrix:  newMatrixFlags(reg, all.DefaultDriver(), workload.ModeGoroutine, "1", "1000"),
		run:     runOptions{repeat: 1, format: "text", ready: time.Minute},
		spec:    preset.DefaultCRUDSpec(),
		rows:    "10k",
		storage: "disk",
	}
}

func (o *crudOptions) runOpts() *runOptions { return &o.run }

// AddFlags binds the options to flags.
func (o *crudOptions) AddFlags(fs *pflag.FlagSet) {
	o.matrix.AddFlags(fs, "ops per transaction in the insert, update and delete phases (1: one per op)")
	fs.StringVar(&o.rows, "rows", o.rows, "row counts, a comma list: one row of the table per engine and count (k = 1,000, m = 1,000,000)")
	fs.IntVar(&o.spec.Rounds, "rounds", o.spec.Rounds, "rounds of the query phase and of the update phase")
	fs.StringVar(&o.spec.Order, "order", o.spec.Order, "key order of every phase: random (a new permutation each phase) or sequential")
	fs.StringVar(&o.storage, "storage", o.storage, "where databases live: disk (the OS's temporary directory), ramdisk (/dev/shm), or memory (SQLite's memdb, one process; map and btree always)")
	fs.StringVar(&o.run.dir, "dir", "", "make the databases' temporary directories here instead (a disk of your choice)")
	fs.IntVar(&o.spec.Plan.ValueSize, "value-size", o.spec.Plan.ValueSize, "bytes per value")
	fs.Uint64Var(&o.spec.Plan.Seed, "seed", o.spec.Plan.Seed, "base seed of the key orders and values")
	fs.StringVar(&o.spec.Plan.OnError, "on-error", o.spec.Plan.OnError, "after an error other than busy/locked: stop the run, or continue and count it")
	fs.StringVar(&o.spec.Baseline, "baseline", "", "the driver factors are computed against (default: the first)")
	o.run.AddFlags(fs, false)
}

func newCRUDCommand(env *Env) *cobra.Command {
	o := defaultCRUDOptions(env.registry())
	cmd := &cobra.Command{
		Use:         "crud",
		Annotations: map[string]string{runsWorkers: "yes", writesPlans: "each key"},
		Short:       "Insert, query, update, scan and delete N rows per engine: the scaling table",
		Long: `crud runs the classic embedded-database benchmark on each engine and row
count: insert every row, query every row (--rounds times), update every
row (--rounds times), scan every row in key order (100 rows per op, on
engines that keep keys in order), delete every row. Each phase visits
the keys in --order, split between the workers, starts at its own
barrier and is clocked op by op. Writes run --batch to a transaction.

The table has one row per engine and size: ops/s per phase (query and
update: the median round, best in brackets; scan in rows/s), the size on
disk after the insert and at the end (allocated blocks and apparent
bytes), then latency percentiles, then each engine's factor against the
--baseline engine at the same size.

map and btree are per-process in-memory ceilings; crud runs workers as
goroutines by default (--mode goroutine), which every engine supports.`,
		Example: `  # The scaling table for four engines at two sizes
  gobench crud --driver mattn,lmdb,map,btree --rows 1k,100k --order random

  # One transaction per insert, on a RAM disk, 3 repeats
  gobench crud --driver mattn,modernc --rows 10k --batch 1 --storage ramdisk --repeat 3

  # Files, one per row, in a two-level tree with fsync, against SQLite
  gobench crud --driver files,mattn --layout tree --sync full --rows 10k --baseline mattn`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runPlanned(cmd, env, o) },
	}
	o.AddFlags(cmd.Flags())
	return cmd
}

// parseCount reads a positive count as people write it (units.ParseCount:
// 1000, 10k, 1.5M, 4Ki).
func parseCount(s string) (uint64, error) {
	n, err := units.ParseCount(s)
	if err != nil || n == 0 {
		return 0, fmt.Errorf("%q is not a positive count such as 1000, 10k or 1m", s)
	}
	return n, nil
}

// resolve reads the row counts and where databases live into the spec
// and builds its job: one plan per engine, size and cell.
func (o *crudOptions) resolve(cmd *cobra.Command, env *Env) (*job.Job, error) {
	if err := o.run.resolve(); err != nil {
		return nil, err
	}
	spec := o.spec
	if err := o.where(&spec); err != nil {
		return nil, err
	}
	var counts store.List
	if err := counts.Set(o.rows); err != nil {
		return nil, fmt.Errorf("--rows: %w", err)
	}
	spec.Rows = nil
	for _, c := range counts {
		n, err := parseCount(c)
		if err != nil {
			return nil, fmt.Errorf("--rows: %w", err)
		}
		spec.Rows = append(spec.Rows, n)
	}
	m, err := o.matrix.matrix(cmd.Flags())
	if err != nil {
		return nil, err
	}
	cells, err := spec.Plans(m)
	if err != nil {
		return nil, err
	}
	return o.run.newJob(cmd, env, spec, cells, jobParts{}), nil
}

// where reads --storage: in memory (spec.Memory), on a RAM disk (the
// databases' directory) or on disk.
func (o *crudOptions) where(spec *preset.CRUDSpec) error {
	switch o.storage {
	case "memory":
		if o.run.dir != "" {
			return errors.New("--storage memory and --dir both name where databases live (want one of them)")
		}
		spec.Memory = true
	case "disk":
	case "ramdisk":
		if o.run.dir != "" {
			return errors.New("--storage ramdisk and --dir both name where databases live (want one of them)")
		}
		o.run.dir, o.run.dirFrom = "/dev/shm", "--storage ramdisk (a tmpfs at /dev/shm)"
	default:
		return fmt.Errorf("--storage %q: want disk, ramdisk or memory (or --dir DIR)", o.storage)
	}
	return nil
}
