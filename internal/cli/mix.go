package cli

import (
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/gobench/gobench/pkg/job"
	"github.com/gobench/gobench/pkg/judge"
	"github.com/gobench/gobench/pkg/preset"
	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/store/all"
	"github.com/gobench/gobench/pkg/workload"
)

// mixOptions are the flags of gobench mix.
type mixOptions struct {
	matrix   *matrixFlags
	run      runOptions
	loop     loopFlags
	search   searchFlags
	spec     preset.MixSpec // its plan: everything but the matrix settings
	writePct int
}

func defaultMixOptions(reg *store.Registry) *mixOptions {
	return &mixOptions{
		matrix: newMatrixFlags(reg, all.DefaultDriver(), workload.ModeProcess, "25", "1"),
		run:    runOptions{repeat: 1, format: "text", ready: time.Minute},
		spec:   preset.DefaultMixSpec(),
	}
}

func (o *mixOptions) runOpts() *runOptions { return &o.run }

// AddFlags binds the options to flags.
func (o *mixOptions) AddFlags(fs *pflag.FlagSet) {
	p := &o.spec.Plan
	ph := &p.Phases[0]
	o.matrix.AddFlags(fs, "ops per transaction (1: each op is its own transaction)")
	o.loop.AddFlags(fs, p, "ops")
	fs.Var(&ph.Mix, "mix", "op mix in percent, summing to 100: read, upsert, update, delete, scan (--scan-length keys in key order from a drawn key), append (a new key each), latest (one of the newest appended records, the newest most)")
	fs.Var(&o.spec.Roles, "role", "a role of workers with a mix of its own, NAME:COUNT:MIX[@RATE] (repeatable; the roles' counts set the workers; @RATE runs the role open-loop at RATE ops/s over its workers), e.g. writer:3:append=100")
	fs.IntVar(&p.ScanLength, "scan-length", 0, "consecutive keys a scan op of the mix reads, in key order (100 unless given)")
	fs.StringVar(&p.AppendOrder, "append-order", workload.AppendSequential, "order of each worker's appended keys: sequential (each after the last) or random")
	fs.IntVar(&o.writePct, "write-pct", 0, "shorthand for --mix read=100-N,upsert=N")
	fs.Var(newCount(&p.Keys.Count), "keys", "rows preloaded before the run; ops draw keys from them")
	fs.Var(&p.Keys.Distribution, "dist", "key distribution: uniform or zipfian")
	fs.Float64Var(&p.Keys.Theta, "zipf-theta", p.Keys.Theta, "zipfian skew, between 0 and 1")
	fs.IntVar(&p.ValueSize, "value-size", p.ValueSize, "bytes per written value")
	fs.BoolVar(&p.Verify, "verify", false, "after the run, check the engine's integrity and that no acknowledged write was lost (values carry their writer and sequence number)")
	fs.BoolVar(&o.run.ceiling, "ceiling", false, "first measure the disk's fsync rate on the database's file system (1000 durable 4 KiB writes), then set the syncs the commits made (commits/s × syncs per commit, as counted) against it")
	o.search.AddFlags(fs)
	o.run.AddFlags(fs, true)
}

