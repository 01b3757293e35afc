package report

import (
	"fmt"
	"image/color"
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
	p := newPlot("", strings.Join(s.Varied, " / "), m.Unit)
	var names, labels []string
	top := 0.0
	for i, cs := range m.Cells {
		x := float64(i)
		names = append(names, strings.ReplaceAll(settingValues(cs.Settings), "\t", "/"))
		var dots plotter.XYs
		for j, v := range cs.Stats.Values {
			dots = append(dots, plotter.XY{X: x + spread(j, len(cs.Stats.Values)), Y: v})
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
	p.Y.Min = 0
	tops := make(plotter.XYs, len(labels)) // every label on one line, above the highest dot
	for i := range tops {
		tops[i] = plotter.XY{X: float64(i), Y: top * 1.06}
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
	c.SVG, err = render(p, vg.Length(max(8, float64(len(m.Cells))*1.6))*vg.Inch, 3.5*vg.Inch)
	return c, err
}

// spread places dot j of n across its column, so repeats of equal value
// do not hide each other.
func spread(j, n int) float64 {
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
	word := "worse"
	if f.Better {
		word = "better"
	}
	if !f.Significant {
		return fmt.Sprintf("×%s ~ (p=%.2f)", units.Sig3(f.Ratio), f.P)
	}
	return fmt.Sprintf("×%s %s * (p=%.3f)", units.Sig3(f.Ratio), word, f.P)
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
