package judge

import (
	"fmt"
	"math"

	hdr "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/gobench/gobench/pkg/result"
	"github.com/gobench/gobench/pkg/units"
)

// isPercentile reports whether m is a latency percentile of an op kind
// (not its mean, nor its max, which is one op).
func (m Metric) isPercentile() bool {
	f := m.Figure()
	return f.PerKind && f.Quantile > 0 && f.Quantile < 100
}

// opHistogram returns the histogram of m's op kind in a run's first phase,
// or nil when the run has none (a result recorded without it).
func opHistogram(m Metric, r *result.Result) *hdr.Histogram {
	if len(r.Phases) == 0 {
		return nil
	}
	o, ok := r.Phases[0].Total, true
	if m.Kind != "total" {
		o, ok = r.Phases[0].Op(m.Kind)
	}
	if !ok || o.Histogram == "" {
		return nil
	}
	h, err := o.DecodeHistogram()
	if err != nil || h.TotalCount() == 0 {
		return nil
	}
	return h
}

// hasHistograms reports whether every run of cells holds the histogram of
// m's op kind.
func hasHistograms(m Metric, cells []result.Cell) bool {
	for _, c := range cells {
		for _, r := range c.Runs {
			if opHistogram(m, r) == nil {
				return false
			}
		}
	}
	return true
}

// cellQuantile returns the interval of m's percentile in cell c at conf:
// the union of its runs' quantile intervals; and the run with the fewest
// ops of the kind, with its histogram.
func cellQuantile(m Metric, c result.Cell, conf float64) (Interval, *hdr.Histogram, *result.Result) {
	q := m.Figure().Quantile / 100
	iv := Interval{Lo: math.Inf(1), Hi: 0, Confidence: conf}
	var fewest *hdr.Histogram
	var run *result.Result
	for _, r := range c.Runs {
		h := opHistogram(m, r)
		ri := QuantileInterval(h, q, conf)
		iv.Lo, iv.Hi = min(iv.Lo, ri.Lo), max(iv.Hi, ri.Hi)
		if fewest == nil || h.TotalCount() < fewest.TotalCount() {
			fewest, run = h, r
		}
	}
	return iv, fewest, run
}

// setInterval records iv as the interval a gate read.
func setInterval(g *result.Gate, iv Interval) {
	g.Low, g.High, g.Confidence = iv.Lo, iv.Hi, iv.Confidence
	if math.IsInf(iv.Hi, 1) {
		g.High, g.Unbounded = 0, true
	}
}

// absoluteQuantileVerdict judges a percentile of cell c against the limit
// by the quantile intervals of its runs (see judgeInterval).
func (e Expectation) absoluteQuantileVerdict(g *result.Gate, c result.Cell) {
	iv, fewest, run := cellQuantile(e.Metric, c, Confidence)
	setInterval(g, iv)
	g.Statistic = quantileStatistic(e.Metric, c, fewest, false)
	g.Outcome = side(iv.Lo, iv.Hi, e.Op, e.Limit)
	if g.Outcome != result.OutcomeInconclusive {
		return
	}
	f := e.Metric.Figure()
	span := fmt.Sprintf("the interval %s–%s straddles %s", f.Tag(iv.Lo), tagHigh(f, iv.Hi), f.Tag(e.Limit))
	switch n := opsToDecideRuns(e.Metric, c, f.Quantile/100, Confidence, e.Op, e.Limit); {
	case n == 0:
		g.Why = span + ": the limit sits at the percentile, and no number of ops would decide it; gate a limit clear of it"
	case n == math.MaxInt64:
		g.Why = span + ": more than 10¹² ops a run would be needed; gate a limit further from the percentile"
	case n == opsPrecision:
		g.Why = span + ": the limit lies within the histogram's precision (0.1%) at the percentile, and no number of ops would decide it; gate a limit clear of it"
	case n < 0:
		// Each run's own interval decides, but not all the same way:
		// more ops a run only narrow intervals that already disagree.
		g.Why = fmt.Sprintf("%s: each run's own interval decides, but they disagree (the runs' percentiles lie on both sides of the limit), so more ops a run would not decide it; more runs would: %d runs or more, of at least %s %s ops each, read the interval of the median over repeats instead",
			span, MinMedianRepeats, thousands(samplesFor(f.Quantile)), e.Metric.Kind)
	default:
		g.Why = fmt.Sprintf("%s: about %s %s ops a run would decide it, if the latencies stay as they are (the fewest run had %s)",
			span, thousands(n), e.Metric.Kind, thousands(fewest.TotalCount()))
		if more := moreOps(run.Plan, float64(n)/float64(fewest.TotalCount())); more != "" {
			g.Why += ": " + more
		}
	}
}

