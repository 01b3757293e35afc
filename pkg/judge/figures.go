package judge

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"

	"github.com/gobench/gobench/pkg/bytesize"
	"github.com/gobench/gobench/pkg/result"
	"github.com/gobench/gobench/pkg/units"
	"github.com/gobench/gobench/pkg/workload"
)

// Figure is one row of the table of figures: a statistic a run reports,
// with what gates, comparisons, suite tables and reports need to read,
// judge and print it. A new figure is its compute function (Read) and
// its row in Figures.
type Figure struct {
	// Name names the figure. A figure of each op kind (PerKind) is named
	// after the kind, "read p99" or "total ops/s": Name is its statistic.
	// Any other is named whole: "cpu µs/op", "lost acked writes".
	Name    string
	PerKind bool
	// Aliases are other spellings of the name ParseMetric takes.
	Aliases []string
	// Doc says in a line what the figure is, for help and docs.
	Doc string
	// Unit names what a value counts, in tables and gate results.
	Unit string
	// Higher says a higher value is better; Neutral that neither
	// direction is (a share of the disk's fsync rate grows with commits
	// and with syncs per commit alike): its factors name no winner and
	// comparisons do not judge it.
	Higher, Neutral bool
	// Scale says how a gate's limit is written: Rate, Latency, Percent
	// or Number.
	Scale Scale
	// Quantile, for a latency percentile, is its q in percent (99 for
	// p99): a run needs ops enough under it for the figure to be read
	// from its own samples. 100 is the max, which is one op.
	Quantile float64
	// Read returns the figure's value in a run's first phase (for op
	// kind kind, a PerKind figure), and false where the run has none.
	Read func(r *result.Result, kind string) (float64, bool)
	// Latency, for a latency statistic of an op kind (its mean, a
	// percentile, its max), reads it from a summary of latencies: an op
	// kind's in any phase, or its service time's, its schedule lag's, its
	// lock waits'. A run's tables read their columns with it (see
	// LatencyStats); false where the summary has no value.
	Latency func(l result.Latency) (float64, bool)
	// Missing, if set, says why a run has no value (Read's false): not
	// measured is never zero, and a report prints "–" with this reason.
	// Nil: "no such op ran".
	Missing func(r *result.Result) string
	// Format renders a value as a table cell; Tag renders it with its
	// unit, for a line of words ("1.01 syncs/commit").
	Format, Tag func(v float64) string
	// Needs, if set, says why a run of plan p (with a measured fsync
	// ceiling or not) can have no value, before it runs; nil: any can.
	Needs func(p *workload.Plan, ceiling bool) error
	// Summary, if set, says whether a run's value belongs in a suite's
	// default figures; nil: whenever it has one.
	Summary func(r *result.Result) bool
	// Machine says the figure moves with the machine's state (processor
	// time per op moves with a busy neighbour): comparisons across
	// invocations judge it only when the machine held.
	Machine bool
	// Line lists the figure, where a run has it, on the figures line of
	// the run's text report: the figures it shows nowhere else.
	Line bool
	// BeforeKinds puts the figure, in a suite's default figures, before
	// those of each op kind; the rest come after them.
	BeforeKinds bool
	// Shown says a comparison (compare, ab) shows the figure among its
	// default rows without judging it; asked for by name (--metric) it
	// is judged.
	Shown bool
	// Range, if set, is the closed interval every value of the figure
	// lies in (Jain's index within [0, 1], a share of ops within
	// [0, 100]): a gate whose limit can never pass, or always passes,
	// is refused with the range.
	Range *Range
}

// Range is the closed interval a bounded figure's values lie in.
type Range struct{ Lo, Hi float64 }

// checkLimit refuses a gate "OP limit" on metric name, of figure f, that
// judges nothing. On a figure bounded by its Range: one no value in the
// range can pass, or every value passes. On any other: one no value at
// or above 0 can pass ("< 0", "< 0s"), as every figure is a rate, a
// latency, a count, a share or a ratio, none ever negative; a gate every
// such value passes ("errors >= 0") is kept, as a gate that must pass.
func (f *Figure) checkLimit(name, op string, limit float64, written string) error {
	if f.Range != nil {
		return f.Range.checkLimit(f, op, limit, written)
	}
	if (op == "<" && limit <= 0) || ((op == "<=" || op == "==") && limit < 0) {
		return fmt.Errorf("%s (%s) is never negative: a gate %q can never pass", name, f.Unit, op+" "+written)
	}
	return nil
}

