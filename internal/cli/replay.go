package cli

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/gobench/gobench/pkg/job"
	"github.com/gobench/gobench/pkg/preset"
	"github.com/gobench/gobench/pkg/replay"
	"github.com/gobench/gobench/pkg/report"
	"github.com/gobench/gobench/pkg/sqltrace"
	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/store/all"
	"github.com/gobench/gobench/pkg/workload"
)

// replayOptions are the flags of gobench replay.
type replayOptions struct {
	matrix   *matrixFlags
	run      runOptions
	spec     preset.ReplaySpec
	trace    string
	info     bool
	speed    string
	database string
	baseline string
	expects  []string
	window   string
	scale    string
	fold     string
	readOnly bool
	filter   string
	scaling  scaleSearchFlags
	crash    crashFlags
}

func defaultReplayOptions(reg *store.Registry) *replayOptions {
	return &replayOptions{
		matrix: newMatrixFlags(reg, all.DefaultDriver(), workload.ModeProcess, "0", "1"),
		run:    runOptions{repeat: 1, format: "text", ready: time.Minute},
		spec:   preset.DefaultReplaySpec(),
		speed:  "max",
		fold:   "1",
	}
}

func (o *replayOptions) runOpts() *runOptions { return &o.run }

// AddFlags binds the options to flags.
func (o *replayOptions) AddFlags(fs *pflag.FlagSet) {
	o.matrix.AddFlags(fs, "must be 1: a replay runs each statement as the application did")
	inGroup(fs, groupLoad, func() {
		fs.BoolVar(&o.info, "info", false, "check every chunk of the trace, summarise it (processes, connections, statements, fingerprints, commits, duration, databases, size) and run nothing")
		fs.StringVar(&o.speed, "speed", o.speed, "max (each connection's statements back to back), or 1x (at the times they were captured, latency counted from each one's due time), 2x, 0.5x …")
		fs.StringVar(&o.spec.Options.Order, "order", workload.ReplayRace, "race (the connections' transactions race, as in production) or commit (each transaction where it was in the captured order of commits: the database ends as the capture's, every statement sees what it saw)")
		fs.StringVar(&o.database, "database", "", "the captured database to replay: its path in the trace, another path of the same file, or its base name (default: the one it ran most statements on)")
		fs.StringVar(&o.window, "window", "", "FROM..TO: replay only the transactions whose first statement began in this window, durations from the capture's first statement (10s..40s, 10s.., ..40s); a transaction straddling TO runs whole, one straddling FROM not at all; the schema statements (CREATE, DROP, ALTER) before FROM run first, the rest before it does not; race order only")
		fs.StringVar(&o.scale, "scale", "1", "N or Nx: run N copies of each captured connection at once, each on its own connection, at the captured pace with --speed 1x (a capture scaled up, as Oracle's Database Replay does with schema remapping; --fold is its time-slice folding); each copy on its own keys (integer keys offset per copy, text keys suffixed, inserted ids in the copy's range, the snapshot's rows copied per copy); a statement whose keys cannot be moved (a literal key, a parameter of unknown column, no key in its WHERE) runs shared, counted in the report; divergence is not judged; race order only")
		fs.StringVar(&o.fold, "fold", o.fold, "K: cut the capture's span (or --window's) into K equal time slices and replay them all at once from time 0, each statement at its offset from its slice's start (Oracle's time-slice folding): about K times the captured rate at --speed 1x, the capture's own mix, no statement run twice; a transaction runs whole in the slice its first statement began in, each slice's part of a connection is a connection of its own, and the schema statements (CREATE, DROP, ALTER) run once first; divergence is not judged; race order only; 1 is off")
		fs.BoolVar(&o.readOnly, "read-only", false, "replay only the transactions that wrote nothing when captured (no row changed, no commit made, no INSERT, UPDATE, DELETE, schema or pragma write), each whole: the reads alone, on a database that never changes; the schema statements of the transactions cut run first; divergence and the end are not judged; race order only")
		fs.StringVar(&o.filter, "filter", "", "FP,…: replay only the transactions with a statement whose fingerprint matches one of these (its id as reports print it, q9c0651b9, or the start of its text, without a comma), each whole; -FP excludes the transactions with a statement that matches it (--filter -q9c0651b9); the schema statements of the transactions cut run first; divergence and the end are not judged; race order only")
	})
	inGroup(fs, groupCI, func() {
		fs.StringVar(&o.baseline, "baseline", "", "the cell factors are computed against, by values or name=value (default: the first cell)")
		fs.StringArrayVar(&o.expects, "expect", nil, "a gate, such as 'q1a2b3c4d p99 <= 5ms' (a statement by its fingerprint's id) or 'diverged statements <= 0'; exit 3 when one fails, 4 when one cannot decide (repeatable)")
	})
	o.scaling.AddFlags(fs)
	o.crash.AddFlags(fs, &o.spec.Plan)
	o.run.AddFlags(fs, true)
	_ = fs.MarkHidden("batch")
	_ = fs.MarkHidden("goroutines")
	_ = fs.MarkHidden("reuse")
}