// opsPrecision is opsToDecideRuns's answer when the limit lies within the
// histogram's bucket at the percentile.
const opsPrecision = -2

// opsToDecideRuns returns about how many ops of its kind every run of c
// would need for the union of their intervals of the q-th quantile at conf
// to fall wholly on one side of limit: the most any undecided run needs
// (opsToDecide of each run's own latencies; a run whose interval already
// decides needs no more), never fewer than that run already had. 0 says
// no number of ops would decide it (the limit sits at a run's
// percentile), opsPrecision that none would because the limit lies within
// the histogram's bucket there, math.MaxInt64 that more than 10¹² would,
// and -1 that every run's interval decides but not the same way, which
// more ops a run cannot mend.
func opsToDecideRuns(m Metric, c result.Cell, q, conf float64, op string, limit float64) int64 {
	var need int64
	sides := map[string]bool{}
	for _, r := range c.Runs {
		h := opHistogram(m, r)
		if h == nil {
			continue
		}
		ri := QuantileInterval(h, q, conf)
		if side := side(ri.Lo, ri.Hi, op, limit); side != result.OutcomeInconclusive {
			sides[side] = true
			continue
		}
		n := opsToDecide(h, q, conf, limit)
		switch {
		case n == 0 || n == math.MaxInt64:
			return n
		case n <= h.TotalCount():
			// The binomial says this many would do, the histogram's
			// buckets say not: the limit lies within the bucket at
			// the percentile, which no number of ops narrows.
			return opsPrecision
		}
		need = max(need, n)
	}
	if need == 0 && len(sides) > 1 {
		return -1
	}
	return need
}

// relativeQuantileVerdict judges the ratio of a percentile of cell c to
// that of cell b against the factor, by the ratio of their quantile
// intervals, each at 95% so that both hold together at 90%.
func (e Expectation) relativeQuantileVerdict(g *result.Gate, c, b result.Cell) {
	conf := 1 - (1-Confidence)/2
	a, fa, _ := cellQuantile(e.Metric, c, conf)
	o, fo, _ := cellQuantile(e.Metric, b, conf)
	iv := Interval{Lo: 0, Hi: math.Inf(1), Confidence: Confidence}
	if !math.IsInf(o.Hi, 1) && o.Hi > 0 {
		iv.Lo = a.Lo / o.Hi
	}
	if !math.IsInf(a.Hi, 1) && o.Lo > 0 {
		iv.Hi = a.Hi / o.Lo
	}
	setInterval(g, iv)
	fewest := fa
	if fo.TotalCount() < fa.TotalCount() {
		fewest = fo
	}
	g.Statistic = quantileStatistic(e.Metric, c, fewest, true)
	g.Outcome = side(iv.Lo, iv.Hi, e.Op, e.Factor)
	if g.Outcome == result.OutcomeInconclusive {
		g.Why = fmt.Sprintf("the interval of the ratio ×%s–×%s straddles ×%s: more %s ops a run narrow both cells' intervals (the fewest run had %s), or more runs (%d a cell) give an interval of the ratio over repeats",
			units.Sig3(iv.Lo), sig3High(iv.Hi), units.Sig3(e.Factor), e.Metric.Kind, thousands(fewest.TotalCount()), MinRatioRepeats)
	}
}

// quantileStatistic names what a percentile gate read: "p99 of 570 read
// ops: the order statistics' 90% interval (binomial), to the histogram's
// precision", or of each of several runs.
func quantileStatistic(m Metric, c result.Cell, fewest *hdr.Histogram, relative bool) string {
	what := "its order statistics' interval (binomial, distribution-free), to the histogram's precision"
	if relative {
		what = "the ratio of each cell's order-statistic interval (binomial, each at 95%)"
	}
	if len(c.Runs) == 1 && !relative {
		return fmt.Sprintf("%s of %s %s ops: %s", m.Stat, thousands(fewest.TotalCount()), m.Kind, what)
	}
	return fmt.Sprintf("%s of each run (fewest %s %s ops): %s", m.Stat, thousands(fewest.TotalCount()), m.Kind, what)
}

// tagHigh tags an interval's upper end: ∞ when unbounded.
func tagHigh(f *Figure, v float64) string {
	if math.IsInf(v, 1) {
		return "∞"
	}
	return f.Tag(v)
}

// sig3High is an upper ratio to three figures: ∞ when unbounded.
func sig3High(v float64) string {
	if math.IsInf(v, 1) {
		return "∞"
	}
	return units.Sig3(v)
}
