package report

import (
	"bytes"
	"fmt"
	"html/template"
	"image/color"
	"io"
	"math"
	"slices"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgsvg"

	"github.com/gobench/gobench/pkg/judge"
	"github.com/gobench/gobench/pkg/percentile"
	"github.com/gobench/gobench/pkg/result"
	"github.com/gobench/gobench/pkg/units"
	"github.com/gobench/gobench/pkg/workload"
)

// chart is one figure of an HTML report.
type chart struct {
	ID     string
	Title  string
	Points int // data points drawn, for tests and readers of the DOM
	SVG    template.HTML
}

type page struct {
	Title string
	// Alerts come first, each a line: a run that did not complete, ops
	// that failed, a shard that is not the whole.
	Alerts []string
	// Gates come next: a gate that failed or could not decide is among
	// the first things a reader sees.
	Gates *gatesView
	// Scenario, for a scenario's suite, is its verdict and finding,
	// after the alerts and before the gates.
	Scenario *result.Scenario
	// Answers are the page's answer, after the gates, each a table: what
	// power cuts lost (--crash), a run's figures per op kind, a matrix's
	// cells ranked and each setting against the baseline's value, each
	// cell's sustainable rate.
	Answers []*answer
	// Summary is the whole text report, folded under the charts.
	Summary string
	Charts  []chart
}

// answer is a small table of the page: its caption, its head and its
// rows, and lines of notes under it (a document's table block).
type answer = table

// answers drops the tables that are nil.
func answers(as ...*answer) []*answer {
	var out []*answer
	for _, a := range as {
		if a != nil {
			out = append(out, a)
		}
	}
	return out
}

var pageTemplate = template.Must(template.New("report").Parse(gatesHTML + scenarioHTML + bookHTML + `{{define "head"}}<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="gobench">
<title>{{.Title}}</title>
<style>
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 1100px; color: #222; }
h1 { font-size: 1.4em; }
pre.summary { background: #f6f6f6; padding: 1em; white-space: pre-wrap; overflow-wrap: anywhere; font-size: 0.85em; line-height: 1.35; }
figure.chart { margin: 2em 0; }
figure.chart figcaption { font-weight: 600; margin-bottom: 0.5em; }
figure.chart svg { width: 100%; height: auto; }
section.gates table, section.answer table { border-collapse: collapse; font-size: 0.9em; margin: 1em 0; }
p.alert { background: #fdecea; border-left: 0.3em solid #c62828; padding: 0.5em 0.8em; font-weight: 600; }
section.answer p.note { font-size: 0.85em; color: #555; margin: 0.2em 0; }
section.answer th, section.answer td { border: 1px solid #ddd; padding: 0.3em 0.6em; text-align: right; }
section.answer td:first-child, section.answer th:first-child { text-align: left; }
section.answer caption { text-align: left; font-weight: 600; margin-bottom: 0.4em; }
details.text summary { cursor: pointer; font-weight: 600; margin: 1em 0; }
section.gates th, section.gates td { border: 1px solid #ddd; padding: 0.3em 0.6em; text-align: left; vertical-align: top; }
section.gates tr.fail { background: #fdecea; }
section.gates tr.inconclusive { background: #fff8e1; }
section.gates tr.pass { background: #edf7ed; }
section.scenario { border-left: 0.4em solid #2e7d32; padding: 0 1em; margin: 1em 0; }
section.scenario.fail { border-left-color: #c62828; }
.verdict { font-weight: 700; padding: 0.1em 0.5em; border-radius: 0.3em; color: #fff; white-space: nowrap; }
.verdict.fail { background: #c62828; }
.verdict.inconclusive { background: #b26a00; }
.verdict.pass { background: #2e7d32; }
</style>
</head>
<body>
<h1>{{.Title}}</h1>
{{end}}{{define "body"}}{{range .Alerts}}<p class="alert">{{.}}</p>
{{end}}{{template "scenario" .Scenario}}{{template "gates" .Gates}}{{range .Answers}}<section class="answer"><table>
<caption>{{.Caption}}</caption>
<tr>{{range .Head}}<th>{{.}}</th>{{end}}</tr>
{{range .Rows}}<tr>{{range .}}<td>{{.}}</td>{{end}}</tr>
{{end}}</table>{{range .Notes}}<p class="note">{{.}}</p>
{{end}}</section>
{{end}}{{range .Charts}}<figure class="chart" id="{{.ID}}" data-points="{{.Points}}">
<figcaption>{{.Title}}</figcaption>
{{.SVG}}
</figure>
{{end}}<details class="text"{{if not .Charts}} open{{end}}><summary>The whole report, as text</summary>
<pre class="summary">{{.Summary}}</pre>
</details>
{{end}}{{template "head" .}}{{template "body" .}}</body>
</html>
`))

