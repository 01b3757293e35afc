package report

import (
	"bytes"
	"cmp"
	"fmt"
	"image/color"
	"io"
	"math"
	"slices"
	"strings"
	"text/tabwriter"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/gobench/gobench/pkg/judge"
	"github.com/gobench/gobench/pkg/result"
	"github.com/gobench/gobench/pkg/units"
)

// capacityJSON writes a capacity result as JSON, every step included.
func capacityJSON(w io.Writer, c *result.Capacity) error { return c.Write(w) }

// capacityText writes a capacity search: what was asked, each cell's
// sustainable rate with its confirmation, the factors between cells, then
// each cell's curve, step by step.
func capacityText(w io.Writer, c *result.Capacity) error {
	ew := textWriter(w)
	ew.printf("gobench %s --find-rate · objectives: %s · implicit: achieved ≥ %g%% of the offered rate, errors ≤ %g%% of ops\n",
		c.Command, strings.Join(c.Objectives, ", "), 100*c.MinAchieved, 100*c.MaxErrorShare)
	ew.printf("steps of %s s after a settle, bisection to %g%%, confirmed by %d %s of %g× a step; latency from each op's due time\n",
		units.Fixed(c.StepSeconds, 1), 100*c.Tolerance, c.Confirmations, plural(c.Confirmations, "run", "runs"), c.ConfirmFactor)
	if len(c.Cells) > 0 {
		var common []string
		for _, st := range c.Cells[0].Settings {
			if !slices.Contains(c.Varied, st.Name) {
				common = append(common, st.Name+"="+st.Value)
			}
		}
		ew.printf("common: %s\n", strings.Join(common, " "))
	}
	ew.printf("\n")
	tw := ew.aligned(tabwriter.AlignRight)
	tw.printf("cell\tsustainable ops/s\t%sp50\tp99\tmax\terrors\tvs baseline\tsteps\tceiling ops/s\t\n", objectiveHeads(c))
	base := capacityBaseline(c)
	for _, cv := range c.Cells {
		rate, p50, p99, mx, errs := noneFound(cv), "–", "–", "–", "–"
		if cf := cv.Confirmed; cv.Found && cf != nil {
			rate, p50, p99, mx, errs = units.Rate(cv.Rate), units.Micros(cf.P50Micros), units.Micros(cf.P99Micros), units.Micros(cf.MaxMicros), fmt.Sprint(cf.Errors)
		}
		vs := ""
		if len(c.Cells) > 1 {
			switch {
			case cv.Settings.String() == base.Settings.String():
				vs = "baseline"
			case cv.Found && base.Found && base.Rate > 0:
				vs = "×" + units.Sig3(cv.Rate/base.Rate)
			default:
				vs = "–"
			}
		}
		tw.printf("%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%d\t%s\t\n", cellLabel(cv, c.Varied), rate, textCells(objectiveFigures(c, cv)), p50, p99, mx, errs, vs, len(cv.Steps), units.Rate(cv.Ceiling))
	}
	tw.flush()
	if ew.err != nil {
		return ew.err
	}
	for _, line := range capacityHeadlines(c) {
		ew.printf("%s\n", line)
	}
	for _, cv := range c.Cells {
		ew.printf("\ncurve · %s", cellLabel(cv, c.Varied))
		if !cv.Complete {
			ew.printf(" · INCOMPLETE: %s", strings.Join(cv.Problems, "; "))
		}
		ew.printf("\n")
		if line := diskDrift(cv); line != "" {
			ew.printf("%s\n", line)
		}
		capacityCurveText(ew, cv)
	}
	gatesText(ew, c.Gates)
	return ew.err
}

// objectiveHeads are the columns of the objectives' figures ("upsert
// p99\t"), each ending with a tab.
func objectiveHeads(c *result.Capacity) trusted {
	var b strings.Builder
	for _, o := range c.Objectives {
		b.WriteString(textEscape(objectiveMetric(o)) + "\t")
	}
	return trusted(b.String())
}

// objectiveMetric is the metric an objective judges, "upsert p99" of
// "upsert p99 <= 5ms"; the text itself if it does not parse.
func objectiveMetric(text string) string {
	if e, err := judge.ParseExpectation(text); err == nil {
		return e.Metric.String()
	}
	return text
}

