package cli

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/gobench/gobench/pkg/job"
	"github.com/gobench/gobench/pkg/preset"
	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/store/all"
	"github.com/gobench/gobench/pkg/workload"
)

// ycsbOptions are the flags of gobench ycsb.
type ycsbOptions struct {
	matrix *matrixFlags
	run    runOptions
	loop   loopFlags
	spec   preset.YCSBSpec // its plan: everything but the matrix settings
	props  []string        // -p NAME=VALUE
	args   []string        // load|run WORKLOAD
}

func defaultYCSBOptions(reg *store.Registry) *ycsbOptions {
	return &ycsbOptions{
		matrix: newMatrixFlags(reg, all.DefaultDriver(), workload.ModeProcess, "1", "1"),
		run:    runOptions{repeat: 1, format: "text", ready: time.Minute},
		spec:   preset.DefaultYCSBSpec(),
	}
}

func (o *ycsbOptions) runOpts() *runOptions { return &o.run }

// AddFlags binds the options to flags.
func (o *ycsbOptions) AddFlags(fs *pflag.FlagSet) {
	o.matrix.AddFlags(fs, "ops per transaction (a load's inserts, a run's ops)")
	o.loop.AddFlags(fs, &o.spec.Plan, "ops")
	fs.StringArrayVarP(&o.props, "property", "p", nil, "a property NAME=VALUE, as YCSB's -p: it replaces the file's (repeatable; the last of a name wins)")
	o.run.AddFlags(fs, true)
	_ = fs.MarkHidden("queries")
	_ = fs.MarkHidden("goroutines")
	_ = fs.MarkHidden("crash-from") // refused but for start: the loaded records are not checked
}

func newYCSBCommand(env *Env) *cobra.Command {
	o := defaultYCSBOptions(env.registry())
	cmd := &cobra.Command{
		Use:         "ycsb load|run WORKLOAD",
		Annotations: map[string]string{runsWorkers: "yes", writesPlans: "records"},
		Short:       "Run YCSB's core workloads (a to f, or a property file of yours) on N worker processes",
		Long: `ycsb runs YCSB's core workload (site.ycsb.workloads.CoreWorkload) as YCSB
defines it, on any engine that keeps record tables (the SQLite drivers,
lmdb, btree; map without scans). WORKLOAD is a canonical workload, a to f
(the values of YCSB's workloads/workloada … workloadf), or a property
file as YCSB reads one; -p NAME=VALUE overrides a property.

  a  50% read, 50% update, zipfian
  b  95% read, 5% update, zipfian
  c  100% read, zipfian
  d  95% read, 5% insert, latest
  e  95% scan (uniform length up to 100), 5% insert, zipfian
  f  50% read, 50% read-modify-write, zipfian

load measures the load: the records inserted (recordcount, or insertcount
from insertstart), every worker taking its share. run measures the run:
the records are loaded first, outside the measurement (every run starts
from its own freshly loaded database), then operationcount ops are dealt
over the workers (or each runs for --duration).

Every core property is read: the five proportions, requestdistribution
(uniform, zipfian, latest, hotspot with hotspotdatafraction and
hotspotopnfraction), fieldcount, fieldlength, minfieldlength,
fieldlengthdistribution, readallfields, writeallfields, minscanlength,
maxscanlength, scanlengthdistribution, insertorder, zeropadding,
insertstart, insertcount, table, fieldnameprefix. threadcount is the
number of workers, --procs the processes they are spread over (each gets
threadcount ÷ procs goroutines; default: a process per worker). target
is gobench's open loop: ops due at that rate, latency from each op's due
time (coordinated omission corrected). A property that would change the
workload and is not implemented is refused, named; one that cannot (a
setting of YCSB's measurements or of a binding, a zero share of an op
gobench lacks) is named in a note.

On SQLite the table is YCSB's JDBC binding's, usertable(YCSB_KEY TEXT
PRIMARY KEY, FIELD0 TEXT, …), every statement prepared once; a scan is
SELECT * … WHERE YCSB_KEY >= ? ORDER BY YCSB_KEY LIMIT ?, a
read-modify-write one BEGIN IMMEDIATE transaction, every write
acknowledged when its COMMIT succeeded. Inserts take fresh keynums from
one counter shared by every worker process, and latest draws back from
the newest acknowledged insert.

Op kinds are read, update, insert, scan and read-modify-write (YCSB's
READ, UPDATE, INSERT, SCAN, READ-MODIFY-WRITE); --format ycsb prints
YCSB's own summary lines. Matrices (--driver, --journal, --sync,
--procs …), --repeat, --expect, --shard, --dry-run and compare work as
for mix.

--crash N simulates power cuts as for mix: every field written starts
with its write's tag (fields of at least 32 bytes), every write is
acknowledged on its own naming its record and field (--batch 1), and each
state is checked record by record, field by field: the newest
acknowledged write to a field, or a later one, must be there. The
records the run loads are not checked (no --crash-from).`,
		Example: `  # Workload A as YCSB defines it: 1,000 records, 1,000 ops, one worker
  gobench ycsb run a

  # Workload B on 25 worker processes, WAL, 10,000 records of one 64-byte field
  gobench ycsb run b -p threadcount=25 -p recordcount=10000 -p operationcount=100000 -p fieldcount=1 -p fieldlength=64 --journal wal

  # A property file of your own (this one: B with one 64-byte field), its load measured
  gobench ycsb load examples/ycsb/b-one-field -p recordcount=100000 --journal wal

  # Workload E on LMDB and SQLite side by side, YCSB's summary lines
  gobench ycsb run e --driver mattn,lmdb --format ycsb

  # Workload F at 2,000 ops/s (open loop), 8 workers in 2 processes
  gobench ycsb run f -p threadcount=8 -p target=2000 --procs 2 --duration 30s

  # Workload A through 5 simulated power cuts, WAL at NORMAL and at FULL
  gobench ycsb run a --crash 5 --journal wal --sync normal,full`,
		Args: ycsbArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			o.args = args
			return runPlanned(cmd, env, o)
		},
	}
	o.AddFlags(cmd.Flags())
	return cmd
}

