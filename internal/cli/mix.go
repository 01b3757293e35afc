package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/gobench/gobench/internal/coord"
	"github.com/gobench/gobench/pkg/report"
	"github.com/gobench/gobench/pkg/result"
	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/store/all"
	"github.com/gobench/gobench/pkg/store/files"
	"github.com/gobench/gobench/pkg/store/lmdb"
	"github.com/gobench/gobench/pkg/store/sqlite"
	"github.com/gobench/gobench/pkg/workload"
)

// mixOptions are the flags of gobench mix. The settings a matrix can vary
// are comma lists.
type mixOptions struct {
	plan     workload.Plan // template: everything but the matrix settings
	drivers  string
	modes    string
	procs    string
	gors     string
	batches  string
	journals string
	syncs    string
	busys    string
	layout   string
	fsync    bool
	mapSize  int64
	noSync   bool
	writePct int
	duration time.Duration
	repeat   int
	baseline string
	expects  []string
	shard    string
	db       string
	keep     bool
	jsonOut  string
	format   string
	quiet    bool
	ready    time.Duration

	// Resolved by resolve.
	cells  []*workload.Plan
	gates  []report.Expectation
	output report.Format
}

func defaultMixOptions() *mixOptions {
	o := &mixOptions{plan: workload.DefaultPlan(), format: "text", ready: time.Minute, repeat: 1}
	d := sqlite.DefaultOptions()
	o.drivers, o.modes, o.procs, o.gors, o.batches = all.DefaultDriver(), workload.ModeProcess, "25", "1", "1"
	o.journals, o.syncs, o.busys = d.Journal, d.Sync, (time.Duration(d.BusyTimeoutMS) * time.Millisecond).String()
	o.layout, o.mapSize = files.DefaultOptions().Layout, lmdb.DefaultOptions().MapSizeMiB
	return o
}

// AddFlags binds the options to flags.
func (o *mixOptions) AddFlags(fs *pflag.FlagSet) {
	p := &o.plan
	ph := &p.Phases[0]
	list := " (a comma list spans a matrix)"
	fs.StringVar(&o.drivers, "driver", o.drivers, "store driver: "+driverNames()+list)
	fs.StringVar(&o.journals, "journal", o.journals, "SQLite journal mode: rollback (DELETE), truncate, persist, wal, memory, off"+list)
	fs.StringVar(&o.syncs, "sync", o.syncs, "SQLite synchronous level: off, normal, full, extra (always set explicitly)"+list)
	fs.StringVar(&o.busys, "busy-timeout", o.busys, "SQLite busy timeout: how long an op waits for a lock before failing with busy"+list)
	fs.StringVar(&o.modes, "mode", o.modes, "worker mode: process (a real OS process per --procs) or goroutine (all workers in this process)"+list)
	fs.StringVar(&o.procs, "procs", o.procs, "worker processes, each with its own database connection(s)"+list)
	fs.StringVar(&o.gors, "goroutines", o.gors, "workers per process, each with its own connection"+list)
	fs.StringVar(&o.batches, "batch", o.batches, "ops per transaction (1: each op is its own transaction)"+list)
	fs.StringVar(&o.layout, "layout", o.layout, "files engine: flat (one directory) or tree (two levels of at most 100 directories)")
	fs.BoolVar(&o.fsync, "fsync", false, "files engine: fsync every written file before the write returns")
	fs.Int64Var(&o.mapSize, "lmdb-map-size", o.mapSize, "lmdb engine: map size in MiB, the most the database can grow to")
	fs.BoolVar(&o.noSync, "lmdb-nosync", false, "lmdb engine: skip the fsync at each commit (MDB_NOSYNC)")
	fs.Int64Var(&ph.Ops, "queries", ph.Ops, "ops per worker (or use --duration)")
	fs.DurationVar(&o.duration, "duration", 0, "run each worker for this long instead of a number of --queries")
	fs.Var(&ph.Mix, "mix", "op mix in percent, summing to 100: read, upsert, update, delete")
	fs.IntVar(&o.writePct, "write-pct", 0, "shorthand for --mix read=100-N,upsert=N")
	fs.Uint64Var(&p.Keys.Count, "keys", p.Keys.Count, "rows preloaded before the run; ops draw keys from them")
	fs.Var(&p.Keys.Distribution, "dist", "key distribution: uniform or zipfian")
	fs.Float64Var(&p.Keys.Theta, "zipf-theta", p.Keys.Theta, "zipfian skew, between 0 and 1")
	fs.IntVar(&p.ValueSize, "value-size", p.ValueSize, "bytes per written value")
	fs.Uint64Var(&p.Seed, "seed", p.Seed, "base seed of every worker's op lottery")
	fs.StringVar(&p.OnError, "on-error", p.OnError, "after an error other than busy/locked: stop the run, or continue and count it")
	fs.IntVar(&o.repeat, "repeat", o.repeat, "run every cell this many times, interleaved (A B A B …)")
	fs.StringVar(&o.baseline, "baseline", "", "the cell factors are computed against, by values or name=value (default: the first cell)")
	fs.StringArrayVar(&o.expects, "expect", nil, "a gate, such as 'upsert ops/s: wal >= 3x rollback'; exit 3 when it fails (repeatable)")
	fs.StringVar(&o.shard, "shard", "", "run only worker processes p with p mod N = I-1, as shard I/N of a plan spread over machines (merge the results)")
	fs.StringVar(&o.db, "db", "", "database file (default: a new temporary directory per run, removed afterwards); an existing file must be a gobench database")
	fs.BoolVar(&o.keep, "keep", false, "keep the temporary database directories")
	fs.StringVar(&o.jsonOut, "json", "", "also write the full result as JSON to this file (a suite for a matrix or repeats)")
	fs.StringVarP(&o.format, "format", "f", o.format, "report format on stdout: "+strings.Join(report.Formats(), ", "))
	fs.BoolVarP(&o.quiet, "quiet", "q", false, "print only the report (no notes on stderr)")
	fs.DurationVar(&o.ready, "ready-timeout", o.ready, "how long workers may take to open the database and report ready")
}

