// Package capacity finds the highest open-loop rate a workload sustains
// while meeting latency objectives: a closed-loop probe bounds the search,
// rates rise geometrically until one fails, a bisection narrows the gap to
// a tolerance, and longer runs at the rate found must confirm it.
//
// The package knows nothing of how a step runs: a [Search] is given a
// function that runs one open-loop step at a rate (or the closed-loop
// probe) and returns its result. Steps are judged by absolute gates
// ("upsert p99 <= 5ms", see judge.ParseExpectation) on the corrected
// latency (from each op's due time), and by two implicit conditions: the
// step completed at least MinAchieved of the ops it was offered, and at
// most MaxErrorShare of them failed.
package capacity

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/gobench/gobench/pkg/judge"
	"github.com/gobench/gobench/pkg/result"
)

// Defaults of a Search.
const (
	DefaultTolerance     = 0.05
	DefaultStep          = 5 * time.Second
	DefaultConfirmFactor = 3
	// DefaultConfirmations: the rate found must pass three long runs in a
	// row. Near the knee a long run's p99 varies from run to run (a
	// checkpoint or a journal sync stall lands in it or not); one pass
	// would often take a rate that most runs miss.
	DefaultConfirmations = 3
	// DefaultMinAchieved: a step must complete 95% of the ops offered.
	DefaultMinAchieved = 0.95
	// DefaultMaxErrorShare: at most 1% of a step's ops may fail (busy
	// timeouts included).
	DefaultMaxErrorShare = 0.01
	// startDivisor sets the first rate tried: the ceiling divided by it.
	startDivisor = 16
	// maxConfirmations bounds the rounds of confirmation: steps down
	// after failed ones, then the bisection up after one held.
	maxConfirmations = 12
	// stepDownsByTolerance is how many failed rounds step down by the
	// tolerance before the steps down widen (see finder.confirm).
	stepDownsByTolerance = 3
	// minRate is the lowest rate a search goes down to, whatever MinRate.
	minRate = 1
)

// RunFunc runs one step: open loop at rate ops/s over all workers for
// length (after an unmeasured settle of its own), or with rate 0 the
// closed-loop probe. It returns the step's result.
type RunFunc func(ctx context.Context, rate float64, length time.Duration) (*result.Result, error)

// Search is one capacity search: its objectives, bounds and step lengths.
type Search struct {
	// Objectives are absolute gates without cell selectors, all of which
	// a step must meet.
	Objectives []judge.Expectation
	// RateMax, when positive, bounds the search instead of the
	// closed-loop probe.
	RateMax float64
	// MinRate is the lowest rate worth trying; below it the search says
	// nothing was met. It is at least 1 op/s, and with Workers set at
	// least ten ops per worker a step: fewer, and a percentile says little.
	MinRate float64
	Workers int
	// Tolerance ends the bisection: the gap between the highest rate met
	// and the lowest failed, as a share of the former.
	Tolerance float64
	// Step is the measured length of each step; a confirmation runs
	// ConfirmFactor times as long, Confirmations times.
	Step          time.Duration
	ConfirmFactor float64
	Confirmations int
	MinAchieved   float64
	MaxErrorShare float64
	// Run runs the steps.
	Run RunFunc
	// Observe, if set, is told of every step as it ends.
	Observe func(result.CapacityStep)
}

// ParseObjectives reads a --find-rate value: absolute gates joined with
// commas, such as "upsert p99 <= 5ms, read p99 <= 1ms".
func ParseObjectives(s string) ([]judge.Expectation, error) {
	var out []judge.Expectation
	for part := range strings.SplitSeq(s, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		if len(strings.Fields(part)) < 3 {
			// judge's error would give --expect's syntax, comparisons of cells included
			return nil, fmt.Errorf("objective %q: want 'NAME STATISTIC OP LIMIT', such as 'upsert p99 <= 5ms' (several joined with commas)", part)
		}
		e, err := judge.ParseExpectation(part)
		if err != nil {
			return nil, fmt.Errorf("objective %q: %s", part, strings.TrimPrefix(err.Error(), fmt.Sprintf("--expect %q: ", part)))
		}
		if !e.Absolute || e.Cells != "" {
			return nil, fmt.Errorf("objective %q: want a condition on one run, such as 'upsert p99 <= 5ms' (no cells, no comparison between them)", part)
		}
		if e.Metric.HigherIsBetter() {
			return nil, fmt.Errorf("objective %q: judge latency (p50, p90, p99, p99.9, max, mean); the rate is what the search finds", part)
		}
		out = append(out, e)
	}
	if len(out) == 0 {
		return nil, errors.New("no objective: want one such as 'upsert p99 <= 5ms'")
	}
	return out, nil
}