// checkLimit refuses a gate "OP limit" on a figure bounded by r that no
// value in r can pass, or that every value in r passes: such a gate
// judges nothing.
func (r *Range) checkLimit(f *Figure, op string, limit float64, written string) error {
	var never, always bool
	switch op {
	case ">":
		never, always = limit >= r.Hi, limit < r.Lo
	case ">=":
		never, always = limit > r.Hi, limit <= r.Lo
	case "<":
		never, always = limit <= r.Lo, limit > r.Hi
	case "<=":
		never, always = limit < r.Lo, limit >= r.Hi
	case "==":
		never = limit < r.Lo || limit > r.Hi
	}
	if !never && !always {
		return nil
	}
	verdict := "can never pass"
	if always {
		verdict = "always passes"
	}
	unit := ""
	if f.Scale == Percent {
		unit = "%"
	}
	return fmt.Errorf("%s (%s) lies between %g%s and %g%s: a gate %q %s", f.Name, f.Unit, r.Lo, unit, r.Hi, unit, op+" "+written, verdict)
}

// Scale is how a gate's limit for a figure is written.
type Scale int

// The scales of limits.
const (
	// Rate: a number, optionally with k or M ("500", "1.5k", "2M").
	Rate Scale = iota
	// Latency: a duration with its unit, read in µs ("800µs", "2ms").
	Latency
	// Percent: a percentage, optionally with % ("50%").
	Percent
	// Number: a plain number ("0", "2.5").
	Number
)

// opStats are the statistics of every op kind, in the order tables list
// them.
var opStats = []string{"ops/s", "mean", "p50", "p90", "p99", "p99.9", "max"}

