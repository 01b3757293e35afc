package cli

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/gobench/gobench/pkg/bytesize"
	"github.com/gobench/gobench/pkg/job"
	"github.com/gobench/gobench/pkg/preset"
	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/workload"
)

// loopFlags are the flags of the commands that deal a lottery (mix and
// sql): how long each worker runs, the seed, open loop, the warm-up, the
// gates and the shard.
type loopFlags struct {
	duration time.Duration
	baseline string
	expects  []string
	shard    string
	shardBy  string
	// cellShard is the shard of the job's runs loop resolved (--shard
	// by cells), nil for none.
	cellShard *workload.Shard
	warmup    string
	crashFlags
}

// crashFlags are the --crash flags, of the loop presets and of replay.
type crashFlags struct {
	crash      string
	crashFrom  string
	crashModel string
	crashLimit string
}

// AddFlags binds the flags to the template plan p, whose first phase is
// the measured one; unit names what one op is ("ops", "scripts").
func (l *loopFlags) AddFlags(fs *pflag.FlagSet, p *workload.Plan, unit string) {
	ph := &p.Phases[0]
	inGroup(fs, groupLoad, func() {
		fs.Var(newCount(&ph.Ops), "queries", unit+" per worker (or use --duration)")
		fs.DurationVar(&l.duration, "duration", 0, "run each worker for this long instead of a number of --queries")
		fs.Uint64Var(&p.Seed, "seed", p.Seed, "base seed of every worker's random streams")
		fs.StringVar(&p.OnError, "on-error", p.OnError, "after an error other than busy/locked: stop the run, or continue and count it")
		fs.Var(rateValue{&p.Rate}, "rate", "open loop: start "+unit+" on a schedule of this many per second over all workers, and time each from its due time, so stalls count for every one they delay (default: closed loop)")
		fs.StringVar(&p.Arrival, "arrival", "", "open-loop spacing of due times: constant (default) or poisson")
		fs.Var(&p.LatencyLimit, "latency-limit", "open loop: count "+unit+" that begin more than this behind their due time as late")
		fs.BoolVar(&p.SkipLate, "skip-late", false, "open loop: skip (and count) late "+unit+" instead of running them")
		fs.StringVar(&l.warmup, "warmup", "", "first run the same workload for this long (such as 5s) or this many "+unit+" per worker (such as 1000), unmeasured: counted apart and in no histogram; or auto: after the run, cut the warm-up MSER-5 finds in the timeline and measure what follows")
	})
	inGroup(fs, groupCI, func() {
		fs.StringVar(&l.baseline, "baseline", "", "the cell factors are computed against, by values or name=value (default: the first cell)")
		fs.StringArrayVar(&l.expects, "expect", nil, "a gate, such as 'upsert ops/s: wal >= 3x rollback' or 'read p99 <= 2ms'; pass, fail or inconclusive, each printed with its interval; exit 3 when one fails, 4 when one cannot decide (repeatable)")
		fs.StringVar(&l.shard, "shard", "", "run shard I/N of the job: every N-th of its runs (cells × --repeat, in the order one machine runs them) from the I-th, each cell whole with all its workers; gobench merge joins the shards' results into the suite and judges its gates. auto: the CI system's shard (GOBENCH_SHARD=I/N; GitHub: GOBENCH_SHARD_INDEX from strategy.job-index, from 0, and GOBENCH_SHARD_COUNT; GitLab's CI_NODE_INDEX/CI_NODE_TOTAL; Kubernetes' JOB_COMPLETION_INDEX with GOBENCH_SHARD_COUNT)")
		fs.StringVar(&l.shardBy, "shard-by", shardByCells, "what --shard splits: cells (whole runs: cells and repeats) or workers (each run's worker processes p with p mod N = I-1, each shard against its own database: less contention than one run of all of them)")
	})
	l.crashFlags.AddFlags(fs, p)
}