// withDefaults fills the zero fields and raises MinRate to its floor.
func (s Search) withDefaults() Search {
	if s.Tolerance <= 0 {
		s.Tolerance = DefaultTolerance
	}
	if s.Step <= 0 {
		s.Step = DefaultStep
	}
	if s.ConfirmFactor <= 0 {
		s.ConfirmFactor = DefaultConfirmFactor
	}
	if s.Confirmations <= 0 {
		s.Confirmations = DefaultConfirmations
	}
	if s.MinAchieved <= 0 {
		s.MinAchieved = DefaultMinAchieved
	}
	if s.MaxErrorShare <= 0 {
		s.MaxErrorShare = DefaultMaxErrorShare
	}
	s.MinRate = max(s.MinRate, minRate, 10*float64(s.Workers)/s.Step.Seconds())
	return s
}

// Find runs the search and returns its curve. An error from a step ends
// the search: the curve holds the steps so far, marked incomplete.
func (s Search) Find(ctx context.Context) (result.CapacityCurve, error) {
	s = s.withDefaults()
	f := &finder{s: s, curve: result.CapacityCurve{Complete: true}}
	err := f.find(ctx)
	if err != nil {
		f.curve.Complete = false
		f.curve.Problems = append(f.curve.Problems, err.Error())
	}
	return f.curve, err
}

// finder is a search under way.
type finder struct {
	s     Search
	curve result.CapacityCurve
}

func (f *finder) find(ctx context.Context) error {
	ceiling := f.s.RateMax
	if ceiling <= 0 {
		r, err := f.s.Run(ctx, 0, f.s.Step)
		if err != nil {
			return fmt.Errorf("the closed-loop probe: %w", err)
		}
		f.curve.Environment = r.Environment
		ceiling = achieved(r)
		if ceiling <= 0 {
			return errors.New("the closed-loop probe completed no op")
		}
	}
	f.curve.Ceiling = ceiling
	lo, hi, err := f.bracket(ctx, ceiling)
	if err != nil || lo == 0 {
		return err // lo == 0: not even the lowest rate met the objectives
	}
	for hi > 0 && (hi-lo)/lo > f.s.Tolerance {
		mid := math.Sqrt(lo * hi)
		met, err := f.step(ctx, mid, f.s.Step, false)
		if err != nil {
			return err
		}
		if met {
			lo = mid
		} else {
			hi = mid
		}
	}
	return f.confirm(ctx, lo)
}

// bracket finds two rates a factor of two apart, the lower met and the
// higher not: from the ceiling's 1/16th it doubles while rates are met
// (up to the ceiling), or halves while they are not (down to MinRate).
// It returns the highest rate met (0 if none) and the lowest failed (0
// if none: the ceiling itself was met).
func (f *finder) bracket(ctx context.Context, ceiling float64) (lo, hi float64, err error) {
	rate := max(ceiling/startDivisor, f.s.MinRate)
	met, err := f.step(ctx, rate, f.s.Step, false)
	if err != nil {
		return 0, 0, err
	}
	if !met {
		for hi = rate; ; hi = rate {
			if rate = hi / 2; rate < f.s.MinRate {
				return 0, hi, nil // nothing met, down to the floor
			}
			if met, err = f.step(ctx, rate, f.s.Step, false); err != nil || met {
				return rate, hi, err
			}
		}
	}
	for lo = rate; lo < ceiling; lo = rate {
		rate = min(2*lo, ceiling)
		if met, err = f.step(ctx, rate, f.s.Step, false); err != nil || !met {
			return lo, rate, err
		}
	}
	return lo, 0, nil
}

// confirm runs rate Confirmations times for ConfirmFactor steps each, all
// of which must meet the objectives: a rate at the knee, where one long
// run meets the objective about as often as not, is not taken. The
// confirmation kept is the run with the highest p99.
//
// When a round fails, the rate steps down by the tolerance, and after
// stepDownsByTolerance such steps by twice the last step each time (at
// most by half): long runs can miss the objective far below where single
// steps met it (a checkpoint or a journal sync stall that a 5 s step
// escapes), and steps of 5% alone gave up a quarter below the bisected
// rate while rates lower still had met. A rate confirmed after a step
// wider than the tolerance is bisected upward against the lowest rate
// that failed, each point a confirmation round, until the two are within
// the tolerance (one step of it apart). Below MinRate, or after
// maxConfirmations rounds, the search gives up with Found false.
func (f *finder) confirm(ctx context.Context, rate float64) error {
	var lo, hi float64 // the highest rate confirmed, the lowest failed
	var best *result.CapacityStep
	down := f.s.Tolerance
	for round := 0; round < maxConfirmations && rate >= f.s.MinRate; round++ {
		worst, err := f.confirmRound(ctx, rate)
		if err != nil {
			return err
		}
		if worst != nil {
			lo, best = rate, worst
		} else {
			hi = rate
		}
		switch {
		case lo > 0 && (hi == 0 || lo >= hi*(1-f.s.Tolerance)*(1-1e-9)):
			f.curve.Found, f.curve.Rate, f.curve.Confirmed = true, lo, best
			return nil
		case lo > 0:
			rate = math.Sqrt(lo * hi) // bisect up toward the lowest failure
		default:
			if round >= stepDownsByTolerance {
				down = min(2*down, 0.5)
			}
			rate *= 1 - down
		}
	}
	if lo > 0 { // rounds ran out while bisecting: the highest confirmed stands
		f.curve.Found, f.curve.Rate, f.curve.Confirmed = true, lo, best
	}
	return nil // not confirmed: Found stays false
}