func newMixCommand(env *Env) *cobra.Command {
	o := defaultMixOptions()
	cmd := &cobra.Command{
		Use:   "mix",
		Short: "Run the seeded read/upsert mix on N worker processes against one database",
		Long: `mix runs the classic embedded-database concurrency test: every worker (a
process, or a goroutine) opens its own connection, waits at a start
barrier, then runs its seeded lottery of ops (95% reads / 5% upserts by
default) against one database. Each op is clocked alone and streamed to
the coordinator, which reports throughput, latency percentiles and errors
by class, per op kind.

Before the run, --keys rows are preloaded (not measured). Writes take the
write lock up front (BEGIN IMMEDIATE). Journal mode, synchronous and busy
timeout are set explicitly on every connection, so drivers compare fairly.

Matrices: --driver, --mode, --procs, --goroutines, --batch, --journal,
--sync and --busy-timeout take comma lists; every combination is a cell.
--repeat runs each cell several times, interleaved, and the report gives
mean ± standard deviation per cell and a factor against the baseline cell,
with a rank test's verdict on significance. --expect gates the run:
  METRIC: A OP FACTOR B      e.g. 'upsert ops/s: wal >= 3x rollback'
where METRIC is an op kind (or total) and one of ops/s, mean, p50, p90,
p99, p99.9, max; A and B select cells by values or name=value; OP is >=,
>, <= or <. Each A cell is compared with the B cell equal to it in every
other setting. A failed gate exits with status 3.`,
		Example: `  # WAL, 25 processes, 2,000 ops each
  gobench mix --procs 25 --queries 2000 --journal wal

  # The rollback journal with synchronous=NORMAL, for 30 seconds per worker
  gobench mix --journal rollback --sync normal --duration 30s

  # 25 workers as goroutines of one process, pure-Go driver, JSON on stdout
  gobench mix --procs 1 --goroutines 25 --driver modernc --format json

  # A skewed, write-heavy mix on a database you keep
  gobench mix --mix read=50,upsert=50 --dist zipfian --db ./bench.db

  # Rollback against WAL, 3 interleaved repeats each, with a gate for CI
  gobench mix --journal rollback,wal --repeat 3 --queries 500 --procs 4 --expect 'upsert ops/s: wal >= 2x rollback'

  # A 2×2 matrix as a markdown table for a pull request
  gobench mix --journal rollback,wal --sync normal,full --repeat 5 --procs 4 --queries 500 --format markdown`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := o.resolve(cmd.Flags()); err != nil {
				return usage(err)
			}
			return runMix(cmd.Context(), o, env)
		},
	}
	o.AddFlags(cmd.Flags())
	return cmd
}