// Figures is the table of figures, in the order a suite's default figures
// list them (within their place: before or after each op kind's).
var Figures = []*Figure{
	perKind("ops/s", "ops completed per second, failed ops left out", 0, func(o result.OpStats) float64 { return o.OpsPerSec }),
	latencyStat("mean", "mean latency", 0, stored(func(l result.Latency) float64 { return l.MeanMicros })),
	latencyStat("p50", "median latency", 50, stored(func(l result.Latency) float64 { return l.P50Micros })),
	latencyStat("p90", "90th percentile latency", 90, stored(func(l result.Latency) float64 { return l.P90Micros })),
	latencyStat("p99", "99th percentile latency", 99, stored(func(l result.Latency) float64 { return l.P99Micros })),
	latencyStat("p99.9", "99.9th percentile latency", 99.9, stored(func(l result.Latency) float64 { return l.P999Micros })),
	latencyStat("max", "the slowest op's latency", 100, stored(func(l result.Latency) float64 { return l.MaxMicros })),
	{
		Name: "cpu µs/op", Aliases: []string{"cpu us/op"}, Doc: "processor time per data op, every worker's (see result.CPU)",
		Unit: "µs of CPU per op", Scale: Latency, Machine: true, BeforeKinds: true,
		Read: func(r *result.Result, _ string) (float64, bool) {
			if c := r.Phases[0].CPU; c != nil {
				return c.MicrosPerOp, true
			}
			return 0, false
		},
		Format: units.Micros, Tag: func(v float64) string { return units.Micros(v) + " CPU/op" },
		Missing: func(*result.Result) string { return "processor time was not measured" },
	},
	{
		Name: "commits ops/s", Doc: "acknowledged commits of writes per second",
		Unit: "ops/s", Higher: true, Scale: Rate,
		Read:   func(r *result.Result, _ string) (float64, bool) { return r.CommitsPerSec(0) },
		Format: units.Rate, Tag: func(v float64) string { return units.Rate(v) + " ops/s" },
		Needs: needsCommits, Summary: hasCeiling, Missing: func(*result.Result) string { return "no write committed" },
	},
	{
		Name: "commits fsync%", Doc: "the syncs commits made per second (one each where the engine's I/O is not traced), as a share of the disk's fsync rate (--ceiling)",
		Unit: "% of the disk's fsync/s", Neutral: true, Scale: Percent,
		Read: readFsyncShare, Missing: func(r *result.Result) string {
			if r.Environment.Ceiling == nil {
				return "the disk's fsync rate was not measured (--ceiling)"
			}
			return "no commits"
		}, Format: func(v float64) string { return units.Sig3(v) + "%" },
		Tag: func(v float64) string { return units.Sig3(v) + "%" },
		Needs: func(p *workload.Plan, ceiling bool) error {
			if err := needsCommits(p, ceiling); err != nil {
				return err
			}
			if !ceiling {
				return fmt.Errorf("commits fsync%% is a share of the disk's fsync rate: give --ceiling to measure it")
			}
			return nil
		},
		Summary: hasCeiling,
	},
	fairFigure(&Figure{
		Name: "fairness", Shown: true, Doc: "Jain's index over the workers' acknowledged ops/s, each over its own time: 1 when every worker was served alike, 1/n when one was served alone",
		Unit: "Jain's index", Higher: true, Scale: Number, Format: fixed2, Tag: func(v float64) string { return fixed2(v) + " (Jain's index)" },
		Read: fairnessFigure(func(f Fairness) (float64, bool) { return f.Index, true }), Range: &Range{0, 1},
	}, "fewer than two workers finished"),
	fairFigure(&Figure{
		Name: "write fairness", Shown: true, Doc: "Jain's index over the workers' acknowledged writes per second",
		Unit: "Jain's index of writes", Higher: true, Scale: Number, Format: fixed2, Tag: func(v float64) string { return fixed2(v) + " (Jain's index of writes)" },
		Read: fairnessFigure(func(f Fairness) (float64, bool) { return f.WriteIndex, !math.IsNaN(f.WriteIndex) }), Range: &Range{0, 1},
	}, "fewer than two workers finished, or none acknowledged a write"),
	fairFigure(&Figure{
		Name: "worker max gap", Shown: true, Doc: "the longest any worker completed nothing: from the start to its first completion, between two, or, in a phase of a duration, from its last to the phase's end",
		Unit: "µs without a completion", Scale: Latency, Format: units.Micros, Tag: func(v float64) string { return units.Micros(v) + " without a completion" },
		Read: fairnessFigure(func(f Fairness) (float64, bool) { return f.MaxGapMicros, f.HasGaps }),
	}, "the workers' gaps were not kept"),
	ioFigure(countFigure("io syncs/commit", "syncs the kernel received per acknowledged commit, where the engine's I/O is traced",
		"syncs per commit", " syncs/commit", func(v float64) string { return units.Fixed(v, 2) },
		func(r *result.Result) (float64, bool) {
			if io := r.Phases[0].IO; io != nil && io.Commits > 0 {
				return io.SyncsPerCommit, true
			}
			return 0, false
		})),
	ioFigure(countFigure("io bytes/commit", "bytes written per acknowledged commit, where the engine's I/O is traced",
		"bytes per commit", "/commit", func(v float64) string { return bytesize.Units{}.Round(int64(math.Round(v))) },
		func(r *result.Result) (float64, bool) {
			if io := r.Phases[0].IO; io != nil && io.Commits > 0 {
				return io.BytesPerCommit, true
			}
			return 0, false
		})),
	lineFigure(countFigure("space amplification", "the space the database takes on disk after the run (allocated blocks) per byte of the live data it holds (keys and values as an application counts them), from 64 MiB of live data on (below, the engines' fixed files make it)",
		"× the live data", "× the live data on disk", func(v float64) string { return units.Fixed(v, 2) },
		func(r *result.Result) (float64, bool) {
			if sp := r.Space; sp != nil && sp.Amplification > 0 && sp.LiveBytes >= MinSpaceLiveBytes {
				return sp.Amplification, true
			}
			return 0, false
		}), "the database's space and live data were not measured", spaceMissing),
	lineFigure(countFigure("worker rss", "peak resident memory of the largest worker process of the run, as each reported it (in goroutine mode, the run's own peak of the one process hosting the workers): Linux only",
		"bytes", " peak worker RSS", func(v float64) string { return bytesize.Units{}.Round(int64(math.Round(v))) },
		func(r *result.Result) (float64, bool) {
			return float64(r.WorkerMaxRSSBytes), r.WorkerMaxRSSBytes > 0
		}), "the workers' memory was not measured"),
	replayFigure("diverged statements", "statements of a replayed trace that did something else than when captured: other rows or changes, another outcome",
		"statements", " diverged", func(r *result.Result) (float64, bool) {
			if rp := r.Plan.Replay; rp != nil {
				if judged, _ := rp.Judged(); !judged {
					return 0, false // a scaled replay, or a window from a later start: not judged, so no gate passes on it
				}
			}
			return float64(r.Phases[0].Total.Diverged), true
		}),
	replayFigure("db differences", "tables of a replayed trace's database that did not end as the capture's did (0: the same rows in every table)",
		"tables", " tables differ", func(r *result.Result) (float64, bool) {
			if r.Replay == nil || !r.Replay.Compared {
				return 0, false
			}
			return float64(len(r.Replay.Differences)), true
		}),
	{
		Name: "committed tx/s", Aliases: []string{"committed transactions/s"}, Doc: "transactions a replayed trace committed per second, as they committed when captured",
		Unit: "transactions/s", Higher: true, Scale: Rate, BeforeKinds: true,
		Read: func(r *result.Result, _ string) (float64, bool) {
			ph := &r.Phases[0]
			if !r.Plan.Recorded() || ph.WallSeconds <= 0 {
				return 0, false
			}
			return float64(ph.Total.Commits) / ph.WallSeconds, true
		},
		Format: units.Rate, Tag: func(v float64) string { return units.Rate(v) + " transactions/s" },
		Needs: needsReplay, Summary: isReplay,
	},
	crashFigure(countFigure("lost acked writes", "the most acknowledged writes one simulated power cut lost (--crash; none where they were not checked)",
		"acknowledged writes lost, the most in one crash state", " lost", formatCount,
		checkedWrites(func(d *result.Durability) float64 { return float64(d.MaxLost) }))),
	crashFigure(countFigure("corrupt states", "simulated power cuts that left a database that would not open or failed its checks (--crash)",
		"crash states", " states", formatCount, durability(func(d *result.Durability) float64 { return float64(d.Corrupt) }))),
	crashFigure(countFigure("lossy states", "simulated power cuts that lost acknowledged writes (--crash; none where they were not checked)",
		"crash states", " states", formatCount, checkedWrites(func(d *result.Durability) float64 { return float64(d.Lossy) }))),
	errorFigure(countFigure("errors", "data ops that failed, every class (ops/s counts the others; latency includes them)",
		"failed ops", " failed", formatCount, func(r *result.Result) (float64, bool) { return float64(r.Phases[0].Total.Errors.Total), true })),
	scenarioFigure(errorFigure(countFigure("busy errors", "data ops that failed busy or locked: the lock was not had within the busy timeout or the retry budget (SQLITE_BUSY, SQLITE_LOCKED)",
		"ops failed busy", " failed busy", formatCount, func(r *result.Result) (float64, bool) {
			e := r.Phases[0].Total.Errors
			return float64(e.Busy + e.Locked), true
		}))),
	errorFigure(&Figure{Name: "error rate", Doc: "failed data ops as a share of those attempted",
		Unit: "% of ops failed", Scale: Percent, Range: &Range{0, 100}, Format: func(v float64) string { return units.Sig3(v) + "%" },
		Tag: func(v float64) string { return units.Sig3(v) + "% failed" },
		Read: func(r *result.Result, _ string) (float64, bool) {
			t := r.Phases[0].Total
			if t.Count == 0 {
				return 0, false
			}
			return 100 * float64(t.Errors.Total) / float64(t.Count), true
		}, Missing: func(*result.Result) string { return "no op ran" }}),
	scenarioFigure(countFigure("wal peak", "the write-ahead log's largest size in the phase, sampled five times a second (WAL journal)",
		"bytes of WAL", " of WAL at its peak", func(v float64) string { return bytesize.Units{}.Round(int64(math.Round(v))) },
		walFigure(func(w *result.WALTimeline) float64 { return float64(w.MaxBytes) })), walMissing),
	scenarioFigure(countFigure("wal resets", "times writers started the write-ahead log over after a checkpoint had copied all of it (WAL journal): 0 while readers kept every checkpoint from completing",
		"WAL resets", " WAL resets", formatCount, walFigure(func(w *result.WALTimeline) float64 { return float64(w.Resets) })), higher, walMissing),
}

