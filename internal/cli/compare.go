package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/gobench/gobench/pkg/judge"
	"github.com/gobench/gobench/pkg/report"
	"github.com/gobench/gobench/pkg/result"
	"github.com/gobench/gobench/pkg/store"
)

// compareOptions are the flags of gobench compare.
type compareOptions struct {
	maxRegression string
	metrics       []string
	format        string
	inconclusive  string
	differ        []string
}

// AddFlags binds the options to flags.
func (o *compareOptions) AddFlags(fs *pflag.FlagSet) {
	fs.StringVar(&o.maxRegression, "max-regression", "10%", "fail (exit 3) when a metric gets worse by more than this and more than the noise, every repeat worse; pass when even the noise's worst case stays within it; 0% reports without verdicts")
	fs.StringVar(&o.inconclusive, "inconclusive", string(judge.InconclusiveFails), "what a comparison the data cannot decide (noise wider than the threshold, a machine that changed) counts as: fail (exit 4) or pass")
	fs.StringArrayVar(&o.metrics, "metric", nil, "a metric to compare, such as 'read ops/s' or 'upsert p99' (repeatable; default: throughput and p50/p99/p99.9 of every op kind)")
	fs.StringVarP(&o.format, "format", "f", "text", formatUsage("output format", "comparison"))
	fs.StringSliceVar(&o.differ, "differ", nil, "inputs of the workload that may differ between the files: "+strings.Join(result.Inputs, ", ")+" (the comparison names how they differ)")
}

func newCompareCommand(env *Env) *cobra.Command {
	o := &compareOptions{}
	cmd := &cobra.Command{
		Use:         "compare OLD.json NEW.json",
		Annotations: map[string]string{rendersKind: "comparison"},
		Short:       "Compare two result files cell by cell; fail on a regression beyond the noise",
		Long: `compare matches the cells of two result files (single runs or suites) by
their settings and compares every metric over their repeats: old and new
median with their range, the change, and a verdict: a regression, a pass,
or inconclusive. Two files are usually two invocations, and a machine
drifts between invocations more than between the repeats of one, so a
rank test over the repeats would read drift as a change. A regression
(exit 3) therefore needs all of: the median moved the wrong way
(throughput down, latency up) by more than --max-regression (10% by
default); by more than the noise, the wider of the two files' ranges over
their repeats; and every new repeat worse than every old one. A pass
needs the change the wrong way plus the noise to stay within the
threshold. Anything between is inconclusive (exit 4, or 0 with
--inconclusive pass), and says what would decide it.

Each run records the machine's calibration (a fixed CPU loop, before and
after it). When the calibrations of the two files differ, beyond their
noise, by more than half the threshold, the machine changed: throughput
and latency are then not judged, and the verdict says so with the
figures (inconclusive); CPU per op, which counts the time the workers
ran and not the time they waited, is judged still.

A row is judged only with 3 repeats a side (run with --repeat 5), and for
a percentile q at least 10/(1-q) ops of its kind a run (p99 needs 1,000,
p99.9 10,000; max never); the default metrics that cannot be are shown
and not judged, a --metric that cannot be is inconclusive. The
Mann-Whitney U test's p-value is shown beside, for repeats interleaved in
one invocation. To compare settings, run them as cells of one invocation
(--journal rollback,wal); to compare two builds, use 'gobench ab', which
runs them alternately on one machine. Both files must hold the same
workload (seed, mix, ops, keys) but for the inputs --differ names: with
--differ schema, two runs of gobench sql that differ only in their
schema file (an index dropped) compare, and a line names the files and
their texts' hashes. The environments' differences (CPU count,
filesystem, SQLite version, …) are shown as warnings.`,
		Example: `  gobench mix --journal wal --repeat 5 --json old.json
  # … change something, then:
  gobench mix --journal wal --repeat 5 --json new.json
  gobench compare old.json new.json --max-regression 10%
  gobench compare old.json new.json --metric 'read ops/s' --metric 'upsert p99' --format markdown
  # Did my index make it faster? Two runs that differ only in their schema file:
  gobench sql --schema base.sql --file s.sql --repeat 5 --json base.json
  gobench sql --schema indexed.sql --file s.sql --repeat 5 --json indexed.json
  gobench compare base.json indexed.json --differ schema`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) != 2 {
				return usage(fmt.Errorf("compare takes two result files, OLD and NEW (got %d)", len(args)))
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			return runCompare(cmd.Context(), o, args[0], args[1], env)
		},
	}
	o.AddFlags(cmd.Flags())
	return cmd
}

