package cli

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/gobench/gobench/pkg/bytesize"
	"github.com/gobench/gobench/pkg/job"
	"github.com/gobench/gobench/pkg/preset"
	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/store/all"
)

// blobOptions are the flags of gobench blob.
type blobOptions struct {
	run      runOptions
	spec     preset.BlobSpec
	count    string
	size     string
	variance string
	sample   string
	targets  store.List
	nosync   bool
}

func defaultBlobOptions() *blobOptions {
	spec := preset.DefaultBlobSpec(all.DefaultDriver())
	return &blobOptions{
		run:     runOptions{repeat: 1, format: "text", ready: time.Minute},
		spec:    spec,
		count:   "20k",
		size:    "10k",
		targets: store.List(spec.Targets),
	}
}

func (o *blobOptions) runOpts() *runOptions { return &o.run }

// AddFlags binds the options to flags.
func (o *blobOptions) AddFlags(fs *pflag.FlagSet) {
	sp := &o.spec
	fs.StringVar(&o.count, "count", o.count, "blobs in the data set (k = 1,000, m = 1,000,000)")
	fs.StringVar(&o.size, "size", o.size, "middle blob size (k = KiB = 1024 bytes, kB = 1000)")
	fs.StringVar(&o.variance, "variance", o.variance, "blob sizes spread evenly over size ± variance, seeded per blob (default: a fifth of --size; 0: all the same size)")
	fs.StringVar(&o.sample, "sample", "", "read (and update) only this many random distinct blobs per pass (default: every blob)")
	fs.BoolVar(&sp.Replace, "replace", false, "draw the blobs of a pass at random with replacement, as kvtest --random does: --sample draws, or --count (default: each blob once, or a sample of distinct blobs)")
	fs.BoolVar(&sp.Settle, "settle", sp.Settle, "write each target's files back to the disk before each pass, so a pass meets data already on disk as an application's long-written blobs are; --settle=false updates files written seconds earlier, which favours the file targets")
	fs.BoolVar(&sp.Update, "update", false, "after the read pass, overwrite the blobs in place with new random content of the same size")
	fs.Var(&o.targets, "targets", "what to compare, a comma list: db (one SQLite file), flat (one file per blob in one directory), tree (files in kvtest's tree: k/10000/k/100%100/k%100, at most 100 entries per directory)")
	fs.StringVar(&sp.Driver, "driver", sp.Driver, "SQLite driver of the db target: "+strings.Join(preset.SQLiteDrivers(all.Registry()), ", "))
	fs.StringVar(&sp.API, "api", sp.API, "how the db target reads and updates: sql (SELECT / UPDATE statements) or blob (incremental blob I/O; ncruces and capi)")
	fs.StringVar(&sp.Journal, "journal", sp.Journal, "SQLite journal mode of the db target: rollback, truncate, persist, wal, memory, off")
	fs.BoolVar(&sp.Sync, "sync", false, "the database syncs its commits (synchronous=FULL); pair with --fsync for a fair write comparison")
	fs.BoolVar(&o.nosync, "nosync", false, "the database does not sync (synchronous=OFF; the default)")
	fs.BoolVar(&sp.Fsync, "fsync", false, "fsync every file written by the flat and tree targets")
	fs.BoolVar(&sp.MultiTrans, "multitrans", false, "one database transaction per blob (default: one transaction per pass)")
	fs.BoolVar(&sp.Cold, "cold", false, "drop each target's files from the OS page cache before each pass, so reads come from the disk (Linux; writes the files back first)")
	fs.StringVar(&sp.Mode, "mode", sp.Mode, "workers as goroutines of one process, or as worker processes: goroutine or process")
	fs.IntVar(&sp.Procs, "procs", sp.Procs, "workers (each takes an equal share of the blobs)")
	fs.Uint64Var(&sp.Seed, "seed", sp.Seed, "seed of the blob sizes, contents and visiting order")
	fs.BoolVar(&o.run.si, "si", false, "print rates and sizes in powers of 1000 (MB/s, kB) instead of powers of 2 (MiB/s, KiB)")
	fs.StringVar(&o.run.dir, "dir", "", "make the targets' temporary directories here instead (a disk of your choice)")
	o.run.AddFlags(fs, false)
}