// ioFigure marks a figure of a run's traced I/O: a run of an engine that
// does not trace it has none, said so.
func ioFigure(f *Figure) *Figure {
	f.Missing = func(r *result.Result) string {
		if r.Phases[0].IO == nil {
			return "I/O not traced (driver " + r.Plan.Driver + ")"
		}
		return "no commits"
	}
	return f
}

// crashFigure marks a figure of --crash's power cuts: a run without it
// has none, and a run whose acknowledged writes were not checked has no
// count of lost ones.
func crashFigure(f *Figure) *Figure {
	f.Missing = func(r *result.Result) string {
		if d := r.Durability; d != nil && d.NotChecked != "" {
			return "acknowledged writes not checked: " + d.NotChecked
		}
		return "no --crash"
	}
	return f
}

// errorFigure marks a count of failed ops: a suite lists it where a run
// had some (a table of zeros says nothing the errors column does not).
func errorFigure(f *Figure) *Figure {
	f.Summary = func(r *result.Result) bool {
		v, ok := f.Read(r, "")
		return ok && v > 0
	}
	return f
}

// scenarioFigure lists f among a suite's default figures in a scenario's
// runs (gobench scenario), whose gates read it, as well as wherever f's
// own Summary, if any, lists it; elsewhere a gate or --metric names it.
func scenarioFigure(f *Figure, opts ...func(*Figure)) *Figure {
	for _, o := range opts {
		o(f)
	}
	own := f.Summary
	f.Summary = func(r *result.Result) bool {
		if _, ok := f.Read(r, ""); ok && r.Plan.Scenario != "" {
			return true
		}
		return own != nil && own(r)
	}
	return f
}