// splitList splits a comma list, refusing empty items and duplicates.
func splitList(flag, s string) ([]string, error) {
	var out []string
	for v := range strings.SplitSeq(s, ",") {
		v = strings.TrimSpace(v)
		if v == "" {
			return nil, fmt.Errorf("--%s %q has an empty item", flag, s)
		}
		for _, seen := range out {
			if seen == v {
				return nil, fmt.Errorf("--%s lists %s twice", flag, v)
			}
		}
		out = append(out, v)
	}
	return out, nil
}

func atoiList(flag string, vals []string) ([]int, error) {
	out := make([]int, len(vals))
	for i, v := range vals {
		n, err := strconv.Atoi(v)
		if err != nil {
			return nil, fmt.Errorf("--%s: %q is not a whole number", flag, v)
		}
		out[i] = n
	}
	return out, nil
}

// resolve folds the shorthand and exclusive flags into the template plan,
// spans the matrix into one plan per cell and validates everything that
// needs no file system, expectations included.
func (o *mixOptions) resolve(fs *pflag.FlagSet) error {
	p := &o.plan
	ph := &p.Phases[0]
	if fs.Changed("write-pct") {
		if fs.Changed("mix") {
			return errors.New("--mix and --write-pct both given (want one of them)")
		}
		m, err := workload.WriteMix(o.writePct)
		if err != nil {
			return fmt.Errorf("--write-pct: %w", err)
		}
		ph.Mix = m
	}
	if fs.Changed("duration") {
		if fs.Changed("queries") {
			return errors.New("--queries and --duration both given (want one of them)")
		}
		ph.Ops = 0
		ph.Duration = workload.Duration(o.duration)
	}
	p.Preload = p.Keys.Count
	p.Store.Path = "(temporary)" // for validation; runMix sets the real path
	var err error
	if o.output, err = report.Lookup(o.format); err != nil {
		return fmt.Errorf("--format: %w", err)
	}
	if o.repeat < 1 {
		return fmt.Errorf("--repeat %d: want 1 or more", o.repeat)
	}
	if o.shard != "" {
		var i, n int
		if _, err := fmt.Sscanf(o.shard, "%d/%d", &i, &n); err != nil || fmt.Sprintf("%d/%d", i, n) != o.shard {
			return fmt.Errorf("--shard %q: want I/N, such as 1/4", o.shard)
		}
		p.Shard = &workload.Shard{Index: i - 1, Count: n}
	}
	if err := o.span(fs); err != nil {
		return err
	}
	if o.keep && o.db != "" {
		return errors.New("--keep applies to the temporary database; a --db file is never removed")
	}
	return o.resolveGates()
}