// writePage writes the page: html/template escapes its markup, and the
// control characters it leaves (an escape sequence in a crafted result's
// text, which a terminal showing the file would act on) are shown as %q
// would.
func writePage(w io.Writer, pg page) error {
	return writeTemplate(w, "report", pg)
}

// writeTemplate writes the page's template name with data, escaped as
// writePage says.
func writeTemplate(w io.Writer, name string, data any) error {
	var b strings.Builder
	if err := pageTemplate.ExecuteTemplate(&b, name, data); err != nil {
		return err
	}
	_, err := io.WriteString(w, visible(b.String(), "\n"))
	return err
}

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
	pg := page{Title: "gobench " + r.Command, Alerts: runAlerts(r), Gates: newGatesView(r.Gates), Answers: answers(runDurability(r), runAnswer(r, statsOr(stats, htmlStats))), Summary: text.String()}
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
func suitePage(prefix string, sum *judge.Summary) (page, error) {
	var text bytes.Buffer
	if err := suiteText(&text, sum); err != nil {
		return page{}, err
	}
	title := "gobench " + sum.Suite.Command
	if len(sum.Suite.Varied) > 0 {
		title += " · " + strings.Join(sum.Suite.Varied, ", ")
	}
	s := sum.Suite
	alerts := incompleteLines(s)
	if line := failedSuiteWarning(s); line != "" {
		alerts = append(alerts, line)
	}
	pg := page{Title: title, Alerts: alerts, Scenario: s.Scenario, Gates: newGatesView(s.Gates), Answers: answers(suiteDurabilityAnswer(s), rankingAnswer(sum), suiteAnswer(sum)), Summary: text.String()}
	for i, m := range sum.Metrics {
		// Total throughput and each op's p99: an op kind's throughput in
		// a mix of fixed shares is the total's, scaled, and would draw
		// the same chart again.
		if !(m.Metric.Kind == "total" && m.Metric.Stat == "ops/s") && m.Metric.Stat != "p99" {
			continue
		}
		c, err := cellDots(fmt.Sprintf("%smetric%d", prefix, i), sum.Suite, m)
		if err != nil {
			return page{}, err
		}
		pg.Charts = append(pg.Charts, c)
	}
	return pg, nil
}

// chartFont is the charts' typeface, set on each plot's text (newPlot):
// gonum/plot's default is a serif, and changing its package default would
// change every other plot in the program.
var chartFont = font.Font{Typeface: "Liberation", Variant: "Sans"}

// palette holds distinct colours for series.
var palette = []color.RGBA{
	{R: 0x1f, G: 0x77, B: 0xb4, A: 255}, {R: 0xd6, G: 0x27, B: 0x28, A: 255}, {R: 0x2c, G: 0xa0, B: 0x2c, A: 255},
	{R: 0xff, G: 0x7f, B: 0x0e, A: 255}, {R: 0x94, G: 0x67, B: 0xbd, A: 255}, {R: 0x8c, G: 0x56, B: 0x4b, A: 255},
}