// higher makes a figure better higher.
func higher(f *Figure) { f.Higher = true }

// walMissing says why a run has no figure of its write-ahead log.
func walMissing(f *Figure) {
	f.Missing = func(*result.Result) string { return "the write-ahead log was not sampled (WAL journal)" }
}

// fairFigure is a figure of fairness between workers; a run without it
// says missing.
func fairFigure(f *Figure, missing string) *Figure {
	f.Missing = func(*result.Result) string { return missing }
	return f
}

// walFigure reads a figure of the first phase's write-ahead log, where
// one was sampled.
func walFigure(of func(*result.WALTimeline) float64) func(*result.Result) (float64, bool) {
	return func(r *result.Result) (float64, bool) {
		if w := r.Phases[0].WAL; w != nil {
			return of(w), true
		}
		return 0, false
	}
}

// fairnessFigure reads a figure of a run's first phase's fairness (see
// FairnessOf): none with fewer than two workers.
func fairnessFigure(of func(Fairness) (float64, bool)) func(*result.Result, string) (float64, bool) {
	return func(r *result.Result, _ string) (float64, bool) {
		f, ok := FairnessOf(&r.Phases[0])
		if !ok {
			return 0, false
		}
		return of(f)
	}
}

// fixed2 renders an index to two decimals.
func fixed2(v float64) string { return units.Fixed(v, 2) }

// perKind returns the row of a statistic of every op kind: its rate.
func perKind(stat, doc string, q float64, of func(result.OpStats) float64) *Figure {
	return &Figure{Name: stat, PerKind: true, Doc: doc, Quantile: q, Read: func(r *result.Result, kind string) (float64, bool) {
		o, ok := opOf(&r.Phases[0], kind)
		return of(o), ok
	}, Unit: "ops/s", Higher: true, Scale: Rate, Format: units.Rate, Tag: func(v float64) string { return units.Rate(v) + " ops/s" }}
}

// latencyStat returns the row of a latency statistic of every op kind
// (quantile q, 0 for the mean, 100 for the max), in µs.
func latencyStat(stat, doc string, q float64, of func(result.Latency) (float64, bool)) *Figure {
	return &Figure{Name: stat, PerKind: true, Doc: doc, Quantile: q, Latency: of,
		Read: func(r *result.Result, kind string) (float64, bool) {
			o, ok := opOf(&r.Phases[0], kind)
			if !ok {
				return 0, false
			}
			return of(o.Latency)
		}, Unit: "µs", Scale: Latency, Format: units.Micros, Tag: units.Micros}
}

// stored reads a statistic every latency summary stores.
func stored(of func(result.Latency) float64) func(result.Latency) (float64, bool) {
	return func(l result.Latency) (float64, bool) { return of(l), true }
}

// opOf returns the stats of op kind kind in a phase, its total for
// "total".
func opOf(ph *result.Phase, kind string) (result.OpStats, bool) {
	if kind == "total" {
		return ph.Total, true
	}
	return ph.Op(kind)
}

// percentileName matches the statistic of any percentile: p95, p99.99.
var percentileName = regexp.MustCompile(`^p[0-9]+(\.[0-9]+)?$`)