func newReplayCommand(env *Env) *cobra.Command {
	o := defaultReplayOptions(env.registry())
	cmd := &cobra.Command{
		Use:         "replay TRACE",
		Annotations: map[string]string{runsWorkers: "yes", writesPlans: "trace"},
		Short:       "Replay a captured application's statements under other settings, and say what changed",
		Long: `replay runs again what gobench capture (or package capture's Go wrapper)
recorded: each captured process becomes a worker process and each of its
connections a connection in it (--procs N folds the processes onto N),
running the connection's statements in their order with their typed
parameters, on a copy of the database as the capture found it. Every
setting of the matrix applies: --driver, --journal, --sync,
--busy-timeout, --mode, --procs; --repeat, --expect, --json, --html,
compare and merge work as for any run.

As captured: the first cell (settings=as captured, the baseline) runs
with the application's own settings, as its PRAGMAs set them
(journal_mode, synchronous, busy_timeout, wal_autocheckpoint; each the
value it set most often; for a Go program, what its driver's connection
string and defaults set, as the wrapper read them back; else SQLite's
defaults and a 5s busy timeout). With no --journal, --sync, --busy-timeout or --checkpoint it
is the only cell; a matrix given adds its cells (settings=given), each
taking the application's value for every setting whose flag was not
given, and runs a cell equal to the one as captured once. The report sets
the capture's own timing beside the replay's: a row "captured" of the
statement table and of each latency table, and each statement's mean
against the capture's.

Timing: --speed max runs each connection's statements back to back;
--speed 1x runs each at the time it was captured, open loop, its latency
counted from that due time, so a setting slower than the capture shows
its queueing; 2x twice as fast. Order: by default the connections'
transactions race, as in production; --order commit makes each
transaction begin where it began in the captured order of commits and
commit in that order, across processes (Oracle's synchronised replay), so
the database ends as the capture's did and every statement sees what it
saw. Statements that set what a cell sets (PRAGMA journal_mode,
synchronous, busy_timeout, wal_autocheckpoint, locking_mode) take the
cell's value: they run as reads of the setting, and the report lists
each.

The report gives each statement, by fingerprint (literals and parameters
taken out, as pg_stat_statements does, named q and 8 hex digits): count,
total time, mean, p50, p99, max, errors by class, busy waits; the top
statements by total time; transactions/s; and divergence: statements
whose rows (as many as the application read) or changes differ from the
capture's, errors the capture did not have and the reverse, and whether
the final database equals the capture's end (its tables' digests).

Grow and cut: --scale N runs N copies of each captured connection at
once, each its own connection (and each copy of a captured process its
own worker process), every copy the same statements at the same due
times: N times the captured load. Each copy keeps to its own keys: the
values a statement binds to a key column (INTEGER PRIMARY KEY, PRIMARY
KEY, UNIQUE, FOREIGN KEY) are offset by copy × a span (integers) or
suffixed #copy (text), an INSERT that leaves the id to SQLite takes the
next id of the copy's range, and each copy starts from its own copy of
the snapshot's rows: the database ends with N disjoint copies. A
statement whose keys cannot be moved (a key written in its text, a
parameter whose column is not known, a read or write no key restricts)
runs unchanged in every copy, shares keys, and the report counts it
("N statements (K fingerprints) shared keys across copies"); its
constraint errors are labelled as expected, a remapped statement's are
not. Divergence and the database's end are not judged (a copy's rows
hold its own keys): statements are judged by their errors and latency.
--window FROM..TO replays the transactions whose first statement began
in that span of the capture (a transaction straddling TO runs whole,
one straddling FROM not at all); the schema statements before FROM
(CREATE, DROP, ALTER, not of temporary objects) run first, so the window's statements find their
tables and indexes, but the rows written before FROM are not: a window
from a later start is not judged for divergence. --fold K cuts the
span of the statements replayed (the capture's, or the window's) into K
equal slices by time and starts them all together, each statement due
at its offset from its slice's start (Oracle's time-slice folding): with
--speed 1x, about K times the captured rate, the capture's own mix, and
no statement run twice. A transaction belongs to the slice its first
statement began in and runs whole there; each slice's part of a
captured connection is a connection of its own (and each slice of a
captured process a worker process); the schema statements (CREATE,
DROP, ALTER, not of temporary objects) run once before the slices
start. A slice starts without the rows the slices before it wrote, so
divergence and the database's end are not judged. --fold and --scale
multiply: --fold 2 --scale 3 runs 3 copies of each slice's connections.
--read-only replays only the transactions that wrote nothing when
captured, each whole: by the trace's record (no statement changed a
row or made a commit) and by their text (no INSERT, UPDATE, DELETE,
schema statement or pragma set, even one that changed nothing or
failed: on the snapshot it might write): the reads alone, on a
database that never changes (how fast would the reads be if the
writers moved elsewhere). --filter FP,… replays only the transactions
with a statement whose fingerprint matches one of the terms (its id,
q9c0651b9, or the start of its text, select * from users), each whole;
a term with a leading minus excludes the transactions with a statement
that matches it (--filter -q9c0651b9), and an unknown term is refused
with the most run fingerprints. Both count from the capture's
statements, or the window's; the schema statements (CREATE, DROP,
ALTER, not of temporary objects) of the transactions they cut run
first, and the plan and report say "read-only: N of M statements (K
transactions)". Divergence and the database's end are not judged (a
read-only replay ends as the snapshot). Each composes with --window,
--scale and --fold. All five replay in race order, and none takes
--crash.

How much more can the application take: --find-scale 'total p99 <= 50ms'
replays the trace at scale 1, 2, 4, 8 … (up to --max-scale) while every
objective holds, then bisects between the largest scale met and the
smallest failed, each step a whole replay on a fresh copy of the
snapshot; it prints, per cell, the largest scale met and every step
(scale, statements, statements/s, p50, p99, max, errors), and exits 3
when a cell meets the objectives at no scale. With --speed 1x each copy
keeps the captured pace, so the latency counts the queueing a slower
setting builds. --by fold searches the fold instead (fold 1, 2, 4 …:
the capture's own statements, each once, at K times its rate).
--crash N: what a power cut would have taken. The run's writes, syncs and
acknowledgements are recorded (an acknowledged transaction: a statement
whose COMMIT, or autocommit write, returned to its replayed connection),
N cuts simulated, and each state judged by its content: it must equal
the database after a prefix of the run's commits (rebuilt by running
each connection's statements again, in commit order, on the database as
the run started), and the acknowledged transactions after that prefix
are lost (docs/durability.md).

The trace is input from elsewhere: its statements run only inside the
run's database, under the guard of gobench sql (no ATTACH, no extensions,
no file functions; refused before anything runs: exit 2), and a truncated
or corrupt trace exits 2 naming the byte offset.`,
		Example: `  # A trace gobench capture recorded
  gobench replay --info shop.trace

  # The application as it ran (its own PRAGMAs' settings), beside its capture
  gobench replay shop.trace

  # Rollback against WAL, FULL against NORMAL, every transaction in its captured order
  gobench replay shop.trace --order commit --journal rollback,wal --sync full,normal

  # At the captured pace: does NORMAL keep up where FULL queues?
  gobench replay shop.trace --speed 1x --sync full,normal --repeat 3

  # Four times the application's connections, at its pace, on WAL
  gobench replay shop.trace --scale 4 --speed 1x --journal wal

  # Only the transactions begun between 10s and 40s into the capture
  gobench replay shop.trace --window 10s..40s

  # The reads alone, on WAL: how fast they run with the writers elsewhere
  gobench replay shop.trace --read-only --journal wal --speed 1x

  # Only the transactions that run either of two statements (one by id, one by its text's start); then all but one
  gobench replay shop.trace --filter q9c0651b9,'select max(id) from users'
  gobench replay shop.trace --filter -q9c0651b9

  # Four times the captured rate with the capture's own statements: its four quarters at once
  gobench replay shop.trace --fold 4 --speed 1x --journal wal

  # How many times its captured load does the application hold, at p99 <= 50ms, on each journal?
  gobench replay shop.trace --speed 1x --journal rollback,wal --find-scale 'total p99 <= 50ms'

  # The same over time slices of the capture folded at once rather than copies
  gobench replay shop.trace --speed 1x --journal wal --find-scale 'total p99 <= 50ms' --by fold

  # And what NORMAL risks: acknowledged transactions 10 power cuts lose, in WAL
  gobench replay shop.trace --order commit --journal wal --sync full,normal --crash 10`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) != 1 {
				return usage(errors.New("replay takes one trace file"))
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			o.trace = args[0]
			if o.info && !o.run.dryRun { // --dry-run prints what a replay would run
				return runReplayInfo(o, env)
			}
			if o.scaling.objectives != "" {
				return runFindScale(cmd, env, o)
			}
			return runPlanned(cmd, env, o)
		},
	}
	o.AddFlags(cmd.Flags())
	return cmd
}

