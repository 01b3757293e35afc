package cli

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/spf13/pflag"

	"github.com/gobench/gobench/internal/coord"
	"github.com/gobench/gobench/pkg/job"
	"github.com/gobench/gobench/pkg/judge"
	"github.com/gobench/gobench/pkg/report"
	"github.com/gobench/gobench/pkg/result"
	"github.com/gobench/gobench/pkg/workload"
)

// runOptions say how cells run and where their output goes.
type runOptions struct {
	repeat   int
	db       string
	dir      string // parent of the temporary database directories ("" = the OS's)
	dirFrom  string // the flag that set dir, for errors: "--dir" unless another did
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
	summary  string // markdown appended for a CI job summary
	force    bool   // outputs may replace files gobench did not write
	ceiling  bool   // measure the disk's fsync rate first (mix --ceiling)
	maxRuns  int
	dryRun   bool // print the plan file, run nothing
	si       bool // sizes and rates in powers of 1000 (blob, run)
	// stats are the latency statistics a run's table lists (--stats).
	stats []string
	// calibrate measures the machine around every run (coord.Config).
	calibrate bool
	// inconclusive is what a gate the data cannot decide counts as.
	inconclusive string
	// precision repeats until each gated figure is this precise (a
	// fraction; 0: --repeat runs); maxRepeats and maxTime bound it.
	// precisionGiven says --precision was given, 0% (off) included.
	precision      float64
	precisionGiven bool
	maxRepeats     int
	maxTime        time.Duration
}

// AddFlags binds the options to flags.
func (o *runOptions) AddFlags(fs *pflag.FlagSet, withDB bool) {
	inGroup(fs, groupCI, func() {
		fs.IntVar(&o.repeat, "repeat", o.repeat, "run every cell this many times, interleaved (A B A B …)")
		fs.Var(shareValue{&o.precision, &o.precisionGiven}, "precision", "instead of --repeat: repeat the cells, interleaved, until the interval of the median (90% or more: 93.8% for 5 repeats, as the report labels it) of every gated figure (total ops/s without --expect) of every cell is within ± this share of it, such as 5%; at least 5 repeats, at most --max-repeats; 0% is off (--max-repeats and --max-time then bound nothing)")
		o.maxRepeats = 30
		fs.IntVar(&o.maxRepeats, "max-repeats", o.maxRepeats, "with --precision: stop after this many repeats, precise or not")
		fs.DurationVar(&o.maxTime, "max-time", 0, "with --precision: start no new round of repeats after this long (0: no limit)")
		o.maxRuns = 10_000
		fs.Var(newCount(&o.maxRuns), "max-runs", "refuse a matrix of more runs (cells × --repeat) than this")
		fs.StringVar(&o.inconclusive, "inconclusive", string(judge.InconclusiveFails), "what an --expect the data cannot decide counts as: fail (exit 4) or pass; either way its verdict says why and what would decide it")
		fs.BoolVar(&o.dryRun, "dry-run", false, "print the resolved plan (every cell) as a JSON plan file on stdout and run nothing; 'gobench run FILE' runs it")
	})
	inGroup(fs, groupEngine, func() {
		if withDB {
			fs.StringVar(&o.db, "db", "", "database file (default: a new temporary directory per run, removed afterwards); an existing file must be a gobench database")
			fs.BoolVar(&o.reuse, "reuse", false, "let --db be an existing SQLite database gobench did not create (or an empty file): gobench sets its application_id there, creates its own tables (kv, a record table, a built-in schema's) or replaces those it created before, and puts its application_id and journal mode back after the run; a table of one of those names that gobench did not create is refused (exit 2), and nothing else changes")
		}
		fs.BoolVar(&o.keep, "keep", false, "keep the temporary database directories")
	})
	inGroup(fs, groupOutput, func() {
		fs.StringVar(&o.jsonOut, "json", "", "also write the full result as JSON to this file (a suite for a matrix or repeats)")
		fs.StringVarP(&o.format, "format", "f", o.format, formatUsage("report format on stdout", ""))
		fs.StringVar(&o.html, "html", "", "also write a self-contained HTML report with charts to this file")
		fs.Var(statsValue{&o.stats}, "stats", statsUsage())
		fs.StringVar(&o.summary, "summary", "", "also append a markdown summary (the table and every gate's verdict) to this file, such as $GITHUB_STEP_SUMMARY")
		fs.BoolVar(&o.force, "force", false, "let --json, --html, --hlog and --summary write over a file gobench did not write (another program's data, a SQLite database)")
		fs.BoolVarP(&o.quiet, "quiet", "q", false, "print only the report (no notes on stderr)")
		o.progress = -1
		fs.Var(progressValue{&o.progress}, "progress", "print progress on stderr at this interval (auto: 1s on a terminal, 10s otherwise; 0: never)")
		fs.BoolVar(&o.calibrate, "calibrate", true, "measure the machine just before and just after each run (load, runnable threads, steal, and a CPU loop and an fsync probe of about 0.2 s), recorded in the result")
		fs.StringVar(&o.hlog, "hlog", "", "write per-second latency histograms per op kind to this file, in the HdrHistogram interval log format (one run only)")
	})
	inGroup(fs, groupWorkers, func() {
		fs.DurationVar(&o.ready, "ready-timeout", o.ready, "how long workers may take to open the database and report ready")
		fs.DurationVar(&o.stall, "stall-timeout", time.Minute, "fail a run whose worker completes nothing for this long while it runs (keep it above --busy-timeout)")
	})
}

