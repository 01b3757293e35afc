package report

import (
	"bytes"
	"fmt"
	"image/color"
	"io"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/gobench/gobench/pkg/history"
	"github.com/gobench/gobench/pkg/judge"
)

// maxBars is the most points of a trend chart drawn with their
// intervals: past it, the bars would be a smear.
const maxBars = 300

// historyHTML writes a history report as a page: per series, a trend
// chart of its points with their intervals, its change points as solid
// lines, the points left out hollow, and machine changes as dotted lines;
// the text report folded under the charts.
func historyHTML(w io.Writer, h *history.Report) error {
	var text bytes.Buffer
	if err := historyText(&text, h); err != nil {
		return err
	}
	pg := htmlPage{Title: "gobench history: " + strings.Join(h.Figures, ", "), Summary: text.String()}
	for _, v := range h.Gate {
		if v.Fail {
			pg.Alerts = append(pg.Alerts, "gate failed: "+v.Figure+" ["+v.Cell+"]: "+v.Reason)
		}
	}
	for i, sr := range h.Series {
		ch, err := trendChart(i, sr)
		if err != nil {
			return err
		}
		pg.Charts = append(pg.Charts, ch)
	}
	return writePage(w, pg)
}

// trendChart draws one series over its commits.
func trendChart(i int, sr *history.Series) (chart, error) {
	m, _ := judge.ParseMetric(sr.Figure)
	ch := chart{ID: fmt.Sprintf("trend-%d", i), Title: fmt.Sprintf("%s, plan %.12s, %s: the median of each commit's runs with its interval; solid red lines are change points, dotted grey lines where the machine changed, hollow points runs left out (their calibration moved)", sr.Figure, sr.Plan, sr.Cell)}
	p := newPlot("", "commit", sr.Figure+" ("+sr.Unit+")")
	p.X.Tick.Marker = commitTicks(sr.Points)
	p.Y.Tick.Marker = unitTicks{latency: m.Figure().Scale == judge.Latency}
	var kept, left plotter.XYs
	for x, pt := range sr.Points {
		xy := plotter.XY{X: float64(x), Y: pt.Value}
		if pt.Excluded {
			left = append(left, xy)
		} else {
			kept = append(kept, xy)
		}
		if len(sr.Points) <= maxBars && pt.Hi > pt.Lo {
			if err := addSegment(p, float64(x), pt.Lo, float64(x), pt.Hi, 1, palette[0]); err != nil {
				return ch, err
			}
		}
	}
	if len(kept) > 0 {
		if err := addLine(p, kept, palette[0], sr.Figure, false); err != nil {
			return ch, err
		}
	}
	if len(left) > 0 {
		sc, err := plotter.NewScatter(left)
		if err != nil {
			return ch, err
		}
		sc.GlyphStyle = draw.GlyphStyle{Color: palette[0], Radius: vg.Points(3), Shape: draw.RingGlyph{}}
		p.Add(sc)
		p.Legend.Add("left out", sc)
	}
	if err := markVerticals(p, sr); err != nil {
		return ch, err
	}
	ch.Points = len(sr.Points)
	svg, err := renderSVG(p, 10*vg.Inch, 4*vg.Inch)
	ch.SVG = svg
	return ch, err
}

// markVerticals draws the change points and the machine changes across
// the chart's height.
func markVerticals(p *plot.Plot, sr *history.Series) error {
	lo, hi := p.Y.Min, p.Y.Max
	for _, c := range sr.Changes {
		x := float64(c.Index) - 0.5
		if err := addSegment(p, x, lo, x, hi, 1.5, palette[1]); err != nil {
			return err
		}
	}
	for x := 1; x < len(sr.Points); x++ {
		if machineOf(sr.Points[x]) != machineOf(sr.Points[x-1]) {
			l, err := plotter.NewLine(plotter.XYs{{X: float64(x) - 0.5, Y: lo}, {X: float64(x) - 0.5, Y: hi}})
			if err != nil {
				return err
			}
			l.Color, l.Dashes = color.Gray{Y: 0x90}, []vg.Length{vg.Points(1), vg.Points(3)}
			p.Add(l)
		}
	}
	return nil
}

// machineOf names the machine of a point's first run.
func machineOf(p history.Point) string {
	if len(p.Runs) == 0 {
		return ""
	}
	return p.Runs[0].Machine
}

// commitTicks labels the x axis with commits, at most a dozen.
type commitTicks []history.Point

func (c commitTicks) Ticks(lo, hi float64) []plot.Tick {
	step := max(1, len(c)/12)
	var ticks []plot.Tick
	for i := 0; i < len(c); i += step {
		ticks = append(ticks, plot.Tick{Value: float64(i), Label: history.ShortCommit(c[i].Commit)})
	}
	return ticks
}