// resolve reads the trace into the replay's plan, one per cell.
func (o *replayOptions) resolve(cmd *cobra.Command, env *Env) (*job.Job, error) {
	if err := o.run.resolve(); err != nil {
		return nil, err
	}
	spec := o.spec
	var err error
	if spec.Plan.Crash, err = o.crash.crashSpec(cmd.Flags()); err != nil {
		return nil, err
	}
	abs, err := env.FS.Abs(o.trace)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", o.trace, err)
	}
	spec.Open = func() (io.ReadCloser, error) { return env.FS.Open(abs) }
	spec.Options.Trace, spec.Options.Database = abs, o.database
	spec.Options.Remap = o.scaling.objectives != "" // --find-scale rescales the cells: their copies' keys are read once
	if o.scaling.objectives == "" && (cmd.Flags().Changed("max-scale") || cmd.Flags().Changed("by")) {
		return nil, errors.New("--max-scale and --by apply to --find-scale")
	}
	if spec.Options.Scale, err = parseScale(o.scale); err != nil {
		return nil, err
	}
	if spec.Options.Fold, err = parseFold(o.fold); err != nil {
		return nil, err
	}
	if spec.Options.Select, err = replaySelect(o.readOnly, o.filter); err != nil {
		return nil, err
	}
	if o.window != "" {
		if spec.Options.Window, err = replay.ParseWindow(o.window); err != nil {
			return nil, err
		}
	}
	if spec.Options.Speed, err = parseSpeed(o.speed); err != nil {
		return nil, err
	}
	m, err := o.matrix.matrix(cmd.Flags())
	if err != nil {
		return nil, err
	}
	cells, err := spec.Plans(m)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", o.trace, err)
	}
	if err := preset.CheckPace(o.speed, cells[0]); err != nil {
		return nil, err
	}
	if o.run.db != "" && len(cells)*o.run.repeat > 1 {
		return nil, errors.New("--db keeps one replayed database: give one cell and --repeat 1 (or no --db)")
	}
	o.stallAtPace(cmd.Flags(), preset.ReplayPace(cells[0]))
	return o.run.newJob(cmd, env, spec, cells, jobParts{baseline: o.baseline, expects: o.expects}), nil
}