func newBlobCommand(env *Env) *cobra.Command {
	o := defaultBlobOptions()
	cmd := &cobra.Command{
		Use:         "blob",
		Annotations: map[string]string{runsWorkers: "yes", writesPlans: "each key"},
		Short:       "Large blobs in one SQLite file against one file per blob: read and update speed, space",
		Long: `blob answers "is it faster to keep blobs in SQLite or as files?" the
classic way. It creates --count blobs of random, incompressible content,
--size ± --variance bytes each (a seeded size per blob), in a SQLite
database (init), puts the very same blobs, byte for byte, one file each
into a flat directory and into a tree laid out as SQLite's kvtest lays
out its export (k/10000/k/100%100/k%100: at most 100 entries per
directory) (export), then, against each target in turn, reads every blob
(or a --sample of random blobs, --replace to draw with replacement) in
random order and, with --update, overwrites each in place with new random
content of the same size (run).

Setup is outside the clock; each blob's read or write is clocked alone.
The table gives per target MiB/s (from the exact bytes visited), blobs/s,
p50 and p99 per blob, and the space used (the database file against the
du-style allocated size of the directory), then the factor of the
database against each directory, naming the side it favours.

Writes compare fairly only at equal durability: by default neither side
syncs (--nosync, no --fsync); --sync --fsync makes both durable. One
transaction covers a whole pass on the database unless --multitrans.
The page cache is warm unless --cold drops the target's files from it
before each pass (Linux). Before each pass the files are written back to
the disk (--settle, the default): an application's blobs were written
long before they are read or updated, and overwriting a file whose
blocks the file system has not yet allocated is cheaper than overwriting
one on disk (kvtest's file updates run about 30% faster right after its
export than after a sync), which would favour the file targets.`,
		Example: `  # The comparison at 20,000 blobs of 10 KiB ± 2 KiB
  gobench blob --count 20k

  # Reads from the disk rather than the page cache
  gobench blob --count 20k --cold

  # Reads and in-place updates, both sides durable, a transaction per blob
  gobench blob --count 20k --update --sync --fsync --multitrans

  # SQLite's incremental blob I/O (ncruces; capi too) against SQL, on 1,000 random blobs
  gobench blob --driver ncruces --api blob --sample 1000 --targets db
  gobench blob --driver ncruces --api sql --sample 1000 --targets db

  # SQLite's own speed beside kvtest's method: the C API, draws with replacement
  gobench blob --driver capi --replace --update

  # Large blobs, 3 repeats, as markdown
  gobench blob --count 2000 --size 1M --variance 256k --repeat 3 --format markdown`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runPlanned(cmd, env, o) },
	}
	o.AddFlags(cmd.Flags())
	return cmd
}

// resolve reads the counts and sizes into the spec and builds its job:
// one plan per target.
func (o *blobOptions) resolve(cmd *cobra.Command, env *Env) (*job.Job, error) {
	if err := o.run.resolve(); err != nil {
		return nil, err
	}
	if o.spec.Sync && o.nosync {
		return nil, errors.New("--sync and --nosync both given (want one of them)")
	}
	spec := o.spec
	if err := o.sizes(&spec); err != nil {
		return nil, err
	}
	spec.Targets = o.targets
	cells, err := spec.Plans(preset.Matrix{Registry: env.registry()}) // its targets are its cells
	if err != nil {
		return nil, err
	}
	return o.run.newJob(cmd, env, spec, cells, jobParts{}), nil
}

// sizes reads the count, size, variance and sample flags into sp.
func (o *blobOptions) sizes(sp *preset.BlobSpec) error {
	var err error
	if sp.Count, err = parseCount(o.count); err != nil {
		return fmt.Errorf("--count: %w", err)
	}
	if sp.Size, err = bytesize.Parse(o.size); err != nil {
		return fmt.Errorf("--size: %w", err)
	}
	switch v := strings.TrimSpace(o.variance); v {
	case "":
		sp.Variance = -1 // a fifth of the size
	case "0":
		sp.Variance = 0
	default:
		if sp.Variance, err = bytesize.Parse(v); err != nil {
			return fmt.Errorf("--variance: %w", err)
		}
	}
	sp.Sample = 0
	if o.sample != "" {
		if sp.Sample, err = parseCount(o.sample); err != nil {
			return fmt.Errorf("--sample: %w", err)
		}
	}
	return nil
}