// percentileFigure returns the row of any percentile of an op kind's
// latency, pN with N strictly between 0 and 100 ("p95", "p99.99"), read
// from the histogram every result keeps of each op kind (the rows of
// Figures hold the percentiles results also store, p50 … p99.9); nil when
// stat names no percentile. A percentile q needs samplesFor(q) ops a run
// to be read from its own samples, as the rows' do.
func percentileFigure(stat string) *Figure {
	if !percentileName.MatchString(stat) {
		return nil
	}
	q, err := strconv.ParseFloat(stat[1:], 64)
	if err != nil || !(q > 0 && q < 100) {
		return nil
	}
	n := strconv.FormatFloat(q, 'f', -1, 64)
	return latencyStat("p"+n, "the latency's percentile "+n+", read from the op kind's histogram", q,
		func(l result.Latency) (float64, bool) { return l.Percentile(q) })
}

// percentileFamily is the row the tables of figures (FigureNames,
// FiguresMarkdown, MetricHelp) list for every percentile no row of
// Figures holds (percentileFigure).
var percentileFamily = &Figure{Name: "pN", PerKind: true, Unit: "µs", Scale: Latency,
	Doc: "any other percentile of the latency, N above 0 and below 100 (`p95`, `p99.99`), read from the op kind's stored histogram; a run needs about 10/(1 − N/100) ops of the kind for it to be read from its own samples"}

// LatencyStats returns the rows of the latency statistics named, in
// order: each op kind's mean, max, or any percentile (p50, p99.99), as a
// run's table lists them (--stats). A name that is none, or that names a
// statistic of another kind (ops/s), is refused.
func LatencyStats(names []string) ([]*Figure, error) {
	var out []*Figure
	for _, n := range names {
		n = strings.TrimSpace(n)
		f := statFigure(n)
		if f == nil || f.Latency == nil {
			return nil, fmt.Errorf("statistic %q: want a latency statistic: %s", n, LatencyStatsHelp())
		}
		out = append(out, f)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no statistic: want a list of latency statistics: %s", LatencyStatsHelp())
	}
	return out, nil
}

// LatencyStatsHelp lists the latency statistics a run's table may list
// (LatencyStats), for help and errors.
func LatencyStatsHelp() string {
	var names []string
	for _, f := range Figures {
		if f.PerKind && f.Latency != nil {
			names = append(names, f.Name)
		}
	}
	return strings.Join(names, ", ") + ", or any other percentile pN (p95, p99.99)"
}

// DefaultLatencyStats are the latency statistics a run's text table lists
// per op kind unless asked otherwise (--stats).
var DefaultLatencyStats = []string{"mean", "p50", "p90", "p99", "p99.9", "max"}

// replayFigure returns the row of a count of a replayed trace's run.
func replayFigure(name, doc, unit, suffix string, read func(*result.Result) (float64, bool)) *Figure {
	f := countFigure(name, doc, unit, suffix, formatCount, func(r *result.Result) (float64, bool) {
		if !r.Plan.Recorded() {
			return 0, false
		}
		return read(r)
	})
	f.Needs, f.Summary = needsReplay, isReplay
	f.Missing = func(r *result.Result) string {
		if !r.Plan.Recorded() {
			return "not a replayed trace"
		}
		if rp := r.Plan.Replay; rp != nil {
			if judged, why := rp.Judged(); !judged {
				return "divergence " + why
			}
		}
		return "the database was not compared with the capture's"
	}
	return f
}

// needsReplay refuses a figure of a replayed trace for another run.
func needsReplay(p *workload.Plan, _ bool) error {
	if !p.Recorded() {
		return fmt.Errorf("the figure is a replayed trace's (gobench replay)")
	}
	return nil
}

// isReplay says a run replayed a trace.
func isReplay(r *result.Result) bool { return r.Plan.Recorded() }

// countFigure returns the row of a count per run, lower better: what a
// run's I/O per commit or its power cuts came to.
func countFigure(name, doc, unit, suffix string, format func(float64) string, read func(*result.Result) (float64, bool)) *Figure {
	return &Figure{Name: name, Doc: doc, Unit: unit, Scale: Number, Format: format,
		Tag:  func(v float64) string { return format(v) + suffix },
		Read: func(r *result.Result, _ string) (float64, bool) { return read(r) }}
}

