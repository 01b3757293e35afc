package cli

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/gobench/gobench/pkg/job"
	"github.com/gobench/gobench/pkg/preset"
	"github.com/gobench/gobench/pkg/sqlscript"
	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/store/all"
	"github.com/gobench/gobench/pkg/workload"
)

// sqlOptions are the flags of gobench sql.
type sqlOptions struct {
	matrix *matrixFlags
	run    runOptions
	loop   loopFlags
	search searchFlags
	spec   preset.SQLSpec // its plan: everything but the matrix settings
	files  []string
	schema string
	from   string
}

func defaultSQLOptions(reg *store.Registry) *sqlOptions {
	return &sqlOptions{
		matrix: newMatrixFlags(reg, all.DefaultDriver(), workload.ModeProcess, "4", "1"),
		run:    runOptions{repeat: 1, format: "text", ready: time.Minute},
		spec:   preset.DefaultSQLSpec(),
	}
}

func (o *sqlOptions) runOpts() *runOptions { return &o.run }

// AddFlags binds the options to flags.
func (o *sqlOptions) AddFlags(fs *pflag.FlagSet) {
	o.matrix.AddFlags(fs, "must be 1: a script writes its own transactions")
	o.loop.AddFlags(fs, &o.spec.Plan, "scripts")
	fs.StringArrayVar(&o.files, "file", nil, "a script, FILE or FILE@WEIGHT (pgbench's form; weight 1 by default): its statements and \\set lines, run in order as one transaction of the mix, named after the file (repeatable); one --file may list alternatives, A.sql,B.sql@WEIGHT: a matrix axis named file, the script named after the first")
	fs.StringVar(&o.spec.Builtin, "builtin", "", "a built-in workload on pgbench's tables instead of --file: "+strings.Join(workload.BuiltinNames(), " or ")+" (tpcb-like checks TPC-B's invariant after the run)")
	fs.Var(newCount(&o.spec.Scale), "scale", ":scale in scripts and schema; the built-ins make 100,000 accounts per unit")
	fs.StringVar(&o.schema, "schema", "", "SQL run once before the workers start, unmeasured (tables, indexes, data); its time is noted; a comma list of files spans a matrix (cells named by the files' base names without the extension; two of one base name by as many parent directories as tell them apart: old/s, new/s)")
	fs.StringVar(&o.from, "from", "", "benchmark a copy of this existing database (and its -wal), made in the run's temporary directory; the original is only read")
	fs.BoolVar(&o.spec.PerStatement, "per-statement", false, "also report every statement's latency, as SCRIPT#LINE (pgbench's -r)")
	o.search.AddFlags(fs)
	o.run.AddFlags(fs, true)
	_ = fs.MarkHidden("batch")
}

