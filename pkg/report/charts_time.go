package report

import (
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/gobench/gobench/pkg/result"
)

// timeSeries reads one figure per second and op kind from a timeline. The
// phase's last second, when the phase ended inside it, is left out when it
// is not the only one: a fraction of a second holds a fraction of the ops,
// which a line per whole second would draw as a fall.
type timeSeries struct {
	kinds   []string
	seconds []result.Second
	partial float64 // the span of the dropped partial second; 0 if none
}

func newTimeSeries(ph result.Phase) timeSeries {
	ts := timeSeries{seconds: ph.Timeline}
	for _, s := range ph.Timeline {
		for _, o := range s.Ops {
			if !slices.Contains(ts.kinds, o.Kind) {
				ts.kinds = append(ts.kinds, o.Kind)
			}
		}
	}
	if n := len(ph.Timeline); n > 1 && ph.Timeline[n-1].Partial() {
		ts.partial = ph.Timeline[n-1].Span()
		ts.seconds = ph.Timeline[:n-1]
	}
	return ts
}

// series returns kind's points, y read from each second's figures of that
// kind (zero where the kind had none), x at the second's middle; skip
// leaves a second out (a percentile of a second without ops).
func (ts timeSeries) series(kind string, y func(s result.Second, o result.SecondOps) (float64, bool)) plotter.XYs {
	var xy plotter.XYs
	for _, s := range ts.seconds {
		o := result.SecondOps{Kind: kind}
		for _, so := range s.Ops {
			if so.Kind == kind {
				o = so
			}
		}
		if v, ok := y(s, o); ok {
			xy = append(xy, plotter.XY{X: float64(s.Second) + s.Span()/2, Y: v})
		}
	}
	return xy
}

// axis sets p's time axis to the seconds drawn, the same for every panel.
func (ts timeSeries) axis(p *plot.Plot) {
	if n := len(ts.seconds); n > 0 {
		last := ts.seconds[n-1]
		p.X.Min, p.X.Max = float64(ts.seconds[0].Second), float64(last.Second)+last.Span()
	}
}

// partialNote says which second is not drawn, for a caption.
func (ts timeSeries) partialNote() string {
	if ts.partial == 0 {
		return ""
	}
	return fmt.Sprintf(" (the last %.2f s, a partial second, is not drawn)", ts.partial)
}

// Panel heights of stacked charts: a latency panel spans decades on a log
// axis, so it gets more room.
const (
	panelHeight        = 2 * vg.Inch
	latencyPanelHeight = 2.6 * vg.Inch
)

// throughputChart draws ops/s per second, a panel per op kind, each on its
// own axis: a kind at 2,000 ops/s is read as easily as one at 50,000.
func throughputChart(id, name string, ph result.Phase) (chart, error) {
	ts := newTimeSeries(ph)
	c := chart{ID: id + "-throughput", Title: "Throughput over time, a panel per op kind, each on its own axis" + name + ts.partialNote()}
	var panels []*plot.Plot
	for i, k := range ts.kinds {
		xy := ts.series(k, func(s result.Second, o result.SecondOps) (float64, bool) {
			return float64(o.Count-o.Errors) / s.Span(), true
		})
		p := newPlot(k, "second of the run (ops completed in it)", "ops/s")
		p.Y.Min = 0
		ts.axis(p)
		if err := addLine(p, xy, palette[i%len(palette)], "", false); err != nil {
			return c, err
		}
		panels = append(panels, p)
		c.Points += len(xy)
	}
	return c, c.stackPanels(panels, panelHeight)
}

// latencyChart draws each second's p50 and p99, a panel per op kind, on a
// log scale: a stall shows where it happened.
func latencyChart(id, name string, ph result.Phase) (chart, error) {
	ts := newTimeSeries(ph)
	c := chart{ID: id + "-latency", Title: "Latency over time: p50 (solid) and p99 (dashed) of the ops completed in each second, a panel per op kind" + name + ts.partialNote()}
	var panels []*plot.Plot
	for i, k := range ts.kinds {
		p := newPlot(k, "second of the run", "latency (log scale)")
		ts.axis(p)
		p.Y.Scale = plot.LogScale{}
		p.Y.Tick.Marker = latencyTicks{}
		for _, q := range []struct {
			name string
			v    func(o result.SecondOps) float64
		}{{"p50", func(o result.SecondOps) float64 { return o.P50Micros }}, {"p99", func(o result.SecondOps) float64 { return o.P99Micros }}} {
			xy := ts.series(k, func(_ result.Second, o result.SecondOps) (float64, bool) {
				return math.Max(q.v(o), 0.001), o.Count > 0
			})
			if len(xy) == 0 {
				continue
			}
			if err := addLine(p, xy, palette[i%len(palette)], "", q.name == "p99"); err != nil {
				return c, err
			}
			c.Points += len(xy)
		}
		fixLogRange(p)
		panels = append(panels, p)
	}
	return c, c.stackPanels(panels, latencyPanelHeight)
}

// contentionChart draws the errors and the busy retries of each second,
// per op kind; it is left out of a phase that had neither.
func contentionChart(id, name string, ph result.Phase) (chart, error) {
	ts := newTimeSeries(ph)
	c := chart{ID: id + "-contention", Title: "Errors and busy retries over time, per op kind" + name + ts.partialNote()}
	var panels []*plot.Plot
	for _, f := range []struct {
		title string
		v     func(o result.SecondOps) int64
	}{{"errors per second", func(o result.SecondOps) int64 { return o.Errors }}, {"busy retries per second", func(o result.SecondOps) int64 { return o.Retries }}} {
		total := int64(0)
		for _, s := range ts.seconds {
			for _, o := range s.Ops {
				total += f.v(o)
			}
		}
		if total == 0 {
			continue
		}
		p := newPlot(fmt.Sprintf("%s (%d in all)", f.title, total), "second of the run", f.title)
		p.Y.Min = 0
		ts.axis(p)
		for i, k := range ts.kinds {
			xy := ts.series(k, func(s result.Second, o result.SecondOps) (float64, bool) { return float64(f.v(o)) / s.Span(), true })
			if err := addLine(p, xy, palette[i%len(palette)], k, false); err != nil {
				return c, err
			}
			c.Points += len(xy)
		}
		panels = append(panels, p)
	}
	if len(panels) == 0 {
		return c, nil
	}
	return c, c.stackPanels(panels, panelHeight)
}
