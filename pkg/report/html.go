package report

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/gobench/gobench/pkg/judge"
	"github.com/gobench/gobench/pkg/percentile"
	"github.com/gobench/gobench/pkg/result"
	"github.com/gobench/gobench/pkg/units"
)

// htmlRun writes a self-contained HTML report of a run: the text report,
// then per phase the throughput over time (a panel per op kind, each on its
// own axis), the latency over time (p50 and p99 per second, a panel per op
// kind), the errors and busy retries over time (when there were any), the
// latency percentile spectrum per op kind (log scale to the 99.999th
// percentile), and the throughput of each worker. Charts are inline SVG
// drawn with gonum.org/v1/plot: no script, nothing fetched.
func htmlRun(w io.Writer, r *result.Result, stats []*judge.Figure) error {
	var text bytes.Buffer
	if err := runText(&text, r, stats); err != nil {
		return err
	}
	pg := htmlPage{Title: "gobench " + r.Command, Alerts: runAlerts(r), Gates: newGatesView(r.Gates), Answers: answers(runDurabilityTable(r), runOpsTable(r, statsOr(stats, htmlStats)), runRolesTable(r, statsOr(stats, htmlStats))), Summary: text.String()}
	for i, ph := range r.Phases {
		id := fmt.Sprintf("phase%d", i)
		name := ""
		if len(r.Phases) > 1 {
			name = " · " + ph.Name
		}
		for _, mk := range []func(string, string, result.Phase) (chart, error){throughputChart, latencyChart, contentionChart, spectrumChart, workersChart} {
			c, err := mk(id, name, ph)
			if err != nil {
				return err
			}
			if c.Points > 0 {
				pg.Charts = append(pg.Charts, c)
			}
		}
	}
	return writePage(w, pg)
}

// htmlSuite writes a self-contained HTML report of a suite: the text
// summary, then for each throughput and p99 metric a column per cell with
// every repeat as a dot, the median as a bar across and the range as a
// line, labelled with the factor against the baseline and whether it is
// significant.
func htmlSuite(w io.Writer, sum *judge.Summary) error {
	pg, err := suitePage("", sum)
	if err != nil {
		return err
	}
	return writePage(w, pg)
}

// suitePage is the page of a suite (see htmlSuite), its charts' ids
// beginning with prefix.
func suitePage(prefix string, sum *judge.Summary) (htmlPage, error) {
	var text bytes.Buffer
	if err := suiteText(&text, sum); err != nil {
		return htmlPage{}, err
	}
	title := "gobench " + sum.Suite.Command
	if len(sum.Suite.Varied) > 0 {
		title += " · " + strings.Join(sum.Suite.Varied, ", ")
	}
	s := sum.Suite
	alerts := incompleteLines(s)
	var notes []string
	if line := failedSuiteWarning(s); line != "" && s.Scenario != nil {
		notes = append(notes, line) // the scenario's finding, not an alarm
	} else if line != "" {
		alerts = append(alerts, line)
	}
	_, own := s.Fixed()
	if line := optionsLine(own); line != "" {
		notes = append(notes, line)
	}
	if line := judge.SuiteVersionsNote(s); line != "" {
		notes = append(notes, line)
	}
	if line := suiteVersionLine(s); line != "" {
		notes = append(notes, line)
	}
	pg := htmlPage{Title: title, Alerts: alerts, Notes: notes, Scenario: s.Scenario, Gates: newGatesView(s.Gates), Answers: answers(suiteDurabilityTable(s), rankingTable(sum), headlineTable(sum)), Summary: text.String()}
	for i, m := range sum.Metrics {
		// Total throughput and each op's p99: an op kind's throughput in
		// a mix of fixed shares is the total's, scaled, and would draw
		// the same chart again.
		if !(m.Metric.Kind == "total" && m.Metric.Stat == "ops/s") && m.Metric.Stat != "p99" {
			continue
		}
		c, err := cellDots(fmt.Sprintf("%smetric%d", prefix, i), sum.Suite, m)
		if err != nil {
			return htmlPage{}, err
		}
		pg.Charts = append(pg.Charts, c)
	}
	return pg, nil
}

// percentileTicks labels the percentile axis, which spectrumChart lays out
// as -log10(1-q/100), HdrHistogram's: 90% at 1, 99% at 2, 99.9% at 3.
type percentileTicks struct{}