func newSQLCommand(env *Env) *cobra.Command {
	o := defaultSQLOptions(env.registry())
	cmd := &cobra.Command{
		Use:         "sql",
		Annotations: map[string]string{runsWorkers: "yes", writesPlans: "scripts"},
		Short:       "Run your own SQL scripts (pgbench-style, weighted) on N worker processes against one database",
		Long: `sql runs a workload of weighted scripts, as pgbench's -f FILE@WEIGHT does:
each worker deals scripts by weight from its seeded deck and runs each as
one transaction of the mix, clocked from its first statement to its last.
A script holds SQL statements (separated by semicolons) and \set lines:

  \set aid random(1, 100000 * :scale)
  BEGIN IMMEDIATE;
  UPDATE accounts SET balance = balance + 1 WHERE id = :aid;
  COMMIT;

:NAME binds a parameter (never text substitution). Predefined: :scale,
:client_id (the worker's id) and :default_seed. \set takes integer and
double arithmetic (+ - * / %) and pgbench's functions: random(lo, hi),
random_exponential(lo, hi, p), random_gaussian(lo, hi, p),
random_zipfian(lo, hi, s), permute(i, size [, seed]), hash(v [, seed]),
hash_murmur2, hash_fnv1a, abs, int, double, greatest, least, mod, pi,
sqrt, and random_text(n) for a random text value of n characters (pgbench
has none; the name says what it does). The same --seed gives every worker
the same scripts and values, whatever the driver, journal or mode.

Statements outside BEGIN and COMMIT are each their own transaction. Write
BEGIN IMMEDIATE, not BEGIN: a deferred transaction starts as a reader, and
its first write must upgrade to the write lock, which SQLite refuses with
SQLITE_BUSY at once, no busy handler called, where waiting could deadlock
(or, in WAL mode, after another commit since its snapshot); IMMEDIATE
takes the lock first, waiting as the busy policy says. A script must end with the
connection back in autocommit: one that leaves a transaction open fails
with class open_tx and is rolled back. A statement that fails rolls its
script's transaction back; under --busy retry the whole script runs again
with the same values. Rows are stepped to the end and counted, not
printed. Every statement is prepared before the run starts: a syntax
error, an unknown table or :variable, a bad \set stops it with its file
and line (exit 2).

Setup is outside the clock: --schema runs once before the workers start,
or --from copies your database (with its -wal) into the run's directory;
the original is opened for reading only. The copy gets gobench's
application_id and an empty table named kv (a database with a kv table of
its own is refused: gobench drops only tables it created). --builtin tpcb-like and select-only run pgbench's
own workloads on its tables, --scale 1 being 100,000 accounts; tpcb-like
checks TPC-B's invariant after the run (balances of accounts, tellers,
branches and the history's deltas agree; one history row per
acknowledged transaction) and fails like --verify when it does not hold.

To compare a change to your own SQL (an index dropped or added, a
rewritten query), give the alternatives as a list: --schema
base.sql,indexed.sql runs a cell per schema (the setting schema, each
cell named by its file's base name without the extension; two of one
base name by as many parent directories as tell them apart, old/s and
new/s; one file listed twice, under any path, is refused), and one
--file may list alternatives of one script (the setting file; the script
keeps the first file's name, so their figures compare; its weight is
written once, after the list: A.sql,B.sql@9). The cells run interleaved with
--repeat, and gates name them: --expect 'lookup ops/s: indexed >= 1.2x base'.

Everything mix has works here: matrices over --driver, --mode, --procs,
--goroutines, --journal, --sync, --busy; --repeat, --expect (a script's
name is an op kind: 'tpcb-like p99 <= 20ms'), --rate, --warmup,
progress, --json, --html, --hlog, compare and merge.

--crash N simulates N power cuts of the run and judges each state by its
content: it must equal the database after some prefix of the run's
commits (rebuilt by running the acknowledged scripts again, in the order
they committed, on the database as the run's START found it); the
acknowledged transactions after that prefix are lost (how many, the
newest, the tables they changed), and a state equal to no prefix is
corrupt. Columns whose values a second run does not reproduce
(CURRENT_TIMESTAMP, random()) are named and left out of the comparison;
tpcb-like's invariants are checked in every state too (docs/durability.md).`,
		Example: `  # pgbench's TPC-B-like transaction on 8 worker processes, rollback journal against WAL
  gobench sql --builtin tpcb-like --scale 1 --procs 8 --queries 500 --journal rollback,wal

  # Two scripts of your own, 9 lookups to 1 write, on your schema
  gobench sql --schema examples/sql/schema.sql --file examples/sql/lookup.sql@9 --file examples/sql/login.sql@1

  # Does the index make the lookup faster? Both schemas, interleaved, gated
  gobench sql --schema examples/sql/no-index.sql,examples/sql/schema.sql --file examples/sql/lookup.sql --repeat 5 --expect 'lookup ops/s: schema >= 1.2x no-index'

  # Per-statement latencies, as pgbench -r prints them
  gobench sql --builtin tpcb-like --per-statement --procs 4

  # Your application's database, copied first (the original is never written)
  gobench sql --from ./app.db --file ./hot-query.sql --procs 25 --duration 30s --journal wal

  # How many TPC-B transactions/s WAL sustains at p99 <= 10 ms
  gobench sql --builtin tpcb-like --procs 4 --journal wal --find-rate 'tpcb-like p99 <= 10ms'

  # Open loop at 500 transactions/s, with a gate on the script's p99
  gobench sql --builtin tpcb-like --rate 500 --duration 20s --journal wal --expect 'tpcb-like p99 <= 50ms'

  # What a power cut takes at WAL + NORMAL against FULL: lost acknowledged transactions, 10 cuts each
  gobench sql --builtin tpcb-like --procs 4 --queries 300 --journal wal --sync normal,full --crash 10`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runPlanned(cmd, env, o) },
	}
	o.AddFlags(cmd.Flags())
	return cmd
}

// resolve reads the scripts and the schema into the spec and builds its
// job: one plan per cell, validated, gates and search included.
func (o *sqlOptions) resolve(cmd *cobra.Command, env *Env) (*job.Job, error) {
	spec := o.spec
	if spec.Builtin != "" && len(o.files) > 0 {
		return nil, errors.New("--builtin and --file both given (want one of them)")
	}
	if err := o.readSources(env, &spec); err != nil {
		return nil, err
	}
	if o.from != "" && spec.Builtin == "" {
		if o.run.db != "" {
			return nil, errors.New("--from copies the database into a temporary directory: it takes no --db (use --keep to keep the copy)")
		}
		var err error
		if spec.From, err = env.FS.Abs(o.from); err != nil {
			return nil, fmt.Errorf("--from %s: %w", o.from, err)
		}
		if err := checkFrom(env, o.from); err != nil {
			return nil, err
		}
	}
	return resolveLottery(cmd, env, &o.run, &o.loop, &o.search, o.matrix, &spec, &spec.Loop)
}

