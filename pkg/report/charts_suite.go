package report

import (
	"fmt"
	"image/color"
	"math"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/gobench/gobench/pkg/judge"
	"github.com/gobench/gobench/pkg/result"
	"github.com/gobench/gobench/pkg/units"
)

// cellDots draws one metric per cell: every repeat as a dot (spread
// across its column so equal values stay visible), the median as a bar
// across, the range from min to max as a line, and above the column the
// factor against the baseline with the rank test's verdict.
func cellDots(id string, s *result.Suite, m judge.MetricSummary) (chart, error) {
	c := chart{ID: id, Title: fmt.Sprintf("%s (%s, %s): every repeat, the median (bar) and the range, factor against %s", m.Metric, m.Unit, m.Direction, s.Baseline)}
	xLabel := strings.Join(s.Varied, " / ")
	if len(s.Varied) > 3 {
		xLabel = "" // each tick names its values, one a line
	}
	p := newPlot("", xLabel, axisName(m))
	var names, labels []string
	top := 0.0
	for i, cs := range m.Cells {
		x := float64(i)
		names = append(names, cellTick(cs.Settings))
		var dots plotter.XYs
		for j, v := range cs.Stats.Values {
			dots = append(dots, plotter.XY{X: x + dotOffset(j, len(cs.Stats.Values)), Y: v})
		}
		if err := addSegment(p, x, cs.Stats.Min, x, cs.Stats.Max, 1, color.Gray{Y: 0x88}); err != nil {
			return c, err
		}
		if err := addSegment(p, x-0.25, cs.Stats.Median, x+0.25, cs.Stats.Median, 2.5, palette[1]); err != nil {
			return c, err
		}
		if err := addDots(p, dots, palette[0]); err != nil { // over the bar
			return c, err
		}
		top = max(top, cs.Stats.Max)
		labels = append(labels, factorLabel(s, cs))
		c.Points += len(dots)
	}
	p.NominalX(names...)
	p.X.Min, p.X.Max = -0.6, float64(len(m.Cells))-0.4
	logScale := scaleAxis(p, m)
	above := top * 1.06 // every label on one line, above the highest dot
	if logScale {
		above = top * 1.3
	}
	tops := make(plotter.XYs, len(labels))
	for i := range tops {
		tops[i] = plotter.XY{X: float64(i), Y: above}
	}
	lab, err := plotter.NewLabels(plotter.XYLabels{XYs: tops, Labels: labels})
	if err != nil {
		return c, err
	}
	for i := range lab.TextStyle {
		lab.TextStyle[i].XAlign, lab.TextStyle[i].YAlign = draw.XCenter, draw.YBottom
		lab.TextStyle[i].Font = font.From(chartFont, lab.TextStyle[i].Font.Size)
	}
	p.Add(lab)
	p.Y.Max = top * 1.2 // room for the labels
	if logScale {
		p.Y.Max = top * 2.5
	}
	c.SVG, err = renderSVG(p, vg.Length(max(8, float64(len(m.Cells))*1.6))*vg.Inch, 3.5*vg.Inch)
	return c, err
}

// cellTick names a cell under its column: its values, one a line, the
// settings it lacks (another engine's options) left out.
func cellTick(s result.Settings) string {
	var vals []string
	for _, st := range s {
		if st.Value != "" {
			vals = append(vals, st.Value)
		}
	}
	if len(vals) == 0 {
		return "(all)"
	}
	return strings.Join(vals, "\n")
}

// logSpread is the ratio of a metric's largest to its smallest value
// over the cells past which their axis is logarithmic: on a linear axis a
// cell 17 times another's is a bar and a sliver.
const logSpread = 5