// StepSummary says what a step of a search offered, achieved and met,
// with the objectives' figures: "7495 ops/s offered, 7475 achieved: NOT
// met (upsert p99 36.4ms)"; a confirmation's begins "confirming".
func StepSummary(st result.CapacityStep) string {
	what := units.Rate(st.Offered) + " ops/s offered"
	if st.Confirmation {
		what = "confirming " + what
	}
	verdict := "met"
	if !st.Met {
		verdict = "NOT met"
	}
	var figures []string
	for _, g := range st.Verdicts {
		switch {
		case g.Unit == "µs": // a latency objective
			figures = append(figures, objectiveMetric(g.Expression)+" "+units.Micros(g.Value))
		case !g.Pass:
			figures = append(figures, g.Expression+": no")
		}
	}
	return fmt.Sprintf("%s, %s achieved: %s (%s)", what, units.Rate(st.Achieved), verdict, strings.Join(figures, ", "))
}

// objectiveFigures are a cell's objective figures at its confirmed rate,
// "–" where none was found.
func objectiveFigures(c *result.Capacity, cv result.CapacityCurve) []string {
	var parts []string
	for i := range c.Objectives {
		v := "–"
		if cf := cv.Confirmed; cv.Found && cf != nil && i < len(cf.Verdicts) {
			v = capacityFigure(cf.Verdicts[i])
		}
		parts = append(parts, v)
	}
	return parts
}

// diskDrift says how fast the disk's fsync was before and after a cell's
// search, and warns when it slowed by a third or more: the late steps and
// the confirmations then ran on a slower machine than the early ones.
func diskDrift(cv result.CapacityCurve) string {
	b, a := cv.DiskBefore, cv.DiskAfter
	if b == nil {
		return ""
	}
	s := fmt.Sprintf("disk (%s): %s fsync/s before the search (p99 %s)", b.Filesystem, units.Rate(b.FsyncPerSec), units.Micros(b.P99Micros))
	if a == nil {
		return s
	}
	s += fmt.Sprintf(", %s after (p99 %s)", units.Rate(a.FsyncPerSec), units.Micros(a.P99Micros))
	if b.FsyncPerSec > 0 && a.FsyncPerSec < 2*b.FsyncPerSec/3 {
		s += ": WARNING, the disk slowed during the search; its later steps ran on a slower machine"
	}
	return s
}

// capacityCurveText writes a curve's steps, one per line.
func capacityCurveText(ew *errWriter, cv result.CapacityCurve) {
	tw := ew.aligned(tabwriter.AlignRight)
	tw.printf("step\toffered ops/s\tachieved ops/s\tp50\tp99\tservice p99\terrors\t  verdict\n")
	for i, st := range cv.Steps {
		name := fmt.Sprint(i + 1)
		if st.Confirmation {
			name += " (confirm)"
		}
		tw.printf("%s\t%s\t%s\t%s\t%s\t%s\t%d\t  %s\n", name, units.Rate(st.Offered), units.Rate(st.Achieved),
			units.Micros(st.P50Micros), units.Micros(st.P99Micros), units.Micros(st.ServiceP99Micros), st.Errors, stepVerdict(st))
	}
	tw.flush()
}

// stepVerdict is "met", or "NOT met: " and the conditions that failed.
func stepVerdict(st result.CapacityStep) string { return verdictText(st.Met, st.Verdicts) }

// verdictText is "met", or "NOT met: " and the verdicts that failed.
func verdictText(met bool, verdicts []result.Gate) string {
	if met {
		return "met"
	}
	var failed []string
	for _, g := range verdicts {
		if !g.Pass {
			failed = append(failed, fmt.Sprintf("%s (%s)", g.Expression, capacityFigure(g)))
		}
	}
	return "NOT met: " + strings.Join(failed, "; ")
}

// capacityFigure prints a verdict's value in its unit.
func capacityFigure(g result.Gate) string {
	switch g.Unit {
	case "µs":
		return units.Micros(g.Value)
	case "ops/s":
		return units.Rate(g.Value) + " ops/s"
	}
	return fmt.Sprintf("%s %s", units.Sig3(g.Value), g.Unit)
}

// cellLabel names a cell by its varied settings ("journal=wal"), or
// "the cell" when nothing varied.
func cellLabel(cv result.CapacityCurve, varied []string) string {
	if only := cv.Settings.Only(varied); len(only) > 0 {
		return only.String()
	}
	return "the cell"
}

// capacityBaseline is the cell the factors compare with: the one whose
// varied settings are the baseline's, or the first cell.
func capacityBaseline(c *result.Capacity) *result.CapacityCurve {
	if len(c.Cells) == 0 {
		return nil
	}
	for i := range c.Cells {
		if c.Baseline != nil && c.Cells[i].Settings.Only(c.Varied).String() == c.Baseline.String() {
			return &c.Cells[i]
		}
	}
	return &c.Cells[0]
}