// readSources reads the --file scripts and the --schema into spec. A
// comma list of files, in --schema or in one --file, gives alternatives
// of it: each a value of the matrix setting schema or file, named by its
// file's base name.
func (o *sqlOptions) readSources(env *Env, spec *preset.SQLSpec) error {
	for _, arg := range o.files {
		// The weight follows the list: the last file's @ (A.sql,B.sql@9).
		head, last := "", arg
		if i := strings.LastIndex(arg, ","); i >= 0 {
			head, last = arg[:i+1], arg[i+1:]
		}
		file, weight, err := sqlscript.ParseArg(last)
		if err != nil {
			return err
		}
		file = head + file
		files, err := readAlternatives(env, "--file "+arg, file, weight)
		if err != nil {
			return err
		}
		if len(files) > 1 {
			if spec.FileVariants != nil {
				return fmt.Errorf("--file %s: only one --file may list alternatives (a matrix axis named file)", arg)
			}
			spec.FileVariants, spec.VariedScript = files, len(spec.Scripts)
		}
		spec.Scripts = append(spec.Scripts, files[0])
	}
	if o.schema != "" {
		files, err := readAlternatives(env, "--schema "+o.schema, o.schema, 0)
		if err != nil {
			return err
		}
		if len(files) > 1 {
			spec.Schemas = files
		} else {
			spec.Schema = &workload.SQLFile{File: o.schema, Text: files[0].Text}
		}
	}
	return nil
}

// readAlternatives reads a file, or a comma list of files that are
// alternatives of one another, each named (Variant) by its base name
// without the extension, or, where two base names agree, by as many of
// its parent directories as tell them apart; the alternatives of a
// script share the first's name. Two paths of one file are refused: they
// would run it as two cells. given is the flag as given, "--file
// A.sql,B.sql@3", for messages; list is its files.
func readAlternatives(env *Env, given, list string, weight int) ([]workload.SQLFile, error) {
	flag, _, _ := strings.Cut(given, " ")
	paths := strings.Split(list, ",")
	labels := variantLabels(paths)
	var out []workload.SQLFile
	for i, path := range paths {
		if path == "" {
			return nil, fmt.Errorf("%s: an empty file name in the list", given)
		}
		if weight > 0 && len(paths) > 1 {
			if at := strings.LastIndex(path, "@"); at >= 0 {
				if _, err := strconv.Atoi(path[at+1:]); err == nil {
					return nil, fmt.Errorf("%s: a weight is written once, after the whole list (A.sql,B.sql@WEIGHT): the alternatives are one script of the mix, one to a cell", given)
				}
			}
		}
		text, err := readText(env, path)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", flag, err)
		}
		for _, prev := range paths[:i] {
			if filepath.Clean(prev) == filepath.Clean(path) || env.FS.SameFile(prev, path) {
				return nil, fmt.Errorf("%s: %s and %s are one file: it is listed twice", given, prev, path)
			}
		}
		f := workload.NewSQLFile(path, text, weight)
		if len(paths) > 1 {
			if strings.ContainsAny(labels[i], ",=: \t") {
				return nil, fmt.Errorf("%s: %q cannot name a cell (a file name without spaces, ',', '=' or ':')", given, labels[i])
			}
			f.Variant = labels[i]
			if weight > 0 {
				f.Name = sqlscript.NameOf(paths[0])
			}
		}
		out = append(out, f)
	}
	return out, nil
}

// variantLabels names alternatives by their base names without the
// extension; where two agree, each of those takes as many of its parent
// directories as tell it from the others ("old/s" and "new/s"), and
// where even whole paths without the extension agree, its path.
func variantLabels(paths []string) []string {
	parts := make([][]string, len(paths))
	depth := make([]int, len(paths))
	for i, p := range paths {
		parts[i] = strings.Split(filepath.ToSlash(filepath.Clean(p)), "/")
		depth[i] = 1
	}
	label := func(i int) string {
		ps := parts[i][len(parts[i])-depth[i]:]
		last := len(ps) - 1
		return strings.Join(append(ps[:last:last], sqlscript.NameOf(ps[last])), "/")
	}
	labels := make([]string, len(paths))
	for {
		seen := map[string]int{}
		for i := range paths {
			labels[i] = label(i)
			seen[labels[i]]++
		}
		grew := false
		for i := range paths {
			if seen[labels[i]] > 1 && depth[i] < len(parts[i]) {
				depth[i]++
				grew = true
			}
		}
		if !grew {
			break
		}
	}
	seen := map[string]int{}
	for _, l := range labels {
		seen[l]++
	}
	for i, p := range paths {
		if seen[labels[i]] > 1 {
			labels[i] = p
		}
	}
	return labels
}

// maxScriptSize bounds a script or schema file read.
const maxScriptSize = 16 << 20

// readText reads a script or schema file, refusing one too large to be
// a script (a database given by mistake, a device).
func readText(env *Env, path string) (string, error) {
	f, err := env.FS.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxScriptSize+1))
	if err != nil {
		return "", fmt.Errorf("reading %s: %w", path, err)
	}
	if len(b) > maxScriptSize {
		return "", fmt.Errorf("%s is larger than %d MiB: not a script", path, maxScriptSize>>20)
	}
	return string(b), nil
}
