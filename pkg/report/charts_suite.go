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
	width, height := vg.Length(max(8, float64(len(m.Cells))*1.6))*vg.Inch, 3.5*vg.Inch
	lab, lines, err := factorLabels(labels, width, len(m.Cells))
	if err != nil {
		return c, err
	}
	// The labels sit above the highest dot, their lines within the room
	// left above it: a share of the data area's height, which the axis
	// gives back as a share of its range.
	lineHeight := lab.TextStyle[0].Font.Size * 1.2
	area := height - 0.8*vg.Inch - vg.Length(maxLines(names))*p.X.Tick.Label.Font.Size*1.2
	room := min(0.6, float64(vg.Length(lines)*lineHeight+4)/float64(area))
	above := top * 1.06
	p.Y.Max = above + (above-p.Y.Min)*room/(1-room)
	if logScale {
		above = top * 1.3
		p.Y.Max = above * math.Pow(above/p.Y.Min, room/(1-room))
	}
	for i := range lab.XYs {
		lab.XYs[i] = plotter.XY{X: float64(i), Y: above}
	}
	p.Add(lab)
	c.SVG, err = renderSVG(p, width, height)
	return c, err
}

// factorLabels makes the labels above the columns of a chart width wide,
// each wrapped at its spaces to fit its column, so that no two overlap
// and the first and last stay within the plot; lines is the most lines
// one takes.
func factorLabels(labels []string, width vg.Length, columns int) (*plotter.Labels, int, error) {
	lab, err := plotter.NewLabels(plotter.XYLabels{XYs: make(plotter.XYs, len(labels)), Labels: labels})
	if err != nil {
		return nil, 0, err
	}
	// The data area is the chart but the value axis (about an inch); a
	// column is its share of the span from -0.6 to columns-0.4, and a
	// label keeps to 0.75 of it, so half a label fits the 0.4 of a
	// column beside the last.
	column := (width - vg.Inch) / vg.Length(float64(columns)+0.2)
	lines := 1
	for i := range lab.TextStyle {
		st := &lab.TextStyle[i]
		st.XAlign, st.YAlign = draw.XCenter, draw.YBottom
		st.Font = font.From(chartFont, st.Font.Size)
		lab.Labels[i] = wrapToFit(lab.Labels[i], func(s string) bool { return st.Width(s) <= column*3/4 })
		lines = max(lines, strings.Count(lab.Labels[i], "\n")+1)
	}
	return lab, lines, nil
}

// wrapToFit breaks s at its spaces into lines that each fit, as many
// words a line as fit does; a word that does not fit alone has a line of
// its own.
func wrapToFit(s string, fits func(string) bool) string {
	var lines []string
	for _, w := range strings.Fields(s) {
		if n := len(lines); n > 0 && fits(lines[n-1]+" "+w) {
			lines[n-1] += " " + w
			continue
		}
		lines = append(lines, w)
	}
	return strings.Join(lines, "\n")
}

// maxLines is the most lines any of the texts takes.
func maxLines(texts []string) int {
	most := 1
	for _, t := range texts {
		most = max(most, strings.Count(t, "\n")+1)
	}
	return most
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
