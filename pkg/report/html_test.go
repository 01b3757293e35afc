package report

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/gobench/gobench/internal/golden"
	"github.com/gobench/gobench/pkg/judge"
	"github.com/gobench/gobench/pkg/result"
)

// structure reduces an HTML report to what must not change: the title,
// each figure's id, caption and point count, how many SVG paths and
// texts each figure drew, and its axes' words: each vertical axis's
// label beside the labels of the ticks, so the golden shows they agree
// (a label in ms over ticks in µs or s would read 1000× off).
func structure(t *testing.T, html string) string {
	t.Helper()
	var b strings.Builder
	title := regexp.MustCompile(`<title>(.*?)</title>`).FindStringSubmatch(html)
	fmt.Fprintf(&b, "title: %s\n", title[1])
	figs := regexp.MustCompile(`(?s)<figure class="chart" id="([^"]+)" data-points="(\d+)">\s*<figcaption>(.*?)</figcaption>(.*?)</figure>`).FindAllStringSubmatch(html, -1)
	for _, f := range figs {
		paths := strings.Count(f[4], "<path")
		texts := strings.Count(f[4], "<text")
		fmt.Fprintf(&b, "figure %s: %s points, caption %q, svg %v, paths>10 %v, texts>5 %v\n", f[1], f[2], f[3], strings.Contains(f[4], "<svg"), paths > 10, texts > 5)
		for _, yl := range yLabel.FindAllStringSubmatch(f[4], -1) {
			fmt.Fprintf(&b, "  vertical axis %q\n", yl[1])
		}
		var words []string
		for _, w := range svgText.FindAllStringSubmatch(f[4], -1) {
			words = append(words, w[1])
		}
		fmt.Fprintf(&b, "  texts: %s\n", strings.Join(words, " | "))
	}
	// Self-contained: no script, no stylesheet or font fetched, nothing
	// loaded from a URL.
	for _, bad := range []string{"<script", "<link", "@import", "url("} {
		if strings.Contains(html, bad) {
			t.Errorf("the report contains %s", bad)
		}
	}
	if n := regexp.MustCompile(`(?:src|href)="[a-z]+:`).FindAllString(html, -1); len(n) > 0 {
		t.Errorf("the report loads %v", n)
	}
	return b.String()
}

// The texts of a chart's SVG as gonum/plot draws them; a vertical axis's
// label is the one text it rotates.
var (
	svgText = regexp.MustCompile(`(?s)<text[^>]*>(.*?)</text>`)
	yLabel  = regexp.MustCompile(`(?s)<g transform="rotate\(90\)">\s*<text[^>]*>(.*?)</text>`)
)

func TestHTMLGolden(t *testing.T) {
	run := loadFixture(t, "mix-wal.json")
	var buf bytes.Buffer
	if err := htmlRun(&buf, run, nil); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "html-run.structure", []byte(structure(t, buf.String())))

	s := loadSuiteFixture(t, "matrix.json")
	buf.Reset()
	if err := htmlSuite(&buf, judge.Summarize(s, judge.DefaultMetrics(s))); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "html-suite.structure", []byte(structure(t, buf.String())))
}

// A result with nothing measured (a run that failed before its first op)
// renders, as its text report and no charts: drawing the empty latency
// chart, on a log scale, used to panic.
func TestHTMLEmptyRun(t *testing.T) {
	r := loadFixture(t, "mix-wal.json")
	r.Complete, r.Problems = false, []string{"worker failed"}
	r.Phases[0].Ops, r.Phases[0].Timeline, r.Phases[0].Workers = nil, nil, nil
	var buf bytes.Buffer
	if err := htmlRun(&buf, r, nil); err != nil {
		t.Fatal(err)
	}
	if html := buf.String(); !strings.Contains(html, "worker failed") || strings.Contains(html, "<svg") {
		t.Errorf("want the text report and no chart:\n%s", html)
	}
}

// A worker served at under a tenth of the median's rate is drawn apart
// and counted in the chart's title, beside the fairness index.
func TestWorkersChartShowsStarvation(t *testing.T) {
	ph := result.Phase{WorkerSpread: result.Spread{MedianOpsPerSec: 100}}
	for i, rate := range []float64{100, 104, 96, 3} {
		ph.Workers = append(ph.Workers, result.Worker{ID: i, Finished: true, Seconds: 1, Ops: int64(rate), OpsPerSec: rate})
	}
	c, err := workersChart("p", "", ph)
	if err != nil {
		t.Fatal(err)
	}
	if want := "; 1 starved (red: under a tenth of the median)"; !strings.Contains(c.Title, want) || !strings.Contains(c.Title, "fairness 0.76") { // 303² / (4 × 30041) = 0.764
		t.Errorf("title %q, want the fairness index and %q", c.Title, want)
	}
	ph.Workers[3].OpsPerSec, ph.Workers[3].Ops = 98, 98
	if c, _ := workersChart("p", "", ph); strings.Contains(c.Title, "starved") {
		t.Errorf("no worker starved: %q", c.Title)
	}
}

// Several scenarios' suites are one page: one document, a table of
// contents with each scenario's verdict linking to its section, each
// section with its finding and its charts, no chart id twice.
func TestHTMLSuites(t *testing.T) {
	var suites []*result.Suite
	for i, verdict := range []string{result.OutcomeReproduced, result.OutcomeNotReproduced} {
		s := loadSuiteFixture(t, "matrix.json")
		s.Scenario = &result.Scenario{Name: fmt.Sprintf("pitfall-%d", i), Title: "what it shows", Verdict: verdict,
			Finding: fmt.Sprintf("finding %d <measured>", i), Doc: "https://www.sqlite.org/lockingv3.html"}
		suites = append(suites, s)
	}
	render, err := Render("html", suites, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := render(&buf); err != nil {
		t.Fatal(err)
	}
	html := buf.String()
	for _, want := range []string{`<a href="#page0">pitfall-0</a></td><td>reproduced</td>`, `<a href="#page1">pitfall-1</a></td><td>not reproduced</td>`,
		`id="page0"`, `id="page1"`, "finding 0 &lt;measured&gt;", "finding 1 &lt;measured&gt;"} {
		if !strings.Contains(html, want) {
			t.Errorf("no %s in the page", want)
		}
	}
	if n := strings.Count(html, "<html"); n != 1 {
		t.Errorf("%d documents in the page", n)
	}
	ids := regexp.MustCompile(`<figure class="chart" id="([^"]+)"`).FindAllStringSubmatch(html, -1)
	seen := map[string]bool{}
	for _, m := range ids {
		if seen[m[1]] {
			t.Errorf("chart id %s twice", m[1])
		}
		seen[m[1]] = true
	}
	if len(ids) < 2 {
		t.Errorf("%d charts", len(ids))
	}
	if _, err := Render("markdown", suites, Options{}); err == nil {
		t.Error("markdown renders a set of suites")
	}
}
