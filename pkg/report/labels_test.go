package report

import (
	"regexp"
	"strings"
	"testing"

	"gonum.org/v1/plot/vg"

	"github.com/gobench/gobench/pkg/judge"
	"github.com/gobench/gobench/pkg/result"
)

// emptySetting matches a setting with no value in a label: "bbolt-batch="
// before a comma, a space or the end.
var emptySetting = regexp.MustCompile(`[a-z-]+=(,|\s|$)`)

// A five-engine matrix (mattn, modernc, bbolt, pebble, badger at
// --journal wal, --sync full,normal) names the two settings the user
// varied, and each comparison only the settings that have values: no
// engine's own option is a column of "–", none is named empty in a label.
// Where a setting that varies is one some cells lack (a journal beside
// bbolt), a comparison of two cells that both lack it does not name it.
func TestComparisonLabelsNameNoEmptySetting(t *testing.T) {
	engines := loadSuiteFixture(t, "engines-matrix.json")
	if got := strings.Join(engines.Varied, ","); got != "driver,sync" {
		t.Errorf("varied %s, want driver,sync", got)
	}
	withJournal := loadSuiteFixture(t, "engines-matrix.json")
	// The journal as a varied setting, as a matrix of two journals of
	// SQLite beside bbolt has it: the other engines' cells lack it.
	withJournal.Varied = []string{"driver", "journal", "sync"}
	for i, c := range withJournal.Cells {
		driver, _ := c.Settings.Get("driver")
		sync, _ := c.Settings.Get("sync")
		journal := ""
		if driver == "mattn" || driver == "modernc" {
			journal = "wal"
		}
		withJournal.Cells[i].Settings = result.Settings{{Name: "driver", Value: driver}, {Name: "journal", Value: journal}, {Name: "sync", Value: sync}}
	}
	withJournal.Baseline = withJournal.Cells[0].Settings
	for _, tt := range []struct {
		name  string
		suite *result.Suite
		want  []string // labels among the headlines
	}{
		{"engines", engines, []string{"driver=modernc vs mattn at sync=full", "sync=normal vs full at driver=bbolt"}},
		{"journal beside bbolt", withJournal, []string{"driver=bbolt vs mattn at journal=wal,sync=full", "sync=normal vs full at driver=bbolt"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			sum := judge.Summarize(tt.suite, judge.DefaultMetrics(tt.suite))
			var pairs []string
			for _, h := range sum.Headlines() {
				pairs = append(pairs, h.Pair())
				if emptySetting.MatchString(h.Pair()) {
					t.Errorf("label %q names a setting with no value", h.Pair())
				}
			}
			for _, w := range tt.want {
				if !strings.Contains(strings.Join(pairs, "\n")+"\n", w+"\n") {
					t.Errorf("no label %q among %q", w, pairs)
				}
			}
		})
	}
	text := renderAs(t, "text", engines)
	for _, option := range []string{"bbolt-batch", "pebble-cache", "badger-memtable", "busy-timeout"} {
		for _, line := range strings.Split(text, "\n") {
			if strings.Contains(line, option) && !strings.HasPrefix(line, "engine options: ") {
				t.Errorf("%s outside the engine options line: %s", option, line)
			}
		}
	}
	if !strings.Contains(text, "\nengine options: mattn, modernc: journal=wal,busy-timeout=5s · bbolt: bbolt-batch=false,bbolt-freelist=array · ") {
		t.Errorf("no line of each engine's options:\n%s", text)
	}
}

// A matrix chart's factor labels fit their columns: a label with its
// interval, wider than a column of a ten-cell chart on one line, wraps at
// its spaces so that every line keeps within three quarters of its
// column, and no two neighbours overprint.
func TestFactorLabelsFitTheirColumns(t *testing.T) {
	const cells = 10
	labels := make([]string, cells)
	for i := range labels {
		labels[i] = "×63.1 better * (90% ×12.7–×98.7)"
	}
	width := vg.Length(cells*1.6) * vg.Inch // as cellDots sizes it
	lab, lines, err := factorLabels(labels, width, cells)
	if err != nil {
		t.Fatal(err)
	}
	column := (width - vg.Inch) / vg.Length(cells+0.2)
	if one := lab.TextStyle[0].Width(labels[0]); one <= column {
		t.Fatalf("the label is %v wide on one line, within its column of %v: no test of wrapping", one, column)
	}
	if lines < 2 {
		t.Errorf("labels take %d line, want them wrapped", lines)
	}
	for i, l := range lab.Labels {
		for _, line := range strings.Split(l, "\n") {
			if w := lab.TextStyle[i].Width(line); w > column*3/4 {
				t.Errorf("label %d line %q is %v wide, more than 3/4 of its %v column", i, line, w, column)
			}
		}
	}
}

// A chart's SVG keeps its style attributes on the page: gonum/plot
// separates them by tabs, which the page's escaping (visible) would show
// as "\t", making "\tstyle" an attribute the browser ignores and every
// label its default font, larger than the one the chart was laid out for.
func TestChartTextKeepsItsStyle(t *testing.T) {
	page := renderAs(t, "html", loadSuiteFixture(t, "engines-matrix.json"))
	if n := strings.Count(page, `\tstyle=`); n > 0 {
		t.Errorf("%d attributes of charts read \\tstyle", n)
	}
	if !strings.Contains(page, ` style="font-family:Liberation Sans`) {
		t.Error("no chart text has its font")
	}
}