// span builds one plan per combination of the list flags.
func (o *mixOptions) span(fs *pflag.FlagSet) error {
	lists := map[string][]string{}
	for _, f := range []struct{ name, val string }{
		{"driver", o.drivers}, {"mode", o.modes}, {"procs", o.procs}, {"goroutines", o.gors},
		{"batch", o.batches}, {"journal", o.journals}, {"sync", o.syncs}, {"busy-timeout", o.busys},
	} {
		vals, err := splitList(f.name, f.val)
		if err != nil {
			return err
		}
		lists[f.name] = vals
	}
	procs, err := atoiList("procs", lists["procs"])
	if err != nil {
		return err
	}
	gors, err := atoiList("goroutines", lists["goroutines"])
	if err != nil {
		return err
	}
	batches, err := atoiList("batch", lists["batch"])
	if err != nil {
		return err
	}
	var busys []time.Duration
	for _, v := range lists["busy-timeout"] {
		d, err := time.ParseDuration(v)
		if err != nil {
			return fmt.Errorf("--busy-timeout %q: %w", v, err)
		}
		busys = append(busys, d)
	}
	reg := all.Registry()
	o.cells = nil
	for _, drv := range lists["driver"] {
		d, err := reg.Lookup(drv)
		if err != nil {
			return fmt.Errorf("--driver: %w", err)
		}
		_, isSQLite := d.(*sqlite.Driver)
		engineFlags := map[string][]string{"SQLite drivers": {"journal", "sync", "busy-timeout"}, "files engine": {"layout", "fsync"}, "lmdb engine": {"lmdb-map-size", "lmdb-nosync"}}
		mine := map[string]bool{"SQLite drivers": isSQLite, "files engine": drv == "files", "lmdb engine": drv == "lmdb"}
		for engine, flags := range engineFlags {
			for _, f := range flags {
				if fs.Changed(f) && !mine[engine] {
					return fmt.Errorf("--%s applies to the %s, not to %s", f, engine, drv)
				}
			}
		}
		var engineOpts []byte
		switch drv {
		case "files":
			fo := files.Options{Layout: o.layout, Fsync: o.fsync}
			if err := fo.Validate(); err != nil {
				return fmt.Errorf("--layout: %w", err)
			}
			engineOpts = fo.Encode()
		case "lmdb":
			lo := lmdb.Options{MapSizeMiB: o.mapSize, NoSync: o.noSync}
			if err := lo.Validate(); err != nil {
				return fmt.Errorf("--lmdb-map-size: %w", err)
			}
			engineOpts = lo.Encode()
		}
		for _, mode := range lists["mode"] {
			if mode == workload.ModeGoroutine && fs.Changed("ready-timeout") {
				return errors.New("--ready-timeout applies to worker processes, not to --mode goroutine")
			}
			if mode == workload.ModeProcess && store.IsInProcess(d) {
				return fmt.Errorf("--driver %s keeps its data in one process's memory, which worker processes cannot share: add --mode goroutine", drv)
			}
			for _, np := range procs {
				for _, ng := range gors {
					for _, nb := range batches {
						base := o.plan
						base.Driver, base.Mode, base.Procs, base.Goroutines = drv, mode, np, ng
						base.Phases = append([]workload.Phase(nil), o.plan.Phases...)
						base.Phases[0].Batch = nb
						if !isSQLite {
							base.Store.Options = engineOpts
							o.cells = append(o.cells, &base)
							continue
						}
						for _, j := range lists["journal"] {
							for _, sy := range lists["sync"] {
								for _, bt := range busys {
									cell := base
									opts := sqlite.Options{Journal: j, Sync: sy, BusyTimeoutMS: bt.Milliseconds()}
									if err := opts.Validate(); err != nil {
										return err
									}
									cell.Store.Options = opts.Encode()
									o.cells = append(o.cells, &cell)
								}
							}
						}
					}
				}
			}
		}
	}
	for _, c := range o.cells {
		if err := c.Validate(); err != nil {
			return err
		}
	}
	return nil
}

func (o *mixOptions) runs() int { return len(o.cells) * o.repeat }

// resolveGates parses the expectations and checks them, and the baseline,
// against the cells before anything runs.
func (o *mixOptions) resolveGates() error {
	o.gates = nil
	for _, e := range o.expects {
		g, err := report.ParseExpectation(e)
		if err != nil {
			return err
		}
		o.gates = append(o.gates, g)
	}
	if len(o.cells) < 2 && (len(o.gates) > 0 || o.baseline != "") {
		return errors.New("--expect and --baseline compare cells: give a list to at least one setting, such as --journal rollback,wal")
	}
	if len(o.cells) < 2 {
		return nil
	}
	skel, err := skeleton(o.cells, o.baseline)
	if err != nil {
		return err
	}
	for _, g := range o.gates {
		if err := g.Validate(skel); err != nil {
			return err
		}
	}
	return nil
}

// skeleton is a suite of the cells to run, without results: enough to
// resolve selectors.
func skeleton(cells []*workload.Plan, baseline string) (*result.Suite, error) {
	runs := make([]*result.Result, len(cells))
	for i, p := range cells {
		runs[i] = &result.Result{Plan: *p}
	}
	return result.NewSuite("mix", "interleaved", runs, baseline)
}