// capacityHeadlines says, per cell against the baseline, how their
// sustainable rates compare: "journal=wal sustains 7.2× journal=rollback's
// rate at upsert p99 <= 20ms".
func capacityHeadlines(c *result.Capacity) []string {
	base := capacityBaseline(c)
	if base == nil || len(c.Cells) < 2 {
		return nil
	}
	var out []string
	for _, cv := range c.Cells {
		if cv.Settings.String() == base.Settings.String() {
			continue
		}
		what := fmt.Sprintf("%s vs %s: ", cellLabel(cv, c.Varied), cellLabel(*base, c.Varied))
		switch {
		case cv.Found && base.Found && base.Rate > 0:
			out = append(out, what+fmt.Sprintf("sustains ×%s the rate (%s against %s ops/s) at %s", units.Sig3(cv.Rate/base.Rate), units.Rate(cv.Rate), units.Rate(base.Rate), strings.Join(c.Objectives, ", ")))
		case !cv.Found:
			out = append(out, what+"no sustainable rate in "+cellLabel(cv, c.Varied)+": "+cv.NotFound())
		default:
			out = append(out, what+"no sustainable rate in the baseline: "+base.NotFound())
		}
	}
	return out
}

// capacityMarkdown writes the sustainable rates as a table, then each
// curve as one.
func capacityMarkdown(w io.Writer, c *result.Capacity) error {
	ew := markdownWriter(w)
	ew.printf("**gobench %s --find-rate** · %s · latency from each op's due time\n\n", c.Command, strings.Join(c.Objectives, ", "))
	ew.printf("| cell | sustainable ops/s | p50 | p99 | max | ceiling ops/s |\n|---|--:|--:|--:|--:|--:|\n")
	for _, cv := range c.Cells {
		rate, p50, p99, mx := noneFound(cv), "–", "–", "–"
		if cf := cv.Confirmed; cv.Found && cf != nil {
			rate, p50, p99, mx = units.Rate(cv.Rate), units.Micros(cf.P50Micros), units.Micros(cf.P99Micros), units.Micros(cf.MaxMicros)
		}
		ew.printf("| %s | %s | %s | %s | %s | %s |\n", cellLabel(cv, c.Varied), rate, p50, p99, mx, units.Rate(cv.Ceiling))
	}
	if lines := capacityHeadlines(c); len(lines) > 0 {
		ew.printf("\n")
		for _, l := range lines {
			ew.printf("- %s\n", l)
		}
	}
	for _, cv := range c.Cells {
		ew.printf("\n%s:\n", cellLabel(cv, c.Varied))
		if line := diskDrift(cv); line != "" {
			ew.printf("\n%s\n", line)
		}
		ew.printf("\n| offered ops/s | achieved ops/s | p50 | p99 | service p99 | errors | verdict |\n|--:|--:|--:|--:|--:|--:|---|\n")
		for _, st := range cv.Steps {
			ew.printf("| %s | %s | %s | %s | %s | %d | %s |\n", units.Rate(st.Offered), units.Rate(st.Achieved), units.Micros(st.P50Micros),
				units.Micros(st.P99Micros), units.Micros(st.ServiceP99Micros), st.Errors, stepVerdict(st))
		}
	}
	return ew.err
}

// capacityCSV writes one row per step of every cell.
func capacityCSV(w io.Writer, c *result.Capacity) error {
	cw := newCSVWriter(w)
	_ = cw.Write([]string{"cell", "step", "confirmation", "offered_ops_per_sec", "achieved_ops_per_sec", "ops", "errors",
		"p50_us", "p99_us", "max_us", "service_p99_us", "met", "sustainable_ops_per_sec"})
	for _, cv := range c.Cells {
		found := ""
		if cv.Found {
			found = csvRate(cv.Rate)
		}
		for i, st := range cv.Steps {
			_ = cw.Write([]string{cv.Settings.String(), fmt.Sprint(i + 1), fmt.Sprint(st.Confirmation), csvRate(st.Offered), csvRate(st.Achieved),
				i64(st.Ops), i64(st.Errors), csvSig3(st.P50Micros), csvSig3(st.P99Micros), csvSig3(st.MaxMicros), csvSig3(st.ServiceP99Micros),
				fmt.Sprint(st.Met), found})
		}
	}
	cw.Flush()
	return cw.Error()
}

