package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/gobench/gobench/internal/coord"
	"github.com/gobench/gobench/pkg/report"
	"github.com/gobench/gobench/pkg/result"
	"github.com/gobench/gobench/pkg/store/all"
	"github.com/gobench/gobench/pkg/store/sqlite"
	"github.com/gobench/gobench/pkg/workload"
)

// mixOptions are the flags of gobench mix.
type mixOptions struct {
	plan     workload.Plan
	sqlite   sqlite.Options
	busy     time.Duration
	writePct int
	duration time.Duration
	db       string
	keep     bool
	jsonOut  string
	format   string
	quiet    bool
	ready    time.Duration
}

func defaultMixOptions() *mixOptions {
	o := &mixOptions{plan: workload.DefaultPlan(), sqlite: sqlite.DefaultOptions(), format: "text", ready: time.Minute}
	o.plan.Driver = all.DefaultDriver()
	o.plan.Procs = 25
	o.busy = time.Duration(o.sqlite.BusyTimeoutMS) * time.Millisecond
	return o
}

// AddFlags binds the options to flags.
func (o *mixOptions) AddFlags(fs *pflag.FlagSet) {
	p := &o.plan
	ph := &p.Phases[0]
	fs.StringVar(&p.Driver, "driver", p.Driver, "store driver: "+driverNames())
	fs.StringVar(&o.sqlite.Journal, "journal", o.sqlite.Journal, "SQLite journal mode: rollback (DELETE), truncate, persist, wal, memory, off")
	fs.StringVar(&o.sqlite.Sync, "sync", o.sqlite.Sync, "SQLite synchronous level: off, normal, full, extra (always set explicitly)")
	fs.DurationVar(&o.busy, "busy-timeout", o.busy, "SQLite busy timeout: how long an op waits for a lock before failing with busy")
	fs.StringVar(&p.Mode, "mode", p.Mode, "worker mode: process (a real OS process per --procs) or goroutine (all workers in this process)")
	fs.IntVar(&p.Procs, "procs", p.Procs, "worker processes, each with its own database connection(s)")
	fs.IntVar(&p.Goroutines, "goroutines", p.Goroutines, "workers per process, each with its own connection")
	fs.Int64Var(&ph.Ops, "queries", ph.Ops, "ops per worker (or use --duration)")
	fs.DurationVar(&o.duration, "duration", 0, "run each worker for this long instead of a number of --queries")
	fs.Var(&ph.Mix, "mix", "op mix in percent, summing to 100: read, upsert, update, delete")
	fs.IntVar(&o.writePct, "write-pct", 0, "shorthand for --mix read=100-N,upsert=N")
	fs.IntVar(&ph.Batch, "batch", ph.Batch, "ops per transaction (1: each op is its own transaction)")
	fs.Uint64Var(&p.Keys.Count, "keys", p.Keys.Count, "rows preloaded before the run; ops draw keys from them")
	fs.Var(&p.Keys.Distribution, "dist", "key distribution: uniform or zipfian")
	fs.Float64Var(&p.Keys.Theta, "zipf-theta", p.Keys.Theta, "zipfian skew, between 0 and 1")
	fs.IntVar(&p.ValueSize, "value-size", p.ValueSize, "bytes per written value")
	fs.Uint64Var(&p.Seed, "seed", p.Seed, "base seed of every worker's op lottery")
	fs.StringVar(&p.OnError, "on-error", p.OnError, "after an error other than busy/locked: stop the run, or continue and count it")
	fs.StringVar(&o.db, "db", "", "database file (default: a new temporary directory, removed afterwards); an existing file must be a gobench database")
	fs.BoolVar(&o.keep, "keep", false, "keep the temporary database directory")
	fs.StringVar(&o.jsonOut, "json", "", "also write the full result as JSON to this file")
	fs.StringVarP(&o.format, "format", "f", o.format, "report format on stdout: "+formatNames())
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
timeout are set explicitly on every connection, so drivers compare fairly.`,
		Example: `  # WAL, 25 processes, 2,000 ops each
  gobench mix --procs 25 --queries 2000 --journal wal

  # The rollback journal with synchronous=NORMAL, for 30 seconds per worker
  gobench mix --journal rollback --sync normal --duration 30s

  # 25 workers as goroutines of one process, pure-Go driver, JSON on stdout
  gobench mix --procs 1 --goroutines 25 --driver modernc --format json

  # A skewed, write-heavy mix on a database you keep
  gobench mix --mix read=50,upsert=50 --dist zipfian --db ./bench.db`,
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

// resolve folds the shorthand and exclusive flags into the plan and
// validates everything that needs no file system.
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
	if _, err := report.Lookup(o.format); err != nil {
		return fmt.Errorf("--format: %w", err)
	}
	drv, err := all.Registry().Lookup(p.Driver)
	if err != nil {
		return fmt.Errorf("--driver: %w", err)
	}
	if _, isSQLite := drv.(*sqlite.Driver); isSQLite {
		o.sqlite.BusyTimeoutMS = o.busy.Milliseconds()
		if err := o.sqlite.Validate(); err != nil {
			return err
		}
		p.Store.Options = o.sqlite.Encode()
	} else {
		for _, f := range []string{"journal", "sync", "busy-timeout"} {
			if fs.Changed(f) {
				return fmt.Errorf("--%s applies to the SQLite drivers, not to %s", f, p.Driver)
			}
		}
	}
	if p.Mode == workload.ModeGoroutine && fs.Changed("ready-timeout") {
		return errors.New("--ready-timeout applies to worker processes, not to --mode goroutine")
	}
	p.Store.Path = "(temporary)" // for validation; set for real in runMix
	return p.Validate()
}

func driverNames() string {
	names := all.Registry().Names()
	s := ""
	for i, n := range names {
		if i > 0 {
			s += ", "
		}
		s += n
	}
	return s
}

func formatNames() string {
	s := ""
	for i, n := range report.Formats() {
		if i > 0 {
			s += ", "
		}
		s += n
	}
	return s
}

// runMix prepares the database path, runs the plan and reports.
func runMix(ctx context.Context, o *mixOptions, env *Env) (err error) {
	notef := func(format string, args ...any) {
		if !o.quiet {
			fmt.Fprintf(env.Stderr, "gobench: "+format+"\n", args...)
		}
	}
	path, cleanup, err := o.databasePath(env, notef)
	if err != nil {
		return err
	}
	defer cleanup()
	o.plan.Store.Path = path

	var log io.Writer
	if !o.quiet {
		log = prefixWriter{w: env.Stderr, prefix: "gobench: "}
	}
	res, runErr := coord.Run(ctx, coord.Config{
		Plan:         &o.plan,
		Registry:     all.Registry(),
		ReadyTimeout: o.ready,
		Log:          log,
	})
	if res == nil {
		return runErr
	}
	res.Command = "mix"
	res.Environment.Filesystem = env.FS.Filesystem(filepath.Dir(path))
	if err := writeResult(env, o.jsonOut, o.format, res); err != nil {
		return errors.Join(runErr, err)
	}
	return runErr
}

// writeResult writes the JSON file (if asked) and the report on stdout.
func writeResult(env *Env, jsonPath, format string, res *result.Result) error {
	if jsonPath != "" {
		if err := env.FS.WriteAtomic(jsonPath, res.Write); err != nil {
			return fmt.Errorf("writing --json %s: %w", jsonPath, err)
		}
	}
	render, err := report.Lookup(format)
	if err != nil {
		return err
	}
	if err := render(env.Stdout, res); err != nil {
		return fmt.Errorf("writing the report: %w", err)
	}
	return nil
}

// databasePath returns the database file to use and a cleanup that
// removes what gobench created (a temporary directory) and nothing else.
func (o *mixOptions) databasePath(env *Env, notef func(string, ...any)) (string, func(), error) {
	if o.db == "" {
		dir, err := env.FS.MkdirTemp("gobench-")
		if err != nil {
			return "", nil, fmt.Errorf("creating a temporary directory: %w", err)
		}
		path := filepath.Join(dir, "gobench.db")
		cleanup := func() {
			if o.keep {
				notef("kept the database: %s", path)
				return
			}
			if err := env.FS.RemoveAll(dir); err != nil {
				notef("could not remove the temporary directory %s: %v", dir, err)
			}
		}
		return path, cleanup, nil
	}
	path, err := env.FS.Abs(o.db)
	if err != nil {
		return "", nil, usage(fmt.Errorf("--db %s: %w", o.db, err))
	}
	if fi, err := env.FS.Stat(path); err == nil && fi.IsDir() {
		return "", nil, usage(fmt.Errorf("--db %s is a directory; give a database file path", o.db))
	}
	dir := filepath.Dir(path)
	if fi, err := env.FS.Stat(dir); err != nil || !fi.IsDir() {
		return "", nil, usage(fmt.Errorf("--db %s: directory %s does not exist", o.db, dir))
	}
	if o.keep {
		return "", nil, usage(errors.New("--keep applies to the temporary database; a --db file is never removed"))
	}
	return path, func() {}, nil
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