// lineFigure lists f on the figures line of a run's text report; a run
// without it says missing.
func lineFigure(f *Figure, missing string, why ...func(*result.Result) string) *Figure {
	f.Line = true
	f.Missing = func(r *result.Result) string {
		for _, w := range why {
			if s := w(r); s != "" {
				return s
			}
		}
		return missing
	}
	return f
}

// MinSpaceLiveBytes is the least live data space amplification is stated
// for. Below it an engine's fixed files outweigh the data and the ratio
// says more of them than of how the engine stores data: a store holding
// one 72-byte record takes 4.4 MiB in pebble (its preallocated WAL and
// MANIFEST, 64,000×), 24–36 KiB in bbolt, LMDB and badger, 8 KiB in
// SQLite; at 64 MiB live, pebble's fixed part is under 7% of the figure
// and the others' under 0.1%.
const MinSpaceLiveBytes = 64 << 20

// spaceMissing says why a run whose space was measured has no space
// amplification: its live data was not counted (Space.NotCounted), or is
// below MinSpaceLiveBytes; "" otherwise.
func spaceMissing(r *result.Result) string {
	sp := r.Space
	if sp != nil && sp.NotCounted != "" {
		return sp.NotCounted
	}
	if sp == nil || sp.Amplification <= 0 || sp.LiveBytes >= MinSpaceLiveBytes {
		return ""
	}
	return fmt.Sprintf("the live data (%s) is below %s, where the engines' fixed files (up to 4.4 MiB, pebble's) outweigh it",
		bytesize.Units{}.Round(sp.LiveBytes), bytesize.Units{}.Round(MinSpaceLiveBytes))
}

// durability reads a figure of a --crash run's power cuts.
func durability(of func(*result.Durability) float64) func(*result.Result) (float64, bool) {
	return func(r *result.Result) (float64, bool) {
		if r.Durability == nil {
			return 0, false
		}
		return of(r.Durability), true
	}
}

// checkedWrites reads a figure of the acknowledged writes a --crash
// run's power cuts lost: none where they were not checked (a script
// without a check of its data), which is not zero.
func checkedWrites(of func(*result.Durability) float64) func(*result.Result) (float64, bool) {
	return func(r *result.Result) (float64, bool) {
		if r.Durability == nil || r.Durability.NotChecked != "" {
			return 0, false
		}
		return of(r.Durability), true
	}
}

// formatCount renders a count: whole, or to three figures.
func formatCount(v float64) string {
	if v == math.Trunc(v) && math.Abs(v) < 1e15 {
		return fmt.Sprintf("%.0f", v)
	}
	return units.Sig3(v)
}

// readFsyncShare reads the syncs commits made per second as a share of
// the disk's fsync rate: the traced syncs where the engine counts them,
// else one per commit.
func readFsyncShare(r *result.Result, _ string) (float64, bool) {
	c := r.Environment.Ceiling
	commits, ok := r.CommitsPerSec(0)
	if !ok || c == nil || c.FsyncPerSec <= 0 {
		return 0, false
	}
	if syncs, traced := r.SyncsPerSec(0); traced {
		return 100 * syncs / c.FsyncPerSec, true
	}
	return 100 * commits / c.FsyncPerSec, true
}

// needsCommits refuses a plan whose first phase commits no write.
func needsCommits(p *workload.Plan, _ bool) error {
	ph := &p.Phases[0]
	if ph.Batch <= 1 && p.Source(ph).Writes(p, ph) == 0 {
		return fmt.Errorf("the first phase's ops (%s) commit no write: there are no commits to read", strings.Join(opNamesOf(p, ph), ", "))
	}
	return nil
}

// hasCeiling reports whether the run measured the disk's fsync rate.
func hasCeiling(r *result.Result) bool { return r.Environment.Ceiling != nil }

// figureNamed returns the row a whole name (not an op kind's statistic)
// names, and nil when none does.
func figureNamed(name string) *Figure {
	name = strings.Join(strings.Fields(name), " ")
	for _, f := range Figures {
		if f.PerKind {
			continue
		}
		if f.Name == name {
			return f
		}
		for _, a := range f.Aliases {
			if a == name {
				return f
			}
		}
	}
	return nil
}

// statFigure returns the row of an op kind's statistic, nil when stat is
// none.
func statFigure(stat string) *Figure {
	for _, f := range Figures {
		if f.PerKind && f.Name == stat {
			return f
		}
	}
	return percentileFigure(stat)
}