// confirmRound runs rate Confirmations times for ConfirmFactor steps
// each and returns the step with the highest p99, or nil when one did
// not meet the objectives (the round stops there).
func (f *finder) confirmRound(ctx context.Context, rate float64) (*result.CapacityStep, error) {
	length := time.Duration(float64(f.s.Step) * f.s.ConfirmFactor)
	var worst *result.CapacityStep
	for range f.s.Confirmations {
		met, err := f.step(ctx, rate, length, true)
		if err != nil || !met {
			return nil, err
		}
		if last := f.curve.Steps[len(f.curve.Steps)-1]; worst == nil || last.P99Micros > worst.P99Micros {
			worst = &last
		}
	}
	return worst, nil
}

// step runs one open-loop step and judges it.
func (f *finder) step(ctx context.Context, rate float64, length time.Duration, confirmation bool) (bool, error) {
	r, err := f.s.Run(ctx, rate, length)
	if err != nil {
		return false, fmt.Errorf("the step at %.0f ops/s: %w", rate, err)
	}
	if f.curve.Environment.OS == "" {
		f.curve.Environment = r.Environment
	}
	st, err := f.judge(r, rate)
	if err != nil {
		return false, err
	}
	st.Confirmation = confirmation
	f.curve.Steps = append(f.curve.Steps, st)
	if f.s.Observe != nil {
		f.s.Observe(st)
	}
	return st.Met, nil
}

// judge reads a step's figures and gives its verdicts: the objectives,
// then the achieved rate, then the errors.
func (f *finder) judge(r *result.Result, offered float64) (result.CapacityStep, error) {
	ph := r.Phases[0]
	t := ph.Total
	st := result.CapacityStep{Offered: offered, Achieved: achieved(r), Ops: t.Count, Errors: t.Errors.Total,
		P50Micros: t.P50Micros, P99Micros: t.P99Micros, MaxMicros: t.MaxMicros, Seconds: ph.WallSeconds}
	if t.Service != nil {
		st.ServiceP99Micros = t.Service.P99Micros
	}
	gates, met, err := meets(r, f.s.Objectives)
	if err != nil {
		return st, err
	}
	st.Met = met
	share := 0.0
	if t.Count > 0 {
		share = float64(t.Errors.Total) / float64(t.Count)
	}
	implicit := []result.Gate{
		{Expression: fmt.Sprintf("achieved rate >= %g%% of offered", 100*f.s.MinAchieved), Op: ">=", Unit: "ops/s",
			Value: st.Achieved, Threshold: offered * f.s.MinAchieved, Pass: st.Achieved >= offered*f.s.MinAchieved},
		{Expression: fmt.Sprintf("errors <= %g%% of ops", 100*f.s.MaxErrorShare), Op: "<=", Unit: "%",
			Value: 100 * share, Threshold: 100 * f.s.MaxErrorShare, Pass: share <= f.s.MaxErrorShare},
	}
	for i := range implicit {
		g := &implicit[i]
		g.Verdict = verdict(g)
		st.Met = st.Met && g.Pass
	}
	st.Verdicts = append(gates, implicit...)
	return st, nil
}

// meets judges one run by objectives: their gates, and whether all
// passed.
func meets(r *result.Result, objectives []judge.Expectation) ([]result.Gate, bool, error) {
	suite, err := result.NewSuite(r.Command, "single", []*result.Result{r}, "")
	if err != nil {
		return nil, false, err
	}
	gates, err := judge.EvaluateFigures(suite, objectives)
	if err != nil {
		return nil, false, err
	}
	met := true
	for _, g := range gates {
		met = met && g.Pass
	}
	return gates, met, nil
}

func verdict(g *result.Gate) string {
	word := "met"
	if !g.Pass {
		word = "NOT met"
	}
	return fmt.Sprintf("%s: %s (%.4g %s)", word, g.Expression, g.Value, g.Unit)
}

// achieved is a run's completed ops per second, failed ones included:
// what the workers got through of what they were offered, over the
// step's length (or longer, when the last op ended after it; a step whose
// last op was due early must not look faster than its schedule).
func achieved(r *result.Result) float64 {
	ph := r.Phases[0]
	secs := ph.WallSeconds
	if len(r.Plan.Phases) > 0 {
		secs = max(secs, time.Duration(r.Plan.Phases[0].Duration).Seconds())
	}
	if secs <= 0 {
		return 0
	}
	return float64(ph.Total.Count) / secs
}