func newMixCommand(env *Env) *cobra.Command {
	o := defaultMixOptions(env.registry())
	cmd := &cobra.Command{
		Use:         "mix",
		Annotations: map[string]string{runsWorkers: "yes", writesPlans: "lottery"},
		Short:       "Run the seeded read/upsert mix on N worker processes against one database",
		Long: `mix runs the classic embedded-database concurrency test: every worker (a
process, or a goroutine) opens its own connection, waits at a start
barrier, then runs its seeded lottery of ops (95% reads / 5% upserts by
default) against one database. Each op is clocked alone and streamed to
the coordinator, which reports throughput, latency percentiles and errors
by class, per op kind.

--role NAME:COUNT:MIX[@RATE], repeated, splits the workers into roles with
mixes (and open-loop rates) of their own, a service's writers beside its
readers; reports give each role its rows, and gates name it ('reader read
p99 <= 5ms'). An append (--mix append=N) writes a new key each time; a
latest read (latest=N) reads one of the newest appended records, whichever
worker appended it, the newest most; a scan (scan=N) reads --scan-length
keys in key order (scan and latest on the engines that keep keys in order).

Before the run, --keys rows are preloaded (not measured). Writes take the
write lock up front (BEGIN IMMEDIATE). Journal mode, synchronous and busy
timeout are set explicitly on every connection, so drivers compare fairly.

Matrices: --driver, --mode, --procs, --goroutines, --batch, --journal,
--sync and --busy-timeout take comma lists; every combination is a cell.
--repeat runs each cell several times, interleaved, and the report gives
mean ± standard deviation per cell and a factor against the baseline cell,
with a rank test's verdict on significance. --expect gates the run:
  METRIC: A OP FACTOR B      e.g. 'upsert p99: wal <= 0.5x rollback'
  [CELLS:] METRIC OP LIMIT   e.g. 'read p99 <= 2ms', 'wal: upsert ops/s >= 500'
` + wrapText("where METRIC is "+judge.MetricHelp()+"; A, B and CELLS select cells by values or name=value; OP is >=, >, <=, < or ==; LIMIT has its unit (ns, µs, ms, s; k or M for rates; a plain number for the rest).", 73) + `
Each A cell is compared with the B cell equal to it in every other
setting; every gate compares medians over repeats and prints its verdict.
In closed loop the per-kind rates move together (each worker deals an
exact deck): gate a kind's latency, or run open loop (--rate), to ask
about one kind. A failed gate exits 3, one its interval cannot decide 4.

--find-rate 'upsert p99 <= 20ms' searches each cell's capacity: the
highest open-loop rate whose steps meet the objectives (all of them,
judged from each op's due time), complete 95% of the ops offered and fail
at most --max-errors of them. A closed-loop probe (or --rate-max) bounds
it; rates double from its 1/16th while met (or halve while not), a
bisection narrows the gap to --tolerance, and three runs 3× a step long
must all confirm the rate found (else it steps down by the tolerance and
tries again). Every step is a fresh run after --settle at its rate. Gates
then read 'sustainable rate: wal >= 3x rollback' or 'sustainable rate >= 500'.`,
		Example: `  # WAL, 25 processes, 2,000 ops each
  gobench mix --procs 25 --queries 2000 --journal wal

  # The rollback journal with synchronous=NORMAL, for 30 seconds per worker
  gobench mix --journal rollback --sync normal --duration 30s

  # 25 workers as goroutines of one process, pure-Go driver, JSON on stdout
  gobench mix --procs 1 --goroutines 25 --driver modernc --format json

  # A skewed, write-heavy mix on a database you keep
  gobench mix --mix read=50,upsert=50 --dist zipfian --db ./bench.db

  # Three writers appending new keys beside a reader, verified, with a gate on the reader's tail
  gobench mix --role writer:3:append=100 --role reader:1:read=100 --verify --expect 'reader read p99 <= 5ms'

  # Eight writers closed-loop, two readers open-loop at 500 ops/s between them, on pebble
  gobench mix --driver pebble --role writer:8:append=100 --role reader:2:read=90,upsert=10@500 --duration 30s

  # Readers of the newest events: two writers append, a reader reads the latest appends and scans
  gobench mix --role writer:2:append=100 --role reader:1:latest=50,scan=50 --verify --expect 'reader latest p99 <= 10ms'

  # Appends beside reads, each worker's keys scattered rather than increasing
  gobench mix --mix append=70,read=30 --append-order random

  # Rollback against WAL, 3 interleaved repeats each, with gates for CI
  gobench mix --journal rollback,wal --repeat 3 --queries 500 --procs 4 --expect 'upsert ops/s: wal >= 2x rollback' --expect 'read p99 <= 50ms' --summary summary.md

  # A 2×2 matrix as a markdown table for a pull request
  gobench mix --journal rollback,wal --sync normal,full --repeat 5 --procs 4 --queries 500 --format markdown

  # The same matrix over two CI jobs, two whole cells each; merge joins and gates them
  gobench mix --journal rollback,wal --sync normal,full --repeat 5 --expect 'errors == 0' --shard 1/2 --json s1.json
  gobench mix --journal rollback,wal --sync normal,full --repeat 5 --expect 'errors == 0' --shard 2/2 --json s2.json

  # On GitHub's matrix: env GOBENCH_SHARD_INDEX (strategy.job-index) and GOBENCH_SHARD_COUNT (strategy.job-total)
  gobench mix --journal rollback,wal,truncate,persist --repeat 3 --shard auto --json shard.json

  # Open loop at 2000 ops/s: latency from each op's due time, after a 5 s warm-up
  gobench mix --rate 2000 --duration 30s --warmup 5s --journal wal

  # The highest rate each journal sustains with upserts' p99 within 20 ms
  gobench mix --procs 4 --journal rollback,wal --find-rate 'upsert p99 <= 20ms' --expect 'sustainable rate: wal >= 3x rollback'

  # Lock waits made visible: SQLite fails at once, gobench retries and counts
  gobench mix --journal rollback --busy retry

  # The WAL with and without automatic checkpoints
  gobench mix --journal wal --checkpoint auto,off --write-pct 50 --duration 10s

  # How close each setting's commits come to the disk's fsync rate
  gobench mix --ceiling --journal rollback,wal --sync full,normal --procs 4

  # Save the plan instead of running it, and run it later (or elsewhere)
  gobench mix --journal rollback,wal --repeat 3 --dry-run > plan.json
  gobench run plan.json

  # LMDB shared by 8 worker processes; the in-memory map as goroutines
  gobench mix --driver lmdb --procs 8
  gobench mix --driver map --mode goroutine --procs 8`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runPlanned(cmd, env, o) },
	}
	o.AddFlags(cmd.Flags())
	return cmd
}