// ycsbArgs accepts load or run and a workload.
func ycsbArgs(_ *cobra.Command, args []string) error {
	if len(args) != 2 || (args[0] != "load" && args[0] != "run") {
		return errors.New("want load or run, then a workload: a to f, or a property file")
	}
	return nil
}

// resolve reads the workload's properties (the file's, then -p) into
// the spec and builds its job, one plan per cell, validated.
func (o *ycsbOptions) resolve(cmd *cobra.Command, env *Env) (*job.Job, error) {
	fs := cmd.Flags()
	if fs.Changed("queries") {
		return nil, errors.New("--queries: a YCSB workload's ops are operationcount (-p operationcount=N), over all its workers")
	}
	spec := o.spec
	spec.Load, spec.RateGiven = o.args[0] == "load", fs.Changed("rate")
	props, err := o.properties(env, o.args[1])
	if err != nil {
		return nil, err
	}
	if err := spec.SetProperties(props); err != nil {
		return nil, err
	}
	j, err := resolveLottery(cmd, env, &o.run, &o.loop, &searchFlags{}, o.matrix, &spec, &spec.Loop)
	if err != nil {
		return nil, err
	}
	notes, err := spec.Notes()
	if err != nil {
		return nil, err
	}
	if !o.run.quiet {
		for _, n := range notes {
			fmt.Fprintf(env.Stderr, "gobench: note: %s\n", n)
		}
	}
	return j, nil
}

// properties returns the workload's properties: a canonical workload's,
// or a property file's, then the -p overrides.
func (o *ycsbOptions) properties(env *Env, name string) ([]preset.Property, error) {
	props, ok := preset.CanonicalYCSB(name)
	if _, err := env.FS.Stat(name); ok && err == nil {
		other := "workload" + strings.ToLower(name)
		if strings.HasPrefix(other, "workloadworkload") {
			other = strings.TrimPrefix(strings.ToLower(name), "workload")
		}
		return nil, fmt.Errorf("workload %s names both YCSB's workload and the file %s here: give ./%s for the file, or %s for YCSB's", name, name, name, other)
	}
	if !ok {
		fi, err := env.FS.Stat(name)
		switch {
		case err != nil:
			return nil, fmt.Errorf("workload %s: %w (the canonical workloads are a to f)", name, pathErr(err))
		case !fi.Mode().IsRegular():
			kind := "directory"
			if !fi.IsDir() {
				kind = kindName(fi.Mode())
			}
			return nil, fmt.Errorf("workload %s is a %s, not a property file", name, kind)
		}
		text, err := readText(env, name)
		if err != nil {
			return nil, fmt.Errorf("workload %s: %w", name, err)
		}
		if props, err = preset.ParseProperties(name, text); err != nil {
			return nil, err
		}
	}
	for _, p := range o.props {
		k, v, ok := strings.Cut(p, "=")
		if !ok || strings.TrimSpace(k) == "" {
			return nil, fmt.Errorf("-p %q: want NAME=VALUE, such as -p recordcount=10000", p)
		}
		props = append(props, preset.Property{Name: strings.TrimSpace(k), Value: strings.TrimSpace(v), Origin: "-p"})
	}
	return props, nil
}
