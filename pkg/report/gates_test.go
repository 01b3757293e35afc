package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/gobench/gobench/pkg/judge"
	"github.com/gobench/gobench/pkg/result"
)

// gatesFixture evaluates three gates on the recorded matrix, one of each
// outcome, listed pass first so that the reports' order shows.
func gatesFixture(t *testing.T) *result.Suite {
	t.Helper()
	s := loadSuiteFixture(t, "matrix.json")
	var exps []judge.Expectation
	for _, text := range []string{"upsert ops/s: wal >= 1.5x rollback", "upsert ops/s: wal >= 2x rollback", "upsert ops/s: wal >= 2.5x rollback"} {
		e, err := judge.ParseExpectation(text)
		if err != nil {
			t.Fatal(err)
		}
		exps = append(exps, e)
	}
	gates, err := judge.Evaluate(s, exps)
	if err != nil {
		t.Fatal(err)
	}
	s.Gates = gates
	return s
}

// Markdown puts the gates first, what failed before what could not
// decide before what passed, each with its coloured mark, its interval
// and, when it could not decide, why.
func TestGatesMarkdown(t *testing.T) {
	s := gatesFixture(t)
	var buf bytes.Buffer
	if err := suiteMarkdown(&buf, judge.Summarize(s, judge.DefaultMetrics(s))); err != nil {
		t.Fatal(err)
	}
	md := buf.String()
	if !strings.HasPrefix(md, "**gobench · 3 gates: 1 failed, 1 inconclusive, 1 passed**\n") {
		t.Errorf("the gates are not first:\n%s", md)
	}
	fail := strings.Index(md, "| 🔴 **FAIL** | `upsert ops/s: wal >= 2.5x rollback` | journal=wal vs journal=rollback |")
	unsure := strings.Index(md, "| 🟡 **INCONCLUSIVE** | `upsert ops/s: wal >= 2x rollback` |")
	pass := strings.Index(md, "| 🟢 pass | `upsert ops/s: wal >= 1.5x rollback` |")
	if fail < 0 || unsure < fail || pass < unsure {
		t.Errorf("want FAIL, INCONCLUSIVE, pass in that order (%d, %d, %d):\n%s", fail, unsure, pass, md)
	}
	if !strings.Contains(md, "| 90% interval ×1.69–×1.72 |") && !strings.Contains(md, "90% interval ×1.69–×2.41") {
		t.Errorf("no interval:\n%s", md)
	}
	if !strings.Contains(md, "straddles ×2.00") {
		t.Errorf("the inconclusive gate does not say why:\n%s", md)
	}
}

// HTML puts a table of the gates before the text summary, each row and
// verdict classed by its outcome (and so coloured), failures first.
func TestGatesHTML(t *testing.T) {
	s := gatesFixture(t)
	var buf bytes.Buffer
	if err := htmlSuite(&buf, judge.Summarize(s, judge.DefaultMetrics(s))); err != nil {
		t.Fatal(err)
	}
	html := buf.String()
	section, summary := strings.Index(html, `<section class="gates">`), strings.Index(html, `<pre class="summary">`)
	if section < 0 || summary < section {
		t.Fatalf("the gates are not before the summary (%d, %d)", section, summary)
	}
	fail := strings.Index(html, `<tr class="fail"><td><span class="verdict fail">FAIL</span></td><td><code>upsert ops/s: wal &gt;= 2.5x rollback</code>`)
	unsure := strings.Index(html, `<tr class="inconclusive"><td><span class="verdict inconclusive">INCONCLUSIVE</span>`)
	pass := strings.Index(html, `<tr class="pass"><td><span class="verdict pass">pass</span>`)
	if fail < 0 || unsure < fail || pass < unsure {
		t.Errorf("rows out of order or missing (%d, %d, %d):\n%s", fail, unsure, pass, html[section:summary])
	}
	for _, css := range []string{".verdict.fail { background: #c62828; }", ".verdict.inconclusive {", ".verdict.pass {"} {
		if !strings.Contains(html, css) {
			t.Errorf("no colour %q", css)
		}
	}
	if !strings.Contains(html[section:summary], "90% interval ×") {
		t.Error("no interval in the gates' table")
	}
	// A run without gates has no such section.
	buf.Reset()
	if err := htmlRun(&buf, loadFixture(t, "mix-wal.json"), nil); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(buf.String(), `<section class="gates">`) {
		t.Error("a run without gates has a gates section")
	}
}

