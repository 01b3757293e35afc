package cli

import (
	"errors"
	"fmt"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/gobench/gobench/pkg/report"
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
	warmup   string
}

// AddFlags binds the flags to the template plan p, whose first phase is
// the measured one; unit names what one op is ("ops", "scripts").
func (l *loopFlags) AddFlags(fs *pflag.FlagSet, p *workload.Plan, unit string) {
	ph := &p.Phases[0]
	fs.Int64Var(&ph.Ops, "queries", ph.Ops, unit+" per worker (or use --duration)")
	fs.DurationVar(&l.duration, "duration", 0, "run each worker for this long instead of a number of --queries")
	fs.Uint64Var(&p.Seed, "seed", p.Seed, "base seed of every worker's random streams")
	fs.StringVar(&p.OnError, "on-error", p.OnError, "after an error other than busy/locked: stop the run, or continue and count it")
	fs.StringVar(&l.baseline, "baseline", "", "the cell factors are computed against, by values or name=value (default: the first cell)")
	fs.StringArrayVar(&l.expects, "expect", nil, "a gate, such as 'upsert ops/s: wal >= 3x rollback' or 'read p99 <= 2ms'; every verdict is printed; exit 3 when one fails (repeatable)")
	fs.Float64Var(&p.Rate, "rate", 0, "open loop: start "+unit+" on a schedule of this many per second over all workers, and time each from its due time, so stalls count for every one they delay (default: closed loop)")
	fs.StringVar(&p.Arrival, "arrival", "", "open-loop spacing of due times: constant (default) or poisson")
	fs.Var(&p.LatencyLimit, "latency-limit", "open loop: count "+unit+" that begin more than this behind their due time as late")
	fs.BoolVar(&p.SkipLate, "skip-late", false, "open loop: skip (and count) late "+unit+" instead of running them")
	fs.StringVar(&l.warmup, "warmup", "", "first run the same workload for this long (such as 5s) or this many "+unit+" per worker (such as 1000), unmeasured: counted apart and in no histogram")
	fs.StringVar(&l.shard, "shard", "", "run only worker processes p with p mod N = I-1, as shard I/N of a plan spread over machines (merge the results)")
}

// cells checks the run options, folds the loop flags into the template
// plan p and spans matrix over it: the cells of a mix or sql run, each
// with the warm-up --warmup asks for.
func (l *loopFlags) cells(fs *pflag.FlagSet, p *workload.Plan, o *runOptions, matrix *matrixFlags) ([]*workload.Plan, error) {
	if err := o.resolve(); err != nil {
		return nil, err
	}
	warm, err := l.resolve(fs, p)
	if err != nil {
		return nil, err
	}
	cells, err := matrix.plans(fs, p, func(pl *workload.Plan, n int) { pl.Phases[0].Batch = n })
	if err != nil {
		return nil, err
	}
	return cells, workload.SetWarmup(cells, warm)
}

// resolve folds --duration and --shard into the template plan p and
// returns the warm-up phase --warmup asks for (nil for none).
func (l *loopFlags) resolve(fs *pflag.FlagSet, p *workload.Plan) (*workload.Phase, error) {
	ph := &p.Phases[0]
	if fs.Changed("duration") {
		if fs.Changed("queries") {
			return nil, errors.New("--queries and --duration both given (want one of them)")
		}
		ph.Ops = 0
		ph.Duration = workload.Duration(l.duration)
	}
	if l.shard != "" {
		var err error
		if p.Shard, err = workload.ParseShard(l.shard); err != nil {
			return nil, fmt.Errorf("--shard: %w", err)
		}
	}
	warm, err := workload.ParseWarmup(l.warmup, *ph)
	if err != nil {
		return nil, fmt.Errorf("--warmup: %w", err)
	}
	return warm, nil
}

// run runs a mix or sql job over cells, or with --find-rate their
// capacity search.
func (l *loopFlags) run(cmd *cobra.Command, env *Env, o *runOptions, sf *searchFlags, command string, cells []*workload.Plan) error {
	search, err := sf.search(cmd.Flags(), o)
	if err != nil {
		return usage(err)
	}
	if search != nil {
		return runSearch(cmd.Context(), env, o, sf, search, command, cells, l.baseline, l.expects)
	}
	j := o.newJob(env, command, cells, l.baseline, l.expects)
	return runJob(cmd.Context(), env, o, j, report.Options{})
}