// runMix runs every cell --repeat times, interleaved, and reports.
func runMix(ctx context.Context, o *mixOptions, env *Env) error {
	notef := func(format string, args ...any) {
		if !o.quiet {
			fmt.Fprintf(env.Stderr, "gobench: "+format+"\n", args...)
		}
	}
	if o.db != "" {
		if err := checkDBPath(env, o.db); err != nil {
			return err
		}
	}
	var log io.Writer
	if !o.quiet {
		log = prefixWriter{w: env.Stderr, prefix: "gobench: "}
	}
	var runs []*result.Result
	var runErr error
	n := 0
loop:
	for rep := range o.repeat {
		for _, cell := range o.cells {
			n++
			if o.runs() > 1 {
				notef("run %d of %d: %s (repeat %d of %d)", n, o.runs(), result.PlanSettings(cell), rep+1, o.repeat)
			}
			res, err := o.runOne(ctx, env, cell, log, notef)
			if res != nil {
				runs = append(runs, res)
			}
			if err != nil {
				runErr = err
				break loop
			}
		}
	}
	if len(runs) == 0 {
		return runErr
	}
	if o.runs() == 1 {
		return errors.Join(runErr, writeRun(env, o.jsonOut, o.output, runs[0]))
	}
	suite, err := result.NewSuite("mix", "interleaved", runs, o.baseline)
	if err != nil {
		return errors.Join(runErr, err)
	}
	sum := report.Summarize(suite, report.DefaultMetrics(suite))
	if err := writeSuite(env, o.jsonOut, o.output, sum); err != nil {
		return errors.Join(runErr, err)
	}
	if runErr != nil {
		return runErr
	}
	return report.CheckExpectations(sum, o.gates)
}

// runOne runs one cell on a fresh database: a new temporary directory, or
// the --db file initialised anew.
func (o *mixOptions) runOne(ctx context.Context, env *Env, cell *workload.Plan, log io.Writer, notef func(string, ...any)) (*result.Result, error) {
	p := *cell
	if o.db != "" {
		path, err := env.FS.Abs(o.db)
		if err != nil {
			return nil, usage(fmt.Errorf("--db %s: %w", o.db, err))
		}
		p.Store.Path = path
	} else {
		dir, err := env.FS.MkdirTemp("gobench-")
		if err != nil {
			return nil, fmt.Errorf("creating a temporary directory: %w", err)
		}
		p.Store.Path = filepath.Join(dir, "gobench.db")
		defer func() {
			if o.keep {
				notef("kept the database: %s", p.Store.Path)
				return
			}
			if err := env.FS.RemoveAll(dir); err != nil {
				notef("could not remove the temporary directory %s: %v", dir, err)
			}
		}()
	}
	res, err := coord.Run(ctx, coord.Config{Plan: &p, Registry: all.Registry(), ReadyTimeout: o.ready, Log: log})
	if res != nil {
		res.Command = "mix"
		res.Environment.Filesystem = env.FS.Filesystem(filepath.Dir(p.Store.Path))
	}
	return res, err
}

// checkDBPath refuses a --db that is a directory or lies in a directory
// that does not exist.
func checkDBPath(env *Env, db string) error {
	path, err := env.FS.Abs(db)
	if err != nil {
		return usage(fmt.Errorf("--db %s: %w", db, err))
	}
	dir := filepath.Dir(path)
	if fi, err := env.FS.Stat(dir); err != nil || !fi.IsDir() {
		return usage(fmt.Errorf("--db %s: directory %s does not exist", db, dir))
	}
	return nil
}

func driverNames() string { return strings.Join(all.Registry().Names(), ", ") }

// writeRun writes a single run: the JSON file (if asked) and the report.
func writeRun(env *Env, jsonPath string, f report.Format, res *result.Result) error {
	if jsonPath != "" {
		if err := env.FS.WriteAtomic(jsonPath, res.Write); err != nil {
			return fmt.Errorf("writing --json %s: %w", jsonPath, err)
		}
	}
	if err := f.Run(env.Stdout, res); err != nil {
		return fmt.Errorf("writing the report: %w", err)
	}
	return nil
}

// writeSuite writes a suite: the JSON file (if asked) and the report.
func writeSuite(env *Env, jsonPath string, f report.Format, sum *report.Summary) error {
	if jsonPath != "" {
		if err := env.FS.WriteAtomic(jsonPath, sum.Suite.Write); err != nil {
			return fmt.Errorf("writing --json %s: %w", jsonPath, err)
		}
	}
	if f.Suite == nil {
		return fmt.Errorf("format %s cannot show a suite", f.Name)
	}
	if err := f.Suite(env.Stdout, sum); err != nil {
		return fmt.Errorf("writing the report: %w", err)
	}
	return nil
}

// prefixWriter prefixes each write (one line each) with a label.
type prefixWriter struct {
	w      io.Writer
	prefix string
}

func (p prefixWriter) Write(b []byte) (int, error) {
	if _, err := io.WriteString(p.w, p.prefix); err != nil {
		return 0, err
	}
	return p.w.Write(b)
}