// stallAtPace makes the stall time-out of a replay at a speed no shorter
// than the capture takes at that speed (pace, 0 back to back) and a
// minute, unless --stall-timeout was given: a captured connection may
// rest that long between statements.
func (o *replayOptions) stallAtPace(fs *pflag.FlagSet, pace time.Duration) {
	if fs.Changed("stall-timeout") || pace == 0 {
		return
	}
	o.run.stall = max(o.run.stall, pace+time.Minute)
}

// parseScale reads --scale: a whole number of copies, 1 or more, with or
// without an x (4, 4x).
func parseScale(s string) (int, error) {
	n, err := strconv.Atoi(strings.TrimSuffix(s, "x"))
	if err != nil || n < 1 || n > workload.MaxWorkers {
		return 0, fmt.Errorf("--scale %q: want the copies of each captured connection to run, a whole number from 1 to %d such as 4 or 4x (a fractional scale is not supported)", s, workload.MaxWorkers)
	}
	return n, nil
}

// parseFold reads --fold: a whole number of time slices, 1 (off) to
// workload.MaxFold.
func parseFold(s string) (int, error) {
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 || n > workload.MaxFold {
		return 0, fmt.Errorf("--fold %q: want the time slices of the capture to replay at once, a whole number from 1 (off) to %d such as 2 or 4", s, workload.MaxFold)
	}
	return n, nil
}