// checkScanLengthFlag refuses --scan-length 0, given: the plan reads 0
// as unset (100), so given it is a mistake. mix and choose bind the flag.
func checkScanLengthFlag(fs *pflag.FlagSet, n int) error {
	if fs.Changed("scan-length") && n == 0 {
		return fmt.Errorf("--scan-length 0: a scan reads at least one key (want 1 to %d; leave it out for %d)", workload.MaxScanLength, workload.ScanLength)
	}
	return nil
}

// resolve folds the shorthand and exclusive flags into the spec and
// builds its job: one plan per cell, validated with everything that needs
// no file system, gates and search included.
func (o *mixOptions) resolve(cmd *cobra.Command, env *Env) (*job.Job, error) {
	fs := cmd.Flags()
	spec := o.spec
	if err := checkRoleFlags(fs); err != nil {
		return nil, err
	}
	if err := checkScanLengthFlag(fs, spec.Plan.ScanLength); err != nil {
		return nil, err
	}
	if fs.Changed("write-pct") {
		if fs.Changed("mix") {
			return nil, errors.New("--mix and --write-pct both given (want one of them)")
		}
		m, err := workload.WriteMix(o.writePct)
		if err != nil {
			return nil, fmt.Errorf("--write-pct: %w", err)
		}
		spec.Plan.Phases = slices.Clone(spec.Plan.Phases)
		spec.Plan.Phases[0].Mix = m
	}
	return resolveLottery(cmd, env, &o.run, &o.loop, &o.search, o.matrix, &spec, &spec.Loop)
}

// checkRoleFlags refuses the flags that roles replace: the roles' counts
// set the workers, their mixes the mix, their rates the rate.
func checkRoleFlags(fs *pflag.FlagSet) error {
	if !fs.Changed("role") {
		return nil
	}
	for _, f := range []string{"procs", "goroutines", "mix", "write-pct", "rate", "find-rate"} {
		if fs.Changed(f) {
			return fmt.Errorf("--role and --%s both given: with roles, each role's COUNT, MIX and @RATE set the workers, the mix and the rate", f)
		}
	}
	return nil
}
