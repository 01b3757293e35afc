package judge

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"time"

	"github.com/gobench/gobench/pkg/result"
	"github.com/gobench/gobench/pkg/units"
	"github.com/gobench/gobench/pkg/workload"
)

// judgeInterval gives a gate its verdict from an interval of its figure
// (Evaluate). The rules, each of which the verdict line names:
//
//   - A percentile q of an op kind is read, in each run, with its
//     distribution-free interval (QuantileInterval: the order statistics
//     a binomial places around the quantile, at the histogram's
//     precision). With fewer runs than an interval of the median (or of
//     the ratio) takes, or fewer than 10/(1-q) ops of the kind in a run,
//     the gate reads those intervals: an absolute gate their union, a
//     relative one the ratio of one cell's to the other's (each side at
//     95%, so the pair holds at 90%). Inconclusive then says about how
//     many ops a run would decide it.
//   - A relative gate reads the interval of the ratio of the cells'
//     figures (RatioInterval, at Confidence): pass when all of it meets
//     the factor, fail when none of it does, inconclusive when it
//     straddles the factor or the cells have too few runs for one (3
//     each at 90%).
//   - An absolute gate with 5 runs or more reads the interval of the
//     median (MedianInterval) the same way. With fewer runs there is no
//     such interval, and the gate judges the runs themselves: it passes
//     when every run's figure meets the limit, fails when none does, and
//     is inconclusive otherwise. One run is judged on its own figure: a
//     statement about that run, not about the setting (the line says so).
func (e Expectation) judgeInterval(c result.Cell, against *result.Cell) result.Gate {
	g := e.newGate(c, against)
	cells := []result.Cell{c}
	if against != nil {
		cells = append(cells, *against)
	}
	switch {
	case g.NoFigure:
		g.Statistic, g.Outcome = "no figure", result.OutcomeInconclusive
		g.Why = noFigure(e.Metric, cells)
	case e.Metric.isPercentile() && e.quantileRule(cells) && hasHistograms(e.Metric, cells):
		if against == nil {
			e.absoluteQuantileVerdict(&g, c)
		} else {
			e.relativeQuantileVerdict(&g, c, *against)
		}
	case sampleRule(e.Metric, cells) != "": // results recorded without histograms
		g.Statistic, g.Outcome = statistic(minRuns(cells)), result.OutcomeInconclusive
		g.Why = sampleRule(e.Metric, cells)
	case against == nil:
		e.absoluteVerdict(&g, values(e.Metric, c.Runs))
	default:
		e.relativeVerdict(&g, values(e.Metric, c.Runs), values(e.Metric, against.Runs))
	}
	return finish(g)
}

// quantileRule reports whether a percentile gate on cells reads the runs'
// own quantile intervals (see judgeInterval): when they are too few for
// an interval over repeats, or hold too few ops for the percentile.
func (e Expectation) quantileRule(cells []result.Cell) bool {
	need := MinMedianRepeats
	if !e.Absolute {
		need = MinRatioRepeats
	}
	return minRuns(cells) < need || sampleRule(e.Metric, cells) != ""
}

// noFigure says which cell had no figure of m (no such op ran in it), or
// that a relative gate's other cell's figure is zero, which no ratio can
// be taken to.
func noFigure(m Metric, cells []result.Cell) string {
	for _, c := range cells {
		if len(values(m, c.Runs)) == 0 {
			why := "no such op ran"
			if f := m.Figure(); f != nil && !f.PerKind && f.Missing != nil && len(c.Runs) > 0 {
				why = m.Missing(c.Runs[0]) // a figure of the run's, not of an op's: its own reason
			}
			return fmt.Sprintf("%s has no %s figure: %s", cellName(c), m, why)
		}
	}
	return fmt.Sprintf("%s's %s is 0: no ratio can be taken to it", cellName(cells[len(cells)-1]), m)
}