// parsePercent reads "10%" or "10" as a fraction, a finite one from 0 up.
func parsePercent(s string) (float64, error) {
	v, _ := strings.CutSuffix(s, "%")
	f, err := strconv.ParseFloat(v, 64)
	if err != nil || !(f >= 0) || math.IsInf(f, 0) {
		return 0, fmt.Errorf("%q is not a percentage such as 10%%", s)
	}
	return f / 100, nil
}

func runCompare(ctx context.Context, o *compareOptions, oldPath, newPath string, env *Env) error {
	if _, err := report.Render(o.format, (*judge.Comparison)(nil), report.Options{}); err != nil {
		return usage(fmt.Errorf("--format: %w", err))
	}
	maxReg, err := parsePercent(o.maxRegression)
	if err != nil {
		return usage(fmt.Errorf("--max-regression %q: want a percentage such as 10%% (0%% to report without failing)", o.maxRegression))
	}
	policy, err := judge.ParseInconclusive(o.inconclusive)
	if err != nil {
		return usage(err)
	}
	for _, n := range o.differ {
		if !slices.Contains(result.Inputs, n) {
			return usage(fmt.Errorf("--differ %q: want an input of the workload, %s", n, strings.Join(result.Inputs, " or ")))
		}
	}
	var metrics []judge.Metric
	for _, m := range o.metrics {
		mt, err := judge.ParseMetric(m)
		if err != nil {
			return usage(fmt.Errorf("--metric: %w", err))
		}
		metrics = append(metrics, mt)
	}
	old, err := readSuite(ctx, env, oldPath)
	if err != nil {
		return err
	}
	new, err := readSuite(ctx, env, newPath)
	if err != nil {
		return err
	}
	explicit := metrics != nil
	if !explicit {
		metrics = judge.DefaultMetrics(old)
	}
	c, err := judge.Compare(oldPath, old, newPath, new, metrics, judge.CompareOptions{MaxRegression: maxReg, Explicit: explicit, Differ: o.differ})
	if d, ok := result.IsInputsDiffer(err); ok {
		return usage(fmt.Errorf("%w (compare them anyway with --differ %s)", err, strings.Join(d.Names, ",")))
	}
	if err != nil {
		return usage(err)
	}
	render, err := report.Render(o.format, c, report.Options{})
	if err != nil {
		return err
	}
	if err := render(env.Stdout); err != nil {
		return fmt.Errorf("writing the comparison: %w", err)
	}
	return c.Err(policy)
}

// readSuite reads a result file (a run or a suite), as readInput reads,
// with its settings named as today's engines name them (a result written
// before engines named their options reads, compares and merges with
// today's).
func readSuite(ctx context.Context, env *Env, path string) (*result.Suite, error) {
	return readInput(ctx, env, path, readNamed(env.registry()))
}

// readNamed returns a reader of a result file whose runs reg's engines
// name (result.Suite.Named).
func readNamed(reg *store.Registry) func(io.Reader) (*result.Suite, error) {
	return func(r io.Reader) (*result.Suite, error) {
		s, err := result.ReadSuite(r)
		if err != nil {
			return nil, err
		}
		return s.Named(reg)
	}
}

// readInput opens path and decodes it with decode, through ctx, so an
// interrupt stops the reading of a slow or endless input; what cannot be
// opened or decoded is a usage error naming the file, and a regular file
// larger than any result is refused before it is read.
func readInput[T any](ctx context.Context, env *Env, path string, decode func(io.Reader) (T, error)) (T, error) {
	var zero T
	if fi, err := env.FS.Stat(path); err == nil && fi.Mode().IsRegular() {
		if err := result.CheckSize(fi.Size()); err != nil { // refused unread: its size says enough
			return zero, usage(fmt.Errorf("%s: %w", path, err))
		}
	}
	f, err := env.FS.Open(path)
	if err != nil {
		return zero, usage(err)
	}
	defer f.Close()
	if d, ok := f.(interface{ SetReadDeadline(time.Time) error }); ok {
		// An interrupt ends a read that waits (a FIFO whose writer is
		// silent), not only the next one.
		stop := context.AfterFunc(ctx, func() { _ = d.SetReadDeadline(time.Unix(1, 0)) })
		defer stop()
	}
	v, err := decode(ctxReader{ctx, f})
	switch {
	case ctx.Err() != nil:
		return zero, ctx.Err()
	case err != nil:
		return zero, usage(fmt.Errorf("%s: %w", path, err))
	}
	return v, nil
}

// ctxReader stops reading once ctx is done: an interrupt ends the reading
// of a slow or endless input (a FIFO, a device) at the next read.
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p)
}

var errNoInputs = errors.New("merge takes at least one result file")