func (percentileTicks) Ticks(min, max float64) []plot.Tick {
	var t []plot.Tick
	for i, lab := range []string{"0%", "90%", "99%", "99.9%", "99.99%", "99.999%"} {
		if x := float64(i); x >= min-1e-9 && x <= max+1e-9 {
			t = append(t, plot.Tick{Value: x, Label: lab})
		}
	}
	return t
}

func (latencyTicks) Ticks(min, max float64) []plot.Tick { return logTicks(min, max, units.Micros) }

// spectrumChart draws, per op kind, the latency at every percentile up to
// 99.999, from the full histogram.
func spectrumChart(id, name string, ph result.Phase) (chart, error) {
	c := chart{ID: id + "-percentiles", Title: "Latency by percentile, per op kind" + name}
	p := newPlot("", "percentile", "latency (log scale)")
	p.X.Tick.Marker = percentileTicks{}
	p.Y.Scale = plot.LogScale{}
	p.Y.Tick.Marker = latencyTicks{}
	p.X.Min, p.X.Max = 0, 5
	for i, o := range ph.Ops {
		h, err := o.DecodeHistogram()
		if err != nil {
			return c, err
		}
		if h.TotalCount() == 0 {
			continue
		}
		var xy plotter.XYs
		for x := 0.0; x <= 5.0001; x += 0.05 {
			q := 100 * (1 - math.Pow(10, -x))
			v := float64(percentile.Value(h, q)) / 1e3
			xy = append(xy, plotter.XY{X: x, Y: math.Max(v, 0.001)})
		}
		l, err := plotter.NewLine(xy)
		if err != nil {
			return c, err
		}
		l.Color = palette[i%len(palette)]
		l.Width = vg.Points(1.5)
		p.Add(l)
		p.Legend.Add(o.Kind, l)
		c.Points += len(xy)
	}
	fixLogRange(p)
	var err error
	c.SVG, err = renderSVG(p, 10*vg.Inch, 4*vg.Inch)
	return c, err
}

// workersChart draws each worker's throughput, sorted, to show the spread.
func workersChart(id, name string, ph result.Phase) (chart, error) {
	c := chart{ID: id + "-workers", Title: "Throughput of each worker (ops/s, sorted): the spread between the fastest and the slowest" + name}
	var vals plotter.Values
	for _, w := range ph.Workers {
		vals = append(vals, w.OpsPerSec)
	}
	if len(vals) == 0 {
		return c, nil
	}
	slices.Sort(vals)
	// A worker served at under a tenth of the median's rate is starved:
	// its bar is drawn apart, in red, and the title says how many.
	med := ph.WorkerSpread.MedianOpsPerSec
	served, starved := make(plotter.Values, len(vals)), make(plotter.Values, len(vals))
	n := 0
	for i, v := range vals {
		if v < med/10 {
			starved[i] = v
			n++
		} else {
			served[i] = v
		}
	}
	if f, ok := judge.FairnessOf(&ph); ok {
		c.Title = fmt.Sprintf("Throughput of each worker (ops/s, sorted): fairness %s (Jain's index, 1 = equal shares)", units.Fixed(f.Index, 2))
		if n > 0 {
			c.Title += fmt.Sprintf("; %d starved (red: under a tenth of the median)", n)
		}
		c.Title += name
	}
	p := newPlot("", fmt.Sprintf("workers, slowest to fastest (median %s ops/s)", units.Rate(med)), "ops/s")
	width := vg.Points(max(2, 600/float64(len(vals))-2))
	for i, vs := range []plotter.Values{served, starved} {
		bars, err := plotter.NewBarChart(vs, width)
		if err != nil {
			return c, err
		}
		bars.Color = palette[i] // blue served, red starved
		bars.LineStyle.Width = 0
		p.Add(bars)
	}
	p.HideX()
	c.Points = len(vals)
	var err error
	c.SVG, err = renderSVG(p, 10*vg.Inch, 3*vg.Inch)
	return c, err
}

// runAlerts are the lines a run's page leads with: a run that did not
// complete, a shard of its workers, ops that failed.
func runAlerts(r *result.Result) []string {
	var out []string
	if !r.Complete {
		out = append(out, "INCOMPLETE RESULT: "+strings.Join(r.Problems, "; "))
	}
	if line := r.WorkerShardLine(); line != "" {
		out = append(out, line)
	}
	if line := failedRunWarning(r); line != "" {
		out = append(out, line)
	}
	return out
}