// AddFlags binds the --crash flags, and --io-trace to p.
func (l *crashFlags) AddFlags(fs *pflag.FlagSet, p *workload.Plan) {
	inGroup(fs, groupCrash, func() {
		fs.Var(crashCount{&l.crash}, "crash", "record every write, sync and acknowledgement of the run (through the engine's VFS, or gobench's FUSE file system under any engine that keeps files; see --io-trace), then simulate this many power cuts at seeded points of it and check each state: its integrity, and every write acknowledged before the cut (in sql, by its content: it must equal the database after a prefix of the run's commits that holds every transaction acknowledged before the cut); or exhaustive: a cut after every persistence point (each sync of a file or directory), each state named by it, for short runs (at most 2,000 of them)")
		fs.StringVar(&l.crashFrom, "crash-from", workload.CrashFromStart, "--crash: where the record starts, so where cuts may land: start (the run's START, the store set up and preloaded), open (before the store is created or opened) or preload (before its preload); the preloaded rows count as acknowledged once the preload's last commit returned")
		fs.StringVar(&l.crashModel, "crash-model", store.CrashLose, "--crash: what survives of the writes and directory changes no sync covered (a comma list spans the models, a cell each): lose (none: what POSIX promises), torn (lose, and a seeded subset of the writes in whole 512-byte sectors), torn-4k (torn in whole 4 KiB pages, as LazyFS tears writes), names-durable (creations, deletions and renames survive at once, file data still waits for its sync: LazyFS's model), recovery-crash (lose, then each state reopened with its I/O recorded and cut again inside that reopen's recovery; SQLite drivers) or fsync-fail (the run's Nth sync, N = 4 + seed mod 16, returns EIO and what it covered is dropped, as Linux drops a failed writeback; workers go on after the error)")
		fs.StringVar(&l.crashLimit, "crash-record-limit", "1GiB", "--crash: the most the record of the run's I/O may take on disk, beside the database")
		fs.StringVar(&p.IOTrace, "io-trace", "", "what counts the run's file I/O (syncs and bytes per commit) and records it for --crash: vfs, the tracing VFS of the SQLite drivers mattn, capi and ncruces (their default), or fs, gobench's FUSE file system mounted over the database's directory, under any engine that keeps files (the default of --crash on the others)")
	})
}

// loop returns the preset's loop the flags give; --shard auto reads the
// shard from the CI system's variables (shardFromEnv) and says so.
func (l *loopFlags) loop(fs *pflag.FlagSet, env *Env, o *runOptions) (preset.Loop, error) {
	if fs.Changed("duration") && fs.Changed("queries") {
		return preset.Loop{}, errors.New("--queries and --duration both given (want one of them)")
	}
	if fs.Changed("duration") && l.duration <= 0 {
		return preset.Loop{}, errors.New("--duration must be a positive duration")
	}
	shard, err := l.resolveShard(fs, env, o)
	if err != nil {
		return preset.Loop{}, err
	}
	crash, err := l.crashSpec(fs)
	if err != nil {
		return preset.Loop{}, err
	}
	loop := preset.Loop{Duration: l.duration, Warmup: l.warmup, Crash: crash}
	if l.shardBy == shardByWorkers {
		loop.Shard = shard
	} else if shard != "" {
		if l.cellShard, err = workload.ParseShard(shard); err != nil {
			return preset.Loop{}, fmt.Errorf("--shard: %w", err)
		}
	}
	return loop, nil
}

// resolveShard returns the shard --shard gives ("" for none); auto reads
// it from the CI system's variables (shardFromEnv) and says so.
func (l *loopFlags) resolveShard(fs *pflag.FlagSet, env *Env, o *runOptions) (string, error) {
	if l.shardBy != shardByCells && l.shardBy != shardByWorkers {
		return "", fmt.Errorf("--shard-by %q: want %s (whole runs) or %s (each run's worker processes)", l.shardBy, shardByCells, shardByWorkers)
	}
	if fs.Changed("shard-by") && l.shard == "" {
		return "", errors.New("--shard-by says what --shard splits: give --shard I/N (or auto) too")
	}
	if l.shard != shardAuto {
		return l.shard, nil
	}
	s, from, err := shardFromEnv(env.Getenv)
	if err != nil {
		return "", err
	}
	o.notef(env, "shard %s, from %s", s, from)
	return s, nil
}