// absoluteVerdict judges vs, a cell's figures, against the limit.
func (e Expectation) absoluteVerdict(g *result.Gate, vs []float64) {
	n := len(vs)
	iv, ok := MedianInterval(vs)
	switch {
	case n == 1:
		g.Low, g.High = vs[0], vs[0]
		g.Statistic = "one run: its own figure, no interval"
	case ok:
		g.Low, g.High, g.Confidence = iv.Lo, iv.Hi, iv.Confidence
		g.Statistic = statistic(n)
	default:
		g.Low, g.High = slices.Min(vs), slices.Max(vs)
		g.Statistic = fmt.Sprintf("median of %d runs, judged run by run: too few for an interval of the median", n)
	}
	g.Outcome = side(g.Low, g.High, e.Op, e.Limit)
	if g.Outcome != result.OutcomeInconclusive {
		return
	}
	if !ok {
		within := 0
		for _, v := range vs {
			if holds(v, e.Op, e.Limit) {
				within++
			}
		}
		g.Why = fmt.Sprintf("%d of %d runs meet the limit; a %.0f%% interval of the median needs %d runs: raise --repeat to %d", within, n, 100*Confidence, MinMedianRepeats, MinMedianRepeats)
		return
	}
	g.Why = straddles(g, n, false, func(v float64) string { return formatIn(g.Unit, v) })
}

// relativeVerdict judges the ratio of a's figures to b's against the
// factor.
func (e Expectation) relativeVerdict(g *result.Gate, a, b []float64) {
	g.Statistic = fmt.Sprintf("medians of %d+%d runs", len(a), len(b))
	iv, ok := RatioInterval(a, b)
	if !ok {
		g.Outcome = result.OutcomeInconclusive
		if slices.ContainsFunc(a, notPositive) || slices.ContainsFunc(b, notPositive) {
			g.Why = "a figure of 0 has no ratio"
		} else {
			g.Why = fmt.Sprintf("a %.0f%% interval of the ratio needs %d runs a cell: raise --repeat to %d (5 narrows it)", 100*Confidence, MinRatioRepeats, MinRatioRepeats)
		}
		return
	}
	g.Low, g.High, g.Confidence = iv.Lo, iv.Hi, iv.Confidence
	g.Estimate = RatioEstimate(a, b)
	g.Outcome = side(g.Low, g.High, e.Op, e.Factor)
	if g.Outcome == result.OutcomeInconclusive {
		g.Why = straddles(g, min(len(a), len(b)), true, func(v float64) string { return "×" + units.Sig3(v) })
	}
}

// side is the outcome of an interval [lo, hi] against a condition: pass
// when both ends meet it, fail when neither does (the condition is
// monotone, so the whole interval is on one side), inconclusive
// otherwise.
func side(lo, hi float64, op string, threshold float64) string {
	switch a, b := holds(lo, op, threshold), holds(hi, op, threshold); {
	case a && b:
		return result.OutcomePass
	case !a && !b:
		return result.OutcomeFail
	}
	return result.OutcomeInconclusive
}

// maxSuggestedRuns bounds the runs a verdict line suggests.
const maxSuggestedRuns = 200

// straddles says why an interval over n runs (a cell) that straddles the
// threshold did not decide, and about how many runs would: an interval
// narrows as 1/√n, so if the figure stays where it is, the side of the
// interval that crosses the threshold clears it at n·(width/distance)²
// runs (ratios are measured on a log scale). Beyond maxSuggestedRuns it
// says to move the threshold instead; a figure on the threshold itself no
// number of runs decides.
func straddles(g *result.Gate, n int, logScale bool, format func(float64) string) string {
	point, lo, hi, thr := figureOf(*g), g.Low, g.High, g.Threshold
	if logScale {
		point, lo, hi, thr = math.Log(point), math.Log(lo), math.Log(hi), math.Log(thr)
	}
	width := hi - point
	if thr < point {
		width = point - lo
	}
	dist := math.Abs(point - thr)
	msg := fmt.Sprintf("the interval %s straddles %s", intervalSpan(*g, format), format(g.Threshold))
	if dist == 0 {
		return msg + ": the figure sits at the threshold, and no number of runs would decide it; gate a threshold clear of it"
	}
	need := max(math.Ceil(float64(n)*(width/dist)*(width/dist)), float64(n+1))
	if need > maxSuggestedRuns {
		return fmt.Sprintf("%s: at this noise it would take more than %d runs a cell to decide; gate a threshold further from the figure (%s), or quiet the machine", msg, maxSuggestedRuns, format(figureOf(*g)))
	}
	return fmt.Sprintf("%s: about %.0f runs a cell would decide it if the figure stays at %s", msg, need, format(figureOf(*g)))
}