// render draws a plot as inline SVG.
func render(p *plot.Plot, width, height vg.Length) (template.HTML, error) {
	c := vgsvg.New(width, height)
	p.Draw(draw.New(c))
	var b bytes.Buffer
	if _, err := c.WriteTo(&b); err != nil {
		return "", err
	}
	s := b.String()
	if i := strings.Index(s, "<svg"); i >= 0 {
		s = s[i:] // drop the XML prolog: the SVG sits inside HTML
	}
	return template.HTML(s), nil // generated by gonum/plot from numbers and op names
}

// renderStack draws plots one above the other, their axes aligned, as one
// inline SVG.
func renderStack(plots []*plot.Plot, width, height vg.Length) (template.HTML, error) {
	c := vgsvg.New(width, height)
	rows := make([][]*plot.Plot, len(plots))
	for i, p := range plots {
		rows[i] = []*plot.Plot{p}
	}
	tiles := draw.Tiles{Rows: len(plots), Cols: 1, PadY: vg.Points(8), PadTop: vg.Points(4), PadBottom: vg.Points(4), PadLeft: vg.Points(4), PadRight: vg.Points(8)}
	canvases := plot.Align(rows, tiles, draw.New(c))
	for i, p := range plots {
		p.Draw(canvases[i][0])
	}
	var b bytes.Buffer
	if _, err := c.WriteTo(&b); err != nil {
		return "", err
	}
	s := b.String()
	if i := strings.Index(s, "<svg"); i >= 0 {
		s = s[i:]
	}
	return template.HTML(s), nil // generated by gonum/plot from numbers and op names
}

func newPlot(title, x, y string) *plot.Plot {
	p := plot.New()
	for _, st := range []*text.Style{&p.Title.TextStyle, &p.X.Label.TextStyle, &p.Y.Label.TextStyle, &p.X.Tick.Label, &p.Y.Tick.Label, &p.Legend.TextStyle} {
		st.Font = font.From(chartFont, st.Font.Size)
	}
	p.Title.Text = title
	p.X.Label.Text = x
	p.Y.Label.Text = y
	p.Legend.Top = true
	p.Add(plotter.NewGrid())
	return p
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

// latencyTicks labels a log-scaled latency axis (in µs) in time units:
// 10µs, 1ms, 1.00s.
type latencyTicks struct{}

func (latencyTicks) Ticks(min, max float64) []plot.Tick { return logTicks(min, max, units.Micros) }

// logTicks ticks a log-scaled axis from lo to hi: every 1, 2 and 5 times
// a power of ten labelled (label formats a value), the other whole
// multiples as minor ticks; an axis with fewer than two labels in range
// gets its ends labelled too, so no axis reads from one figure.
func logTicks(lo, hi float64, label func(float64) string) []plot.Tick {
	if !(lo > 0) || !(hi > lo) {
		return []plot.Tick{{Value: lo, Label: label(lo)}, {Value: hi, Label: label(hi)}}
	}
	var ticks []plot.Tick
	labelled := 0
	for p := math.Pow(10, math.Floor(math.Log10(lo))); p <= hi; p *= 10 {
		for m := 1.0; m < 10; m++ {
			v := m * p
			if v < lo || v > hi {
				continue
			}
			t := plot.Tick{Value: v}
			if m == 1 || m == 2 || m == 5 {
				t.Label = label(v)
				labelled++
			}
			ticks = append(ticks, t)
		}
	}
	if labelled < 2 {
		ticks = append(ticks, plot.Tick{Value: lo, Label: label(lo)}, plot.Tick{Value: hi, Label: label(hi)})
	}
	return ticks
}

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
	c.SVG, err = render(p, 10*vg.Inch, 4*vg.Inch)
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
	c.SVG, err = render(p, 10*vg.Inch, 3*vg.Inch)
	return c, err
}

