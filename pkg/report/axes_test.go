package report

import (
	"fmt"
	"html"
	"regexp"
	"strings"
	"testing"

	"github.com/gobench/gobench/internal/golden"
	"github.com/gobench/gobench/pkg/judge"
)

// Every figure a suite's page can chart names its vertical axis in the
// unit its ticks are in: a time's ticks carry their own units (250ms,
// 1.00s) and its axis names what is timed, never the µs its values are
// kept in; any other axis names the unit its ticks count. Each figure is
// drawn twice, on a linear axis (values within a factor of five) and on
// a log one; the golden lists the label and the ticks of each.
func TestChartAxesAgreeWithTicks(t *testing.T) {
	s := loadSuiteFixture(t, "matrix.json")
	timeTick := regexp.MustCompile(`^(0|[0-9.]+(ns|µs|ms|s|m|h))$`)
	var b strings.Builder
	for _, f := range judge.Figures {
		name := f.Name
		if f.PerKind {
			name = "read " + name
		}
		m, err := judge.ParseMetric(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, values := range [][2]float64{{1500, 4000}, {1500, 250000}} {
			sum := judge.MetricSummary{Metric: m, Unit: m.Unit(), Direction: m.Direction()}
			for i, c := range s.Cells {
				v := values[i%2]
				sum.Cells = append(sum.Cells, judge.CellStats{Settings: c.Settings, Stats: judge.Stats{N: 1, Values: []float64{v}, Min: v, Median: v, Max: v}})
			}
			c, err := cellDots("metric", s, sum)
			if err != nil {
				t.Fatal(err)
			}
			m := yLabel.FindStringSubmatch(string(c.SVG))
			if m == nil {
				t.Fatalf("%s: no vertical axis label in the chart", name)
			}
			label, ticks := html.UnescapeString(m[1]), axisTicks(string(c.SVG), m[1])
			fmt.Fprintf(&b, "%s (%s): %q over %s\n", name, f.Unit, label, strings.Join(ticks, ", "))
			latency := f.Scale == judge.Latency
			if strings.Contains(label, "µs") {
				t.Errorf("%s: the axis says %q: its ticks carry their own time units", name, label)
			}
			for _, tick := range ticks {
				if timeTick.MatchString(tick) != latency && tick != "0" {
					t.Errorf("%s: tick %q under the axis %q", name, tick, label)
				}
			}
			if !latency && strings.TrimSuffix(label, " (log scale)") != f.Unit {
				t.Errorf("%s: the axis says %q, not its unit %q", name, label, f.Unit)
			}
		}
	}
	golden.Check(t, "chart-axes.txt", []byte(b.String()))
}

// axisTicks returns the texts a chart drew after its vertical axis's
// label up to the first factor label above a column: that axis's ticks.
func axisTicks(svg, label string) []string {
	var ticks []string
	after := false
	for _, m := range svgText.FindAllStringSubmatch(svg, -1) {
		switch {
		case m[1] == label:
			after = true
		case !after:
		case m[1] == "baseline" || strings.HasPrefix(m[1], "×") || m[1] == "":
			return ticks
		default:
			ticks = append(ticks, html.UnescapeString(m[1]))
		}
	}
	return ticks
}