// scaleAxis gives the metric's axis its scale and ticks: logarithmic when
// the cells' values span more than logSpread (reporting that), linear
// from zero otherwise; latencies labelled in their unit (600ms, not
// 600000), rates with k and M.
func scaleAxis(p *plot.Plot, m judge.MetricSummary) bool {
	lo, hi := math.Inf(1), 0.0
	zero := false // a value a log scale cannot place (a cell whose ops all failed)
	for _, cs := range m.Cells {
		for _, v := range append([]float64{cs.Stats.Min, cs.Stats.Median}, cs.Stats.Values...) {
			if v > 0 {
				lo, hi = min(lo, v), max(hi, v)
			} else {
				zero = true
			}
		}
	}
	latency := isLatency(m)
	logScale := hi > 0 && hi/lo > logSpread && !zero
	switch {
	case logScale:
		p.Y.Scale = plot.LogScale{}
		p.Y.Min = lo / 1.5
		p.Y.Label.Text += " (log scale)"
		p.Y.Tick.Marker = unitTicks{latency: latency, log: true}
	default:
		p.Y.Min = 0
		p.Y.Tick.Marker = unitTicks{latency: latency}
	}
	return logScale
}

// unitTicks labels a metric's axis in the metric's unit: latencies as
// 10µs, 1ms, 1.50s; rates as 500, 20k, 1.5M. On a log scale it ticks the
// powers of ten, and labels the ends of a range within one decade.
type unitTicks struct{ latency, log bool }

func (u unitTicks) Ticks(lo, hi float64) []plot.Tick {
	if u.log {
		return logTicks(lo, hi, u.label)
	}
	ticks := plot.DefaultTicks{}.Ticks(lo, hi)
	for i := range ticks {
		if ticks[i].Label != "" {
			ticks[i].Label = u.label(ticks[i].Value)
		}
	}
	return ticks
}

func (u unitTicks) label(v float64) string {
	switch {
	case u.latency:
		return units.Micros(v)
	case v >= 1e6:
		return units.Sig3(v/1e6) + "M"
	case v >= 1e4:
		return units.Sig3(v/1e3) + "k"
	}
	return units.Rate(v)
}

// dotOffset places dot j of n across its column, so repeats of equal value
// do not hide each other.
func dotOffset(j, n int) float64 {
	if n < 2 {
		return 0
	}
	return -0.15 + 0.3*float64(j)/float64(n-1)
}

// factorLabel says how a cell compares with the baseline: the factor,
// better or worse, and whether the rank test finds it significant.
func factorLabel(s *result.Suite, cs judge.CellStats) string {
	switch {
	case cs.Settings.String() == s.Baseline.String():
		return "baseline"
	case cs.Factor == nil:
		return ""
	}
	f := cs.Factor
	if !f.Significant {
		return f.Short() + " ~"
	}
	return fmt.Sprintf("%s * (%s)", f.Short(), f.Interval())
}

func addDots(p *plot.Plot, xy plotter.XYs, c color.Color) error {
	sc, err := plotter.NewScatter(xy)
	if err != nil {
		return err
	}
	sc.GlyphStyle.Color = c
	sc.GlyphStyle.Radius = vg.Points(3)
	sc.GlyphStyle.Shape = draw.CircleGlyph{}
	p.Add(sc)
	return nil
}

func addSegment(p *plot.Plot, x0, y0, x1, y1, width float64, c color.Color) error {
	l, err := plotter.NewLine(plotter.XYs{{X: x0, Y: y0}, {X: x1, Y: y1}})
	if err != nil {
		return err
	}
	l.Color = c
	l.Width = vg.Points(width)
	p.Add(l)
	return nil
}

// axisName names a metric's axis so that it agrees with its ticks: a
// latency's ticks carry their own time units (600µs, 1.20ms, 2.50s), so
// its axis names what is timed ("latency", "time without a completion",
// "time of CPU per op"), never the µs its values are kept in; any other
// names its unit, in which its ticks count (ops/s as 20k, bytes as
// 1.5M).
func axisName(m judge.MetricSummary) string {
	if !isLatency(m) {
		return m.Unit
	}
	if rest := strings.TrimSpace(strings.TrimPrefix(m.Unit, "µs")); rest != "" {
		return "time " + rest
	}
	return "latency"
}

// isLatency reports whether the metric's values are times in µs (its
// figure's scale says so), which its ticks show in time units.
func isLatency(m judge.MetricSummary) bool {
	return m.Metric.Figure().Scale == judge.Latency
}