// resolve checks the options that need no file system.
func (o *runOptions) resolve() error {
	var err error
	if err = report.CheckFormat(o.format); err != nil {
		return fmt.Errorf("--format: %w", err)
	}
	if o.repeat < 1 {
		return fmt.Errorf("--repeat %d: want 1 or more", o.repeat)
	}
	if err := o.resolvePrecision(); err != nil {
		return err
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
	if _, err := judge.ParseInconclusive(o.inconclusive); err != nil {
		return err
	}
	if o.progress < -1 {
		return errors.New("--progress must not be negative")
	}
	return nil
}

// resolvePrecision checks --precision and its bounds; with it, --repeat
// becomes the most repeats, --max-repeats.
func (o *runOptions) resolvePrecision() error {
	if o.precision == 0 {
		// --precision 0% is off, as by default: the bounds a template
		// passes beside it bound nothing, and are not asked about.
		if !o.precisionGiven && (o.maxTime != 0 || o.maxRepeats != 30) {
			return errors.New("--max-repeats and --max-time bound --precision: give it too")
		}
		return nil
	}
	switch {
	case o.repeat != 1:
		return errors.New("--precision decides the repeats: give --max-repeats, not --repeat")
	case o.precision <= 0 || o.precision >= 1:
		return fmt.Errorf("--precision %v%%: want a share above 0%% and below 100%%", 100*o.precision)
	case o.maxRepeats < judge.MinMedianRepeats:
		return fmt.Errorf("--max-repeats %d: an interval of the median needs %d runs a cell", o.maxRepeats, judge.MinMedianRepeats)
	case o.maxTime < 0:
		return errors.New("--max-time must not be negative")
	}
	o.repeat = o.maxRepeats
	return nil
}

// notef prints a note on stderr unless --quiet.
func (o *runOptions) notef(env *Env, format string, args ...any) {
	if !o.quiet {
		fmt.Fprintf(env.Stderr, "gobench: "+format+"\n", args...)
	}
}

// runCells checks the paths the runs will write, then runs every cell of
// the job --repeat times, interleaved, each on a fresh database
// (coord.RunCells), with a progress line and the --hlog file per run.
func (o *runOptions) runCells(ctx context.Context, env *Env, j *job.Job, gates []judge.Expectation) ([]*result.Result, error) {
	runs := len(j.Cells) * o.repeat
	if slots := j.Slots(); slots != nil {
		runs = len(slots)
	}
	c, err := o.coordCells(env, j, runs)
	if err != nil {
		return nil, err
	}
	c.Slots = j.Slots()
	if j.Precision != nil {
		rule := j.Rule(gates)
		c.MaxTime = time.Duration(j.Precision.MaxTime)
		c.Until = func(runs []*result.Result, rounds int) bool {
			if rounds < judge.MinMedianRepeats {
				return false
			}
			s, err := j.NewSuite(runs)
			return err == nil && rule.Done(rule.Of(s))
		}
	}
	return coord.RunCells(ctx, c)
}

// coordCells checks the paths the runs will write (runs of them) and
// says how the cells run: where, with which time-outs, notes and
// progress.
func (o *runOptions) coordCells(env *Env, j *job.Job, runs int) (coord.Cells, error) {
	if err := o.checkPaths(env, runs); err != nil {
		return coord.Cells{}, err
	}
	db := ""
	if o.db != "" {
		var err error
		if db, err = env.FS.Abs(o.db); err != nil {
			return coord.Cells{}, usage(fmt.Errorf("--db %s: %w", o.db, err))
		}
	}
	var log io.Writer
	if !o.quiet {
		log = prefixWriter{w: env.Stderr, prefix: "gobench: "}
	}
	every := o.progressEvery(env)
	return coord.Cells{
		Plans: j.Cells, Repeat: o.repeat, Command: j.Command, Shape: j.Shape, Args: env.Args,
		DB: db, Reuse: o.reuse, Dir: o.dir, Keep: o.keep, Ceiling: o.ceiling,
		Base: coord.Config{Registry: env.registry(), ReadyTimeout: o.ready, StallTimeout: o.stall,
			Abort: env.Abort, Notes: log, ProgressEvery: every, Calibrate: o.calibrate},
		Watch: o.watch(env, every, len(j.Cells), j.Slots()),
		Note:  func(format string, args ...any) { o.notef(env, format, args...) },
	}, nil
}

// checkPaths refuses, before anything runs, what the runs could not
// write, and a matrix of more runs than --max-runs.
func (o *runOptions) checkPaths(env *Env, runs int) error {
	if runs > o.maxRuns {
		return usage(fmt.Errorf("%d runs (cells × --repeat) are more than --max-runs %d: check the lists, or raise --max-runs", runs, o.maxRuns))
	}
	if o.hlog != "" && runs > 1 {
		return usage(errors.New("--hlog records one run: give single values (no lists) and --repeat 1"))
	}
	c := newPathCheck(env, o.force)
	if o.db != "" {
		if err := c.db(o.db); err != nil {
			return err
		}
	}
	if o.dir != "" || o.db == "" { // the temporary databases' parent: --dir or $TMPDIR
		if err := checkTempDir(env, cmp.Or(o.dirFrom, "--dir"), o.dir); err != nil {
			return err
		}
	}
	for _, out := range []struct{ flag, path string }{{"--json", o.jsonOut}, {"--html", o.html}, {"--hlog", o.hlog}} {
		if out.path != "" {
			if err := c.output(out.flag, out.path); err != nil {
				return err
			}
		}
	}
	if o.summary != "" {
		if err := c.appended("--summary", o.summary); err != nil {
			return err
		}
	}
	return c.hold()
}

// progressEvery is the progress interval: --progress, or 1 s on a
// terminal and 10 s elsewhere; 0 with --quiet.
func (o *runOptions) progressEvery(env *Env) time.Duration {
	switch {
	case o.quiet:
		return 0
	case o.progress >= 0:
		return o.progress
	case env.StderrIsTerminal:
		return time.Second
	}
	return 10 * time.Second
}

// watch returns the hook that gives each run of a matrix of cells (×
// --repeat) its progress line and, with --hlog, its interval log.
func (o *runOptions) watch(env *Env, every time.Duration, cells int, slots []result.Slot) func(n, total int, p *workload.Plan) (func(result.Interval), func(*result.Result) error, error) {
	started := time.Now()
	return func(n, total int, p *workload.Plan) (func(result.Interval), func(*result.Result) error, error) {
		pos := &matrixPos{n: n, total: total, cells: cells, repeat: o.repeat, slots: slots, started: started}
		var hlog OutputFile
		var hw io.Writer
		if o.hlog != "" {
			var err error
			if hlog, err = env.FS.CreateOutput(o.hlog); err != nil {
				return nil, nil, fmt.Errorf("--hlog %s: %w", o.hlog, err)
			}
			hw = hlog
		}
		w := newWatcher(env.progressOut(), env.StderrIsTerminal, env.StderrWidth, every, pos, p, hw, time.Now())
		done := func(res *result.Result) error {
			err := w.close()
			if hlog == nil {
				return err
			}
			if err != nil || res == nil {
				hlog.Abort()
			} else if cerr := hlog.Commit(); cerr != nil {
				err = fmt.Errorf("--hlog %s: %w", o.hlog, cerr)
			}
			return err
		}
		return w.observe, done, nil
	}
}

// writeOutput writes the JSON file and the HTML report (if asked)
// atomically, then the report on stdout, each rendered by report.Render.
// The JSON of a single run (one cell, one repeat) is the run's result,
// not a suite.
func (o *runOptions) writeOutput(env *Env, s *result.Suite, single bool) error {
	write := s.Write
	if single {
		write = s.Cells[0].Runs[0].Write
	}
	return o.writeRendered(env, s, write)
}

// writeRendered writes v (anything report.Render takes) to every output
// asked for, and writeJSON's JSON to --json.
func (o *runOptions) writeRendered(env *Env, v any, writeJSON func(io.Writer) error) error {
	ro := o.renderOptions()
	if o.jsonOut != "" {
		if err := env.FS.WriteOutput(o.jsonOut, writeJSON); err != nil {
			return fmt.Errorf("writing --json %s: %w", o.jsonOut, err)
		}
	}
	if o.html != "" {
		html, err := report.Render("html", v, ro)
		if err == nil {
			err = env.FS.WriteOutput(o.html, html)
		}
		if err != nil {
			return fmt.Errorf("writing --html %s: %w", o.html, err)
		}
	}
	if o.summary != "" {
		md, err := report.Render("markdown", v, ro)
		if err == nil {
			err = env.FS.AppendOutput(o.summary, func(w io.Writer) error {
				if err := md(w); err != nil {
					return err
				}
				_, err := io.WriteString(w, "\n")
				return err
			})
		}
		if err != nil {
			return fmt.Errorf("writing --summary %s: %w", o.summary, err)
		}
	}
	ro.Width = env.stdoutWidth()
	render, err := report.Render(o.format, v, ro)
	if err != nil {
		return usage(err)
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