// capacityHTML writes the text report and the latency–throughput chart:
// each step's figure for the first objective (from its ops' due times)
// against the rate it achieved, a line per cell, on log scales, with the
// objective's limit across: the knee where latency leaves the floor.
func capacityHTML(w io.Writer, c *result.Capacity) error {
	var text bytes.Buffer
	if err := capacityText(&text, c); err != nil {
		return err
	}
	pg := htmlPage{Title: "gobench " + c.Command + " --find-rate", Gates: newGatesView(c.Gates), Answers: answers(capacityAnswer(c)), Summary: text.String()}
	objective := strings.Join(c.Objectives, ", ")
	if len(c.Objectives) > 0 {
		objective = c.Objectives[0]
	}
	limitText := ""
	for _, o := range c.Objectives {
		if strings.HasPrefix(o, objectiveMetric(objective)) {
			limitText = o
		}
	}
	ch := chart{ID: "capacity-curve", Title: "Latency against throughput: " + objectiveMetric(objective) + " (from each op's due time) at the rate each step achieved, every step of the search: the line joins a cell's search steps, triangles are its confirmation runs (3× a step long); the dashed line is the limit, " + limitText}
	p := newPlot("", "achieved ops/s (log scale)", objectiveMetric(objective)+" (log scale)")
	p.X.Scale, p.Y.Scale = plot.LogScale{}, plot.LogScale{}
	p.Y.Tick.Marker = latencyTicks{}
	p.X.Tick.Marker = unitTicks{log: true}
	p.Legend.Left, p.Legend.Top = true, true // the low-rate, high-latency corner is empty
	limit := 0.0
	for i, cv := range c.Cells {
		var xy, confirm plotter.XYs
		for _, st := range cv.Steps {
			if st.Achieved <= 0 || len(st.Verdicts) == 0 {
				continue
			}
			limit = st.Verdicts[0].Threshold
			pt := plotter.XY{X: st.Achieved, Y: math.Max(st.Verdicts[0].Value, 0.001)}
			if st.Confirmation {
				confirm = append(confirm, pt)
			} else {
				xy = append(xy, pt)
			}
		}
		if len(xy) > 0 {
			slices.SortFunc(xy, func(a, b plotter.XY) int { return cmp.Compare(a.X, b.X) }) // a line runs left to right
			if err := addLine(p, xy, palette[i%len(palette)], cellLabel(cv, c.Varied), false); err != nil {
				return err
			}
		}
		if len(confirm) > 0 {
			sc, err := plotter.NewScatter(confirm)
			if err != nil {
				return err
			}
			sc.GlyphStyle = draw.GlyphStyle{Color: palette[i%len(palette)], Radius: vg.Points(4), Shape: draw.TriangleGlyph{}}
			p.Add(sc)
			p.Legend.Add(cellLabel(cv, c.Varied)+": confirmations", sc)
		}
		ch.Points += len(xy) + len(confirm)
	}
	if ch.Points > 0 && limit > 0 {
		fn := plotter.NewFunction(func(float64) float64 { return limit })
		fn.Color, fn.Dashes = color.Gray{Y: 0x90}, []vg.Length{vg.Points(4), vg.Points(3)}
		p.Add(fn)
		p.Legend.Add("limit: "+cmp.Or(limitText, units.Micros(limit)), fn)
	}
	if ch.Points > 0 {
		fixLogRange(p)
		svg, err := renderSVG(p, 10*vg.Inch, 4*vg.Inch)
		if err != nil {
			return err
		}
		ch.SVG = svg
		pg.Charts = append(pg.Charts, ch)
	}
	return writePage(w, pg)
}

// capacityAnswer is each cell's sustainable rate, and its objectives'
// figures at that rate.
func capacityAnswer(c *result.Capacity) *answer {
	a := &answer{Caption: "The highest rate each cell sustains within " + strings.Join(c.Objectives, ", "), Head: []string{"cell", "sustainable rate"}}
	for _, o := range c.Objectives {
		a.Head = append(a.Head, objectiveMetric(o))
	}
	for _, cv := range c.Cells {
		rate := noneFound(cv)
		if cv.Found {
			rate = units.Rate(cv.Rate) + " ops/s"
		}
		row := append([]string{cellLabel(cv, c.Varied), rate}, objectiveFigures(c, cv)...)
		a.Rows = append(a.Rows, row)
	}
	return a
}

// noneFound labels a cell without a sustainable rate: "none met" when no
// step met the objectives, "none confirmed" when single steps did but no
// rate held through its confirmation runs.
func noneFound(cv result.CapacityCurve) string {
	for _, st := range cv.Steps {
		if st.Met && !st.Confirmation {
			return "none confirmed"
		}
	}
	return "none met"
}