// parseSpeed reads --speed: max, or a factor such as 1x, 2x or 0.5x.
func parseSpeed(s string) (float64, error) {
	if s == "max" {
		return 0, nil
	}
	f, err := strconv.ParseFloat(strings.TrimSuffix(s, "x"), 64)
	if err != nil || !strings.HasSuffix(s, "x") || !(f > 0 && f <= 1000) {
		return 0, fmt.Errorf("--speed %q: want max, or a factor of the captured pace such as 1x, 2x or 0.5x (at most 1000x)", s)
	}
	return f, nil
}

// runReplayInfo prints the trace's summary.
func runReplayInfo(o *replayOptions, env *Env) error {
	if o.run.format != "text" && o.run.format != "json" {
		return usage(fmt.Errorf("--format %s: --info prints text or json", o.run.format))
	}
	in, err := inspectTrace(env, o.trace)
	if err != nil {
		return err
	}
	render, err := report.TraceInfo(o.run.format, in, report.Options{})
	if err != nil {
		return err
	}
	return render(env.Stdout)
}

// inspectTrace summarises a trace; one that does not read is bad input.
func inspectTrace(env *Env, path string) (*sqltrace.Info, error) {
	in, err := sqltrace.Inspect(func() (io.ReadCloser, error) { return env.FS.Open(path) })
	if err != nil {
		return nil, usage(fmt.Errorf("%s: %w", path, err))
	}
	return in, nil
}

// replaySelect reads --read-only and --filter into the replay's
// selection, nil when neither is given.
func replaySelect(readOnly bool, filter string) (*workload.ReplaySelect, error) {
	if !readOnly && filter == "" {
		return nil, nil
	}
	sel := &workload.ReplaySelect{}
	if filter != "" {
		var err error
		if sel, err = replay.ParseFilter(filter); err != nil {
			return nil, err
		}
	}
	sel.ReadOnly = readOnly
	return sel, nil
}