// figureOfUnit returns the first row whose unit is unit: a gate result
// keeps its figure's unit, and is printed by it.
func figureOfUnit(unit string) *Figure {
	for _, f := range Figures {
		if f.Unit == unit {
			return f
		}
	}
	return nil
}

// FigureNames lists every figure's name as gates and --expect write it:
// an op kind's statistics as "KIND STAT", the others whole; for help and
// docs.
func FigureNames() []string {
	var out []string
	for _, f := range listed() {
		if f.PerKind {
			out = append(out, "KIND "+f.Name)
		} else {
			out = append(out, f.Name)
		}
	}
	return out
}

// listed returns the rows the tables of figures list: Figures, with the
// family of other percentiles after the statistics of each op kind.
func listed() []*Figure {
	var out []*Figure
	for i, f := range Figures {
		out = append(out, f)
		if f.PerKind && (i+1 == len(Figures) || !Figures[i+1].PerKind) {
			out = append(out, percentileFamily)
		}
	}
	return out
}

// parseLimit reads an absolute gate's limit in the figure's scale (see
// Expectation).
func (f *Figure) parseLimit(s string) (float64, error) {
	num, scale, want := s, 1.0, ""
	switch f.Scale {
	case Percent:
		num, want = strings.TrimSuffix(s, "%"), "a percentage such as 50%"
	case Number:
		want = "a number such as 0 or 2.5"
	case Rate:
		want = "a rate such as 500, 1.5k or 2M"
		if v, ok := strings.CutSuffix(s, "k"); ok {
			num, scale = v, 1e3
		} else if v, ok := strings.CutSuffix(s, "M"); ok {
			num, scale = v, 1e6
		}
	default:
		want, scale = "a latency with its unit, such as 800µs, 2ms or 1.5s", 0
		for _, u := range latencyUnits {
			if v, ok := strings.CutSuffix(s, u.suffix); ok {
				num, scale = v, u.us
				break
			}
		}
	}
	v, err := strconv.ParseFloat(num, 64)
	v *= scale // a limit that overflows once scaled is as unusable as one that overflows as written
	if err != nil || scale == 0 || !(v >= 0) || math.IsInf(v, 0) {
		return 0, fmt.Errorf("limit %q: want %s", s, want)
	}
	return v, nil
}

// latencyUnits are the units a latency limit takes, in microseconds.
var latencyUnits = []struct {
	suffix string
	us     float64
}{{"ns", 1e-3}, {"µs", 1}, {"us", 1}, {"ms", 1e3}, {"s", 1e6}}

// MetricHelp says, in the words of a command's help, which figures a gate
// names: "an op kind (or total) and one of ops/s, mean, …, or cpu µs/op,
// …". The list comes from Figures.
func MetricHelp() string {
	var stats, whole []string
	for _, f := range Figures {
		if f.PerKind {
			stats = append(stats, f.Name)
		} else {
			whole = append(whole, f.Name)
		}
	}
	return "an op kind (or total) and one of " + strings.Join(stats, ", ") + " or any percentile pN (p95, p99.99), or one of " + strings.Join(whole, ", ")
}

// FiguresMarkdown returns the table of figures as a markdown table, one
// row per figure: its name as a gate writes it, its unit, which way is
// better, how its limit is written and what it is (docs/ci.md carries
// it, kept true by a test).
func FiguresMarkdown() string {
	var b strings.Builder
	b.WriteString("| figure | unit | better | LIMIT | what it is |\n|---|---|---|---|---|\n")
	names := FigureNames()
	for i, f := range listed() {
		dir := "lower"
		switch {
		case f.Neutral:
			dir = "neither"
		case f.Higher:
			dir = "higher"
		}
		limit := f.Scale.String()
		if r := f.Range; r != nil {
			limit += fmt.Sprintf(", within %g–%g", r.Lo, r.Hi)
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s | %s |\n", names[i], f.Unit, dir, limit, f.Doc)
	}
	return b.String()
}

// String says how a limit of the scale is written.
func (s Scale) String() string {
	switch s {
	case Rate:
		return "a rate: `500`, `1.5k`, `2M`"
	case Latency:
		return "a duration: `800µs`, `2ms`"
	case Percent:
		return "a percentage: `50%`"
	}
	return "a number: `0`, `2.5`"
}