// crashCount is --crash's value: a number of power cuts, or exhaustive;
// crashSpec checks it.
type crashCount struct{ s *string }

func (c crashCount) String() string     { return *c.s }
func (c crashCount) Set(v string) error { *c.s = v; return nil }
func (c crashCount) Type() string       { return "N|exhaustive" }

// crashSpec returns the power-cut simulation --crash asks for, or nil.
func (l *crashFlags) crashSpec(fs *pflag.FlagSet) (*workload.Crash, error) {
	if !fs.Changed("crash") {
		for _, name := range []string{"crash-model", "crash-record-limit", "crash-from"} {
			if fs.Changed(name) {
				return nil, fmt.Errorf("--%s applies to --crash", name)
			}
		}
		return nil, nil
	}
	c := &workload.Crash{Model: l.crashModel, From: l.crashFrom}
	if l.crash == "exhaustive" {
		c.Exhaustive = true
	} else if n, err := strconv.Atoi(l.crash); err != nil || n < 1 || n > workload.MaxCrashStates {
		return nil, fmt.Errorf("--crash %q: want a number of power cuts to simulate, 1 to %d, or exhaustive", l.crash, workload.MaxCrashStates)
	} else {
		c.States = n
	}
	if !slices.Contains(workload.CrashFroms(), l.crashFrom) {
		return nil, fmt.Errorf("--crash-from %q: want %s", l.crashFrom, strings.Join(workload.CrashFroms(), ", "))
	}
	if c.From == workload.CrashFromStart {
		c.From = ""
	}
	models := strings.Split(l.crashModel, ",")
	for i, m := range models {
		if !slices.Contains(store.CrashModels(), m) {
			return nil, fmt.Errorf("--crash-model %q: want %s (or a comma list of them)", m, strings.Join(store.CrashModels(), ", "))
		}
		if slices.Contains(models[:i], m) {
			return nil, fmt.Errorf("--crash-model: %s is listed twice", m)
		}
	}
	if c.Model = models[0]; len(models) > 1 {
		c.Models = models
	}
	limit, err := bytesize.Parse(l.crashLimit)
	if err != nil {
		return nil, fmt.Errorf("--crash-record-limit: %w", err)
	}
	c.RecordLimit = limit
	return c, nil
}

// parts returns the job's baseline and gates, with the search sf asks
// for (nil without --find-rate).
func (l *loopFlags) parts(fs *pflag.FlagSet, o *runOptions, sf *searchFlags) (jobParts, error) {
	search, err := sf.search(fs, o)
	return jobParts{baseline: l.baseline, expects: l.expects, search: search}, err
}

// resolveLottery builds the job of a lottery preset (mix, sql): the run
// options checked, the loop folded into spec (through loop, spec's own
// Loop field: spec is a pointer to the spec that holds it), its cells
// spanned over the matrix, its gates and search.
func resolveLottery(cmd *cobra.Command, env *Env, o *runOptions, l *loopFlags, sf *searchFlags, mf *matrixFlags, spec preset.Spec, loop *preset.Loop) (*job.Job, error) {
	fs := cmd.Flags()
	if err := o.resolve(); err != nil {
		return nil, err
	}
	var err error
	if *loop, err = l.loop(fs, env, o); err != nil {
		return nil, err
	}
	m, err := mf.matrix(fs)
	if err != nil {
		return nil, err
	}
	cells, err := spec.Plans(m)
	if err != nil {
		return nil, err
	}
	parts, err := l.parts(fs, o, sf)
	if err != nil {
		return nil, err
	}
	j := o.newJob(cmd, env, spec, cells, parts)
	j.Shard = l.cellShard
	return j, nil
}
