package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

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

// matrixOptions are the settings a run can vary, as comma lists, and the
// engines' own options. Every combination of list values is a cell.
type matrixOptions struct {
	drivers  string
	modes    string
	procs    string
	gors     string
	batches  string
	journals string
	syncs    string
	busys    string
	busy     string // the busy policy: timeout or retry
	ckpts    string // WAL auto-checkpoint thresholds: auto, off or pages
	layout   string
	fsync    bool
	mapSize  int64
	noSync   bool
	// memory asks for each engine's in-memory mode (--storage memory).
	memory bool
}

func defaultMatrixOptions(driver, mode, procs, batch string) matrixOptions {
	d := sqlite.DefaultOptions()
	return matrixOptions{
		drivers: driver, modes: mode, procs: procs, gors: "1", batches: batch,
		journals: d.Journal, syncs: d.Sync, busys: (time.Duration(d.BusyTimeoutMS) * time.Millisecond).String(), busy: workload.BusyTimeout, ckpts: "auto",
		layout: files.DefaultOptions().Layout, mapSize: lmdb.DefaultOptions().MapSizeMiB,
	}
}

// AddFlags binds the options to flags; batchHelp says what --batch groups.
func (o *matrixOptions) AddFlags(fs *pflag.FlagSet, batchHelp string) {
	list := " (a comma list spans a matrix)"
	fs.StringVar(&o.drivers, "driver", o.drivers, "store driver: "+driverNames()+list)
	fs.StringVar(&o.journals, "journal", o.journals, "SQLite journal mode: rollback (DELETE), truncate, persist, wal, memory, off"+list)
	fs.StringVar(&o.syncs, "sync", o.syncs, "SQLite synchronous level: off, normal, full, extra (always set explicitly)"+list)
	fs.StringVar(&o.busys, "busy-timeout", o.busys, "how long an op may wait for a lock before failing with busy"+list)
	fs.StringVar(&o.busy, "busy", o.busy, "who waits for locks: timeout (SQLite's busy handler sleeps inside the op, up to --busy-timeout: waits hide in its latency) or retry (busy_timeout 0; gobench retries busy ops with backoff for up to --busy-timeout and counts every retry and the time waited)")
	fs.StringVar(&o.ckpts, "checkpoint", o.ckpts, "WAL auto-checkpoint: auto (SQLite's default, 1000 pages), off (the WAL only grows), or a threshold in pages"+list)
	fs.StringVar(&o.modes, "mode", o.modes, "worker mode: process (a real OS process per --procs) or goroutine (all workers in this process)"+list)
	fs.StringVar(&o.procs, "procs", o.procs, "worker processes, each with its own database connection(s)"+list)
	fs.StringVar(&o.gors, "goroutines", o.gors, "workers per process, each with its own connection"+list)
	fs.StringVar(&o.batches, "batch", o.batches, batchHelp+list)
	fs.StringVar(&o.layout, "layout", o.layout, "files engine: flat (one directory) or tree (two levels of at most 100 directories)")
	fs.BoolVar(&o.fsync, "fsync", false, "files engine: fsync every written file before the write returns")
	fs.Int64Var(&o.mapSize, "lmdb-map-size", o.mapSize, "lmdb engine: map size in MiB, the most the database can grow to")
	fs.BoolVar(&o.noSync, "lmdb-nosync", false, "lmdb engine: skip the fsync at each commit (MDB_NOSYNC)")
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

// engineFlags names the flags of each engine, and which drivers it has.
var engineFlags = []struct {
	engine  string
	flags   []string
	drivers func(store.Driver) bool
}{
	{"SQLite drivers", []string{"journal", "sync", "busy-timeout"}, func(d store.Driver) bool { _, ok := d.(*sqlite.Driver); return ok }},
	{"files engine", []string{"layout", "fsync"}, func(d store.Driver) bool { return d.Name() == "files" }},
	{"lmdb engine", []string{"lmdb-map-size", "lmdb-nosync"}, func(d store.Driver) bool { return d.Name() == "lmdb" }},
}

// checkEngineFlags refuses an engine's flag when no listed driver is of
// that engine.
func checkEngineFlags(fs *pflag.FlagSet, drivers []store.Driver) error {
	for _, e := range engineFlags {
		for _, f := range e.flags {
			if !fs.Changed(f) {
				continue
			}
			used := false
			for _, d := range drivers {
				used = used || e.drivers(d)
			}
			if !used {
				names := make([]string, len(drivers))
				for i, d := range drivers {
					names[i] = d.Name()
				}
				return fmt.Errorf("--%s applies to the %s, not to %s", f, e.engine, strings.Join(names, ", "))
			}
		}
	}
	return nil
}

// engineOptions encodes the options of driver drv.
func (o *matrixOptions) engineOptions(drv string) (json []byte, err error) {
	switch drv {
	case "files":
		fo := files.Options{Layout: o.layout, Fsync: o.fsync}
		if err := fo.Validate(); err != nil {
			return nil, fmt.Errorf("--layout: %w", err)
		}
		return fo.Encode(), nil
	case "lmdb":
		lo := lmdb.Options{MapSizeMiB: o.mapSize, NoSync: o.noSync}
		if err := lo.Validate(); err != nil {
			return nil, fmt.Errorf("--lmdb-map-size: %w", err)
		}
		return lo.Encode(), nil
	}
	return nil, nil
}

// span returns one plan per combination of the list flags, each a copy of
// template with the combination applied; setBatch applies a --batch value.
// Every plan is validated.
func (o *matrixOptions) span(fs *pflag.FlagSet, template *workload.Plan, setBatch func(*workload.Plan, int)) ([]*workload.Plan, error) {
	lists := map[string][]string{}
	for _, f := range []struct{ name, val string }{
		{"driver", o.drivers}, {"mode", o.modes}, {"procs", o.procs}, {"goroutines", o.gors},
		{"batch", o.batches}, {"journal", o.journals}, {"sync", o.syncs}, {"busy-timeout", o.busys}, {"checkpoint", o.ckpts},
	} {
		vals, err := splitList(f.name, f.val)
		if err != nil {
			return nil, err
		}
		lists[f.name] = vals
	}
	// Bound the matrix before building it: a typo in a list must not
	// build millions of plans.
	cells := 1
	for _, l := range lists {
		if cells *= len(l); cells > maxCells {
			return nil, fmt.Errorf("the lists span more than %d cells: split the matrix", maxCells)
		}
	}
	procs, err := atoiList("procs", lists["procs"])
	if err != nil {
		return nil, err
	}
	gors, err := atoiList("goroutines", lists["goroutines"])
	if err != nil {
		return nil, err
	}
	batches, err := atoiList("batch", lists["batch"])
	if err != nil {
		return nil, err
	}
	var busys []time.Duration
	for _, v := range lists["busy-timeout"] {
		d, err := time.ParseDuration(v)
		if err != nil {
			return nil, fmt.Errorf("--busy-timeout %q: %w", v, err)
		}
		busys = append(busys, d)
	}
	ckpts := []string{""} // the pragma left alone
	if fs.Changed("checkpoint") {
		if !slices.Contains(lists["journal"], "wal") {
			return nil, errors.New("--checkpoint applies to --journal wal")
		}
		ckpts = lists["checkpoint"]
	}
	if o.busy != workload.BusyTimeout && o.busy != workload.BusyRetry {
		return nil, fmt.Errorf("--busy %q: want timeout or retry", o.busy)
	}
	if o.busy == workload.BusyRetry && slices.Contains(busys, 0) {
		return nil, errors.New("--busy retry retries for up to --busy-timeout: give it a positive duration")
	}
	reg := all.Registry()
	var drivers []store.Driver
	for _, drv := range lists["driver"] {
		d, err := reg.Lookup(drv)
		if err != nil {
			return nil, fmt.Errorf("--driver: %w", err)
		}
		drivers = append(drivers, d)
	}
	if err := checkEngineFlags(fs, drivers); err != nil {
		return nil, err
	}
	if o.memory && !fs.Changed("journal") {
		lists["journal"] = []string{"memory"} // an in-memory database keeps its journal in memory
	}
	var plans []*workload.Plan
	for _, d := range drivers {
		drv := d.Name()
		_, isSQLite := d.(*sqlite.Driver)
		if o.memory && (drv == "lmdb" || drv == "files") {
			return nil, fmt.Errorf("--storage memory: the %s engine has no in-memory mode (drop it, or use --storage disk or ramdisk)", drv)
		}
		engineOpts, err := o.engineOptions(drv)
		if err != nil {
			return nil, err
		}
		for _, mode := range lists["mode"] {
			if mode == workload.ModeGoroutine && fs.Changed("ready-timeout") {
				return nil, errors.New("--ready-timeout applies to worker processes, not to --mode goroutine")
			}
			if mode == workload.ModeProcess && o.memory {
				return nil, errors.New("--storage memory keeps each database in one process's memory: use --mode goroutine")
			}
			if mode == workload.ModeProcess && store.IsInProcess(d) {
				return nil, fmt.Errorf("--driver %s keeps its data in one process's memory, which worker processes cannot share: add --mode goroutine", drv)
			}
			for _, np := range procs {
				for _, ng := range gors {
					for _, nb := range batches {
						base := *template
						base.Driver, base.Mode, base.Procs, base.Goroutines = drv, mode, np, ng
						base.Phases = append([]workload.Phase(nil), template.Phases...)
						setBatch(&base, nb)
						if !isSQLite {
							base.Store.Options = engineOpts
							if o.busy == workload.BusyRetry {
								base.Busy, base.BusyBudget = workload.BusyRetry, workload.Duration(busys[0])
							}
							plans = append(plans, &base)
							continue
						}
						for _, j := range lists["journal"] {
							for _, sy := range lists["sync"] {
								for _, bt := range busys {
									cks := ckpts
									if j != "wal" {
										cks = []string{""} // checkpoints are WAL's: the other journals run once
									}
									for _, ck := range cks {
										cell := base
										opts := sqlite.Options{Journal: j, Sync: sy, BusyTimeoutMS: bt.Milliseconds(), Memory: o.memory, Checkpoint: ck}
										if o.busy == workload.BusyRetry {
											// SQLite fails at once; the worker retries and counts.
											opts.BusyTimeoutMS = 0
											cell.Busy, cell.BusyBudget = workload.BusyRetry, workload.Duration(bt)
										}
										if err := opts.Validate(); err != nil {
											return nil, err
										}
										cell.Store.Options = opts.Encode()
										plans = append(plans, &cell)
									}
								}
							}
						}
					}
				}
			}
		}
	}
	for _, c := range plans {
		if err := c.Validate(); err != nil {
			return nil, err
		}
	}
	return plans, nil
}

// maxCells bounds a matrix's cells; --max-runs bounds what runs.
const maxCells = 1_000_000

func driverNames() string { return strings.Join(all.Registry().Names(), ", ") }

// runOptions say how cells run and where their output goes.
type runOptions struct {
	repeat   int
	db       string
	dir      string // parent of the temporary database directories ("" = the OS's)
	keep     bool
	jsonOut  string
	format   string
	quiet    bool
	ready    time.Duration
	stall    time.Duration
	reuse    bool
	progress time.Duration // < 0: automatic
	hlog     string
	html     string
	ceiling  bool // measure the disk's fsync rate first (mix --ceiling)
	output   report.Format
	maxRuns  int
}

// AddFlags binds the options to flags.
func (o *runOptions) AddFlags(fs *pflag.FlagSet, withDB bool) {
	fs.IntVar(&o.repeat, "repeat", o.repeat, "run every cell this many times, interleaved (A B A B …)")
	fs.IntVar(&o.maxRuns, "max-runs", 10_000, "refuse a matrix of more runs (cells × --repeat) than this")
	if withDB {
		fs.StringVar(&o.db, "db", "", "database file (default: a new temporary directory per run, removed afterwards); an existing file must be a gobench database")
		fs.BoolVar(&o.reuse, "reuse", false, "let --db be an existing SQLite database gobench did not create (or an empty file): gobench sets its application_id there and replaces any table named kv, and puts its journal mode back after the run; nothing else changes")
	}
	fs.BoolVar(&o.keep, "keep", false, "keep the temporary database directories")
	fs.StringVar(&o.jsonOut, "json", "", "also write the full result as JSON to this file (a suite for a matrix or repeats)")
	fs.StringVarP(&o.format, "format", "f", o.format, "report format on stdout: "+strings.Join(report.Formats(), ", "))
	fs.StringVar(&o.html, "html", "", "also write a self-contained HTML report with charts to this file")
	fs.BoolVarP(&o.quiet, "quiet", "q", false, "print only the report (no notes on stderr)")
	fs.DurationVar(&o.ready, "ready-timeout", o.ready, "how long workers may take to open the database and report ready")
	fs.DurationVar(&o.stall, "stall-timeout", time.Minute, "fail a run whose worker completes nothing for this long while it runs (keep it above --busy-timeout)")
	fs.DurationVar(&o.progress, "progress", -1, "print progress on stderr at this interval (default: 1s on a terminal, 10s otherwise; 0: never)")
	fs.StringVar(&o.hlog, "hlog", "", "write per-second latency histograms per op kind to this file, in the HdrHistogram interval log format (one run only)")
}

// resolve checks the options that need no file system.
func (o *runOptions) resolve() error {
	var err error
	if o.output, err = report.Lookup(o.format); err != nil {
		return fmt.Errorf("--format: %w", err)
	}
	if o.repeat < 1 {
		return fmt.Errorf("--repeat %d: want 1 or more", o.repeat)
	}
	if o.ready < time.Millisecond || o.stall < time.Millisecond {
		return errors.New("--ready-timeout and --stall-timeout must be positive durations of at least 1ms")
	}
	if o.keep && o.db != "" {
		return errors.New("--keep applies to the temporary database; a --db file is never removed")
	}
	if o.reuse && o.db == "" {
		return errors.New("--reuse applies to an existing --db file")
	}
	if o.progress < -1 {
		return errors.New("--progress must not be negative")
	}
	return nil
}

// notef prints a note on stderr unless --quiet.
func (o *runOptions) notef(env *Env, format string, args ...any) {
	if !o.quiet {
		fmt.Fprintf(env.Stderr, "gobench: "+format+"\n", args...)
	}
}

// runCells runs every cell --repeat times, interleaved, each on a fresh
// database, and returns the runs that produced a result, in order. It
// stops at the first failed run (returning its error with what ran).
func (o *runOptions) runCells(ctx context.Context, env *Env, command string, cells []*workload.Plan) ([]*result.Result, error) {
	if o.db != "" {
		if err := checkDBPath(env, o.db); err != nil {
			return nil, err
		}
	}
	if o.jsonOut != "" {
		if err := checkOutput(env, "--json", o.jsonOut); err != nil {
			return nil, err
		}
	}
	if o.html != "" {
		if err := checkOutput(env, "--html", o.html); err != nil {
			return nil, err
		}
	}
	if runs := len(cells) * o.repeat; runs > o.maxRuns {
		return nil, usage(fmt.Errorf("%d cells × %d repeats make %d runs, more than --max-runs %d: check the lists, or raise --max-runs", len(cells), o.repeat, runs, o.maxRuns))
	}
	if o.hlog != "" {
		if len(cells)*o.repeat > 1 {
			return nil, usage(errors.New("--hlog records one run: give single values (no lists) and --repeat 1"))
		}
		if err := checkOutput(env, "--hlog", o.hlog); err != nil {
			return nil, err
		}
	}
	var ceiling *result.Ceiling
	if o.ceiling {
		var err error
		if ceiling, err = o.measureCeiling(ctx, env); err != nil {
			return nil, err
		}
	}
	var log io.Writer
	if !o.quiet {
		log = prefixWriter{w: env.Stderr, prefix: "gobench: "}
	}
	total := len(cells) * o.repeat
	var runs []*result.Result
	n := 0
	for rep := range o.repeat {
		for _, cell := range cells {
			n++
			if total > 1 {
				o.notef(env, "run %d of %d: %s (repeat %d of %d)", n, total, result.PlanSettings(cell), rep+1, o.repeat)
			}
			label := ""
			if total > 1 {
				label = fmt.Sprintf("run %d of %d", n, total)
			}
			res, err := o.runOne(ctx, env, command, cell, log, label)
			if res != nil {
				res.Environment.Ceiling = ceiling
				runs = append(runs, res)
			}
			if err != nil {
				return runs, err
			}
		}
	}
	return runs, nil
}

// runOne runs one cell on a fresh database: a new temporary directory, or
// the --db file initialised anew.
func (o *runOptions) runOne(ctx context.Context, env *Env, command string, cell *workload.Plan, log io.Writer, label string) (res *result.Result, err error) {
	p := *cell
	if o.db != "" {
		path, err := env.FS.Abs(o.db)
		if err != nil {
			return nil, usage(fmt.Errorf("--db %s: %w", o.db, err))
		}
		p.Store.Path = path
		p.Store.Reuse = o.reuse
	} else {
		dir, err := env.FS.MkdirTemp(o.dir, "gobench-")
		if err != nil {
			return nil, fmt.Errorf("creating a temporary directory: %w", err)
		}
		p.Store.Path = filepath.Join(dir, "gobench.db")
		defer func() {
			if o.keep {
				o.notef(env, "kept the database: %s", p.Store.Path)
				return
			}
			if err := env.FS.RemoveAll(dir); err != nil {
				o.notef(env, "could not remove the temporary directory %s: %v", dir, err)
			}
		}()
	}
	every := o.progress
	if every < 0 {
		every = 10 * time.Second
		if env.StderrIsTerminal {
			every = time.Second
		}
	}
	if o.quiet {
		every = 0
	}
	var hlog OutputFile
	if o.hlog != "" {
		if hlog, err = env.FS.CreateOutput(o.hlog); err != nil {
			return nil, fmt.Errorf("--hlog %s: %w", o.hlog, err)
		}
	}
	var hw io.Writer
	if hlog != nil {
		hw = hlog
	}
	watch := newWatcher(env.Stderr, env.StderrIsTerminal, every, label, &p, hw, time.Now())
	res, err = coord.Run(ctx, coord.Config{Plan: &p, Registry: all.Registry(), ReadyTimeout: o.ready, StallTimeout: o.stall, Abort: env.Abort, Log: log, Observe: watch.observe, ProgressEvery: every})
	werr := watch.close()
	if hlog != nil {
		if werr != nil || res == nil {
			hlog.Abort()
		} else if cerr := hlog.Commit(); cerr != nil {
			werr = fmt.Errorf("--hlog %s: %w", o.hlog, cerr)
		}
	}
	if werr != nil && err == nil {
		err = werr
	}
	if res != nil {
		res.Command = command
		res.Environment.Filesystem = "none (in memory)"
		if _, err := env.FS.Stat(p.Store.Path); err == nil {
			res.Environment.Filesystem = env.FS.Filesystem(filepath.Dir(p.Store.Path))
			res.Environment.MountOptions = env.FS.MountOptions(filepath.Dir(p.Store.Path))
		}
	}
	return res, err
}

// checkDBPath refuses a --db in a directory that does not exist or that
// gobench cannot write to.
func checkDBPath(env *Env, db string) error {
	return checkParent(env, "--db", db)
}

// checkOutput refuses, naming the flag, an output path that cannot be
// written: a directory, a socket, or a file (a symlink's target) whose
// directory does not exist or is not writable. A device or a FIFO is
// written through, so its directory is not checked.
func checkOutput(env *Env, flag, p string) error {
	target, through, err := env.FS.OutputTarget(p)
	if err != nil {
		return usage(fmt.Errorf("%s %s: %w", flag, p, err))
	}
	if through {
		return nil
	}
	return checkParent(env, flag, target)
}

// checkParent refuses a path whose directory does not exist or is not
// writable, naming the flag.
func checkParent(env *Env, flag, p string) error {
	path, err := env.FS.Abs(p)
	if err != nil {
		return usage(fmt.Errorf("%s %s: %w", flag, p, err))
	}
	dir := filepath.Dir(path)
	if fi, err := env.FS.Stat(dir); err != nil || !fi.IsDir() {
		return usage(fmt.Errorf("%s %s: directory %s does not exist", flag, p, dir))
	}
	if err := env.FS.Writable(dir); err != nil {
		return usage(fmt.Errorf("%s %s: cannot write in %s (%v)", flag, p, dir, err))
	}
	return nil
}

// writeOutput writes the JSON file and the HTML report (if asked)
// atomically, then the report on stdout.
func (o *runOptions) writeOutput(env *Env, s *result.Suite, writeJSON func(io.Writer) error, render func(io.Writer) error) error {
	if o.jsonOut != "" {
		if err := env.FS.WriteOutput(o.jsonOut, writeJSON); err != nil {
			return fmt.Errorf("writing --json %s: %w", o.jsonOut, err)
		}
	}
	if o.html != "" {
		html, _ := report.Lookup("html")
		if err := env.FS.WriteOutput(o.html, renderer(html, s)); err != nil {
			return fmt.Errorf("writing --html %s: %w", o.html, err)
		}
	}
	if err := render(env.Stdout); err != nil {
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