// figureOf is what a gate compares with its threshold: the ratio of a
// relative gate, the value of an absolute one.
func figureOf(g result.Gate) float64 {
	if g.Against != "" {
		return g.Ratio
	}
	return g.Value
}

// minRuns is the fewest runs of the cells.
func minRuns(cells []result.Cell) int {
	n := math.MaxInt
	for _, c := range cells {
		n = min(n, len(c.Runs))
	}
	return n
}

// samplesFor returns the ops of its kind a run needs for a percentile q
// to be read from its own samples: 10/(1-q), ten ops beyond it.
func samplesFor(q float64) int64 { return int64(math.Round(10 / (1 - q/100))) }

// sampleRule says why m cannot be read from the runs of cells, or "": a
// percentile q needs samplesFor(q) ops of its kind in every run. The
// reason names what would do: more ops per worker (or a longer run) in
// the run that had fewest, or a lower percentile its ops suffice for.
func sampleRule(m Metric, cells []result.Cell) string {
	msg, need, count, fewest := sampleShort(m, cells)
	if msg == "" {
		return ""
	}
	if more := moreOps(fewest.Plan, float64(need)/float64(max(count, 1))); count > 0 && more != "" {
		msg += ": " + more
	}
	for _, p := range lowerPercentiles(m.Figure().Quantile) {
		if samplesFor(p.Quantile) <= count {
			return msg + ", or gate " + p.Name
		}
	}
	return msg
}

// sampleShort says in a few words why m cannot be read from the runs of
// cells (sampleRule), or "", with the ops needed, the fewest a run had
// and that run.
func sampleShort(m Metric, cells []result.Cell) (msg string, need, count int64, fewest *result.Result) {
	f := m.Figure()
	if !f.PerKind || f.Quantile == 0 || f.Quantile == 100 {
		return "", 0, 0, nil
	}
	need = samplesFor(f.Quantile)
	count = int64(math.MaxInt64)
	for _, c := range cells {
		for _, r := range c.Runs {
			if n := opCount(r, m.Kind); n < count {
				count, fewest = n, r
			}
		}
	}
	if fewest == nil || count >= need {
		return "", 0, 0, nil
	}
	return fmt.Sprintf("needs ≥ %s %s ops a run for a %s (the fewest run had %s)", thousands(need), m.Kind, m.Stat, thousands(count)), need, count, fewest
}

// moreOps says how to give a run factor times its ops: more ops per
// worker (--queries) or a longer run (--duration), for the lottery phases
// the loop flags set; a longer capture for a replayed trace, whose
// statements are the capture's; "" for others.
func moreOps(p workload.Plan, factor float64) string {
	if p.Recorded() {
		return fmt.Sprintf("capture a trace of about %s× as many", strconv.FormatFloat(roundUp2(factor), 'f', -1, 64))
	}
	if len(p.Phases) == 0 || p.Phases[0].Access != workload.AccessLottery {
		return ""
	}
	ph := p.Phases[0]
	if ph.Ops > 0 {
		return "raise --queries to " + strconv.FormatFloat(roundUp2(float64(ph.Ops)*factor), 'f', -1, 64)
	}
	if ph.Duration > 0 {
		secs := math.Ceil(time.Duration(ph.Duration).Seconds() * factor)
		return "raise --duration to " + (time.Duration(secs) * time.Second).String()
	}
	return ""
}

// roundUp2 rounds v up to two significant digits: 7312 to 7400.
func roundUp2(v float64) float64 {
	if v <= 0 {
		return 0
	}
	scale := math.Pow(10, math.Floor(math.Log10(v))-1)
	return math.Ceil(v/scale-1e-9) * scale
}

// thousands writes n with commas: 10,000.
func thousands(n int64) string {
	s := strconv.FormatInt(n, 10)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// lowerPercentiles returns the percentile rows below q, highest first.
func lowerPercentiles(q float64) []*Figure {
	var out []*Figure
	for _, f := range Figures {
		if f.PerKind && f.Quantile > 0 && f.Quantile < q {
			out = append(out, f)
		}
	}
	slices.SortFunc(out, func(a, b *Figure) int { return cmp.Compare(b.Quantile, a.Quantile) })
	return out
}