// The text lists failures first, under the count of each outcome.
func TestGatesText(t *testing.T) {
	s := gatesFixture(t)
	var buf bytes.Buffer
	ew := &errWriter{w: &buf}
	gatesText(ew, s.Gates)
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if len(lines) != 4 || lines[0] != "3 gates: 1 failed, 1 inconclusive, 1 passed" || !strings.HasPrefix(lines[1], "  gate FAILED") ||
		!strings.HasPrefix(lines[2], "  gate INCONCLUSIVE") || !strings.HasPrefix(lines[3], "  gate passed") {
		t.Errorf("%q", lines)
	}
}

// A comparison's verdict comes first in markdown and HTML, with its
// colour; the regressions first among the rows, each with the noise it
// read, and why each undecided row could not decide.
func TestComparisonVerdictFirst(t *testing.T) {
	old, new := loadSuiteFixture(t, "compare-old.json"), loadSuiteFixture(t, "compare-new.json")
	c, err := judge.Compare("old.json", old, "new.json", new, judge.DefaultMetrics(old), judge.CompareOptions{MaxRegression: 0.1})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := comparisonMarkdown(&buf, c); err != nil {
		t.Fatal(err)
	}
	md := buf.String()
	if !strings.HasPrefix(md, "🔴 **gobench compare: REGRESSION · 6 of 10 rows judged: 4 regressed, 2 inconclusive, 0 passed**\n") ||
		!strings.Contains(md, "| 🔴 REGRESSION (p=0.008) |") || !strings.Contains(md, "| 🟡 INCONCLUSIVE: 23% noise (p=0.151) |") ||
		!strings.Contains(md, "- (all) read p50: the noise, 23%, is wider than a 10% regression") {
		t.Errorf("markdown:\n%s", md)
	}
	buf.Reset()
	if err := comparisonHTML(&buf, c); err != nil {
		t.Fatal(err)
	}
	html := buf.String()
	section, summary := strings.Index(html, `<section class="gates">`), strings.Index(html, `<pre class="summary">`)
	regression := strings.Index(html, `<span class="verdict fail">REGRESSION</span></td><td><code>total ops/s</code>`)
	unsure := strings.Index(html, `<span class="verdict inconclusive">INCONCLUSIVE</span></td><td><code>read p50</code>`)
	if section < 0 || regression < section || unsure < regression || summary < unsure || !strings.Contains(html, "<h2>compare: REGRESSION · 6 of 10 rows judged") ||
		!strings.Contains(html, "<td>noise 25%</td>") {
		t.Errorf("html (%d %d %d %d):\n%s", section, regression, unsure, summary, html)
	}
}

// ab --rounds 1 gives two runs a build, too few to judge any row: the
// comparison still has its verdict, and every format renders it (HTML
// panicked on the verdict without a judged row).
func TestComparisonWithoutJudgedRows(t *testing.T) {
	old, new := loadSuiteFixture(t, "compare-aa-old.json"), loadSuiteFixture(t, "compare-aa-new.json")
	for _, s := range []*result.Suite{old, new} {
		for i := range s.Cells {
			s.Cells[i].Runs = s.Cells[i].Runs[:2]
		}
	}
	c, err := judge.Compare("old", old, "new", new, judge.DefaultMetrics(old), judge.CompareOptions{MaxRegression: 0.1, Interleaved: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range c.Rows {
		if r.Outcome != "" {
			t.Fatalf("row %s %s judged on two runs a side", r.Cell, r.Metric)
		}
	}
	if c.Outcome == "" {
		t.Fatal("no verdict")
	}
	for _, format := range FormatsFor(c) {
		render, err := Render(format, c, Options{})
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := render(&b); err != nil || b.Len() == 0 {
			t.Errorf("%s: %v, %d bytes", format, err, b.Len())
		}
	}
}