// runAnswer is a run's figures at a glance: per op kind of each phase,
// the count, rate, the latency statistics stats (p50, p99, p99.9 unless
// asked) and errors.
func runAnswer(r *result.Result, stats []*judge.Figure) *answer {
	errCell := func(o result.OpStats) string { return errorsShort(o.Errors) }
	a := opTable(nil, stats, errCell)
	for _, ph := range r.Phases {
		rows := slices.DeleteFunc(append(slices.Clone(ph.Ops), ph.Total), func(o result.OpStats) bool { return workload.IsMarkerKind(o.Kind) })
		for _, row := range opTable(rows, stats, errCell).Rows {
			if len(r.Phases) > 1 {
				row[0] = ph.Name + ": " + row[0]
			}
			a.Rows = append(a.Rows, row)
		}
	}
	if len(a.Rows) == 0 {
		return nil
	}
	return a
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

// runDurability is what a --crash run's power cuts found, as a table;
// nil without --crash.
func runDurability(r *result.Result) *answer {
	d := r.Durability
	if d == nil {
		return nil
	}
	a := &answer{Caption: fmt.Sprintf("Durability (--crash %d, %s model)", d.Requested, d.Model), Head: durabilityHead, Rows: [][]string{durabilityRow(d)}}
	a.Notes = append(a.Notes, durabilityLegend)
	if d.NotChecked != "" {
		a.Notes = append(a.Notes, "–: acknowledged writes not checked: "+d.NotChecked)
	}
	a.Notes = append(a.Notes, d.Examples...)
	if note := dirSyncNote(r); note != "" {
		a.Notes = append(a.Notes, note)
	}
	return a
}

// suiteDurabilityAnswer is a --crash suite's durability table, a row per
// cell; nil without --crash.
func suiteDurabilityAnswer(s *result.Suite) *answer {
	rows, settings, model := suiteDurability(s)
	if rows == nil {
		return nil
	}
	a := &answer{Caption: "Durability (--crash: " + model + "; over every repeat)", Head: append(append([]string{}, variedOr(s)...), durabilityHead...)}
	for i, row := range rows {
		a.Rows = append(a.Rows, append(cellValues(s.Varied, settings[i]), row...))
	}
	a.Notes = append([]string{durabilityLegend}, suiteDirSyncNotes(s)...)
	return a
}

// rankingAnswer is every cell of a matrix ranked by the headline
// figures; nil for a suite of one cell.
func rankingAnswer(sum *judge.Summary) *answer {
	rk := sum.Ranking()
	s := sum.Suite
	if len(s.Cells) < 2 || len(rk.Metrics) == 0 {
		return nil
	}
	caption := rankingCaption(sum, rk)
	a := &answer{Caption: strings.ToUpper(caption[:1]) + caption[1:], Head: append(append([]string{"#"}, variedOr(s)...), rankingHead(rk)...)}
	for i, c := range rk.Cells {
		a.Rows = append(a.Rows, append(append([]string{rankLabel(c, i)}, cellValues(s.Varied, c.Settings)...), rankingRow(rk, c)...))
	}
	return a
}

// suiteAnswer is a matrix's headlines: each varied setting's value
// against the baseline's at every combination of the others, on the
// headline figures, with the rank test's word on each.
func suiteAnswer(sum *judge.Summary) *answer {
	hs := sum.Headlines()
	if len(hs) == 0 {
		return nil
	}
	single := singleRuns(sum)
	a := &answer{Caption: "Each setting against the baseline's value (" + sum.Suite.Baseline.String() + ") at every combination of the others: ratios of medians", Head: []string{"setting"}}
	for _, h := range hs {
		for _, m := range h.Metrics {
			if !slices.Contains(a.Head, m.String()) {
				a.Head = append(a.Head, m.String())
			}
		}
	}
	for _, h := range hs {
		row := []string{h.Pair()}
		for _, name := range a.Head[1:] {
			cell := "–"
			for i, m := range h.Metrics {
				if m.String() != name {
					continue
				}
				f := h.Factors[i]
				switch cell = f.Short(); {
				case single:
				case f.Significant:
					cell += " (" + f.Interval() + ")"
				default:
					cell += " ~"
				}
			}
			row = append(row, cell)
		}
		a.Rows = append(a.Rows, row)
	}
	if note := repeatsNote(sum); note != "" {
		a.Notes = append(a.Notes, note)
	}
	a.Notes = append(a.Notes, headlineNotes(hs)...)
	return a
}
