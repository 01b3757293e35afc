package report

import (
	"bytes"
	"regexp"
	"strings"
	"testing"

	"github.com/gobench/gobench/pkg/result"
	"github.com/gobench/gobench/pkg/workload"
)

// renderAs renders v in format, failing the test on an error.
func renderAs(t *testing.T, format string, v any) string {
	t.Helper()
	r, err := Render(format, v, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := r(&buf); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

// A suite whose runs failed ops says so in every format: the warning, and
// each cell's failed ops by class in a table (the CSV's errors and busy
// columns), the cell without failures at 0.
func TestFailedOpsInEveryFormat(t *testing.T) {
	s := loadSuiteFixture(t, "matrix-errors.json")
	for _, format := range []string{"text", "markdown", "html"} {
		out := renderAs(t, format, s)
		for _, want := range []string{"WARNING: ops failed in 3 of 4 cells", "104 busy", "111 busy", "46 busy"} {
			if !strings.Contains(out, want) {
				t.Errorf("%s: no %q", format, want)
			}
		}
	}
	csv := renderAs(t, "csv", s)
	lines := strings.Split(csv, "\n")
	if !strings.HasSuffix(lines[0], ",missing,errors,busy,locked,constraint,io,full,other,open_tx,script") {
		t.Errorf("csv head %q", lines[0])
	}
	if !strings.Contains(csv, "total ops/s,ops/s,higher is better,rollback,full,1,") || !strings.Contains(lines[1], ",104,104,0,0,") {
		t.Errorf("csv first row %q: want rollback,full's 104 busy", lines[1])
	}
	// A run's report warns too, and counts them.
	run := s.Cells[0].Runs[0]
	for _, format := range []string{"text", "markdown", "html"} {
		if out := renderAs(t, format, run); !strings.Contains(out, "WARNING: 104 of 2400 ops failed (104 busy)") {
			t.Errorf("%s run report does not warn of its failed ops", format)
		}
	}
	// A scenario's failed ops are its finding: said, not warned of, and
	// in HTML a note, not an alert.
	s.Scenario = &result.Scenario{Name: "deferred-begin", Title: "what it shows", Verdict: result.OutcomeReproduced}
	for _, format := range []string{"text", "markdown", "html"} {
		out := renderAs(t, format, s)
		if strings.Contains(out, "WARNING: ops failed") || !strings.Contains(out, "as the scenario shows, ops failed in 3 of 4 cells") {
			t.Errorf("%s: a scenario's failed ops are warned of, or not said", format)
		}
		if format == "html" && regexp.MustCompile(`class="alert[^"]*"[^>]*>[^<]*ops failed`).MatchString(out) {
			t.Errorf("html: a scenario's failed ops are an alert")
		}
	}
	s.Scenario = nil
	// A suite without failures has no warning.
	if out := renderAs(t, "text", loadSuiteFixture(t, "matrix.json")); strings.Contains(out, "WARNING") {
		t.Errorf("a suite without failures warns:\n%s", out)
	}
}

// The text of a 2×2 matrix leads with the ranking of its four cells,
// before the first table of a figure, and a headline at each value of
// the other setting.
func TestRankingFirst(t *testing.T) {
	out := renderAs(t, "text", loadSuiteFixture(t, "matrix-errors.json"))
	rank := strings.Index(out, "ranking by total ops/s")
	first := strings.Index(out, "\ntotal ops/s (ops/s")
	if rank < 0 || first < 0 || rank > first {
		t.Fatalf("the ranking does not come first:\n%s", out)
	}
	table := strings.Split(out[rank:first], "\n")
	var order []string
	for _, l := range table[2:6] {
		f := strings.Fields(l)
		order = append(order, f[1]+","+f[2])
	}
	if got := strings.Join(order, " "); got != "wal,normal wal,full rollback,normal rollback,full" {
		t.Errorf("ranked %s, want by median total ops/s", got)
	}
	for _, want := range []string{"journal=wal vs rollback at sync=full:", "journal=wal vs rollback at sync=normal:", "sync=normal vs full at journal=wal:"} {
		if !strings.Contains(out[:first], want) {
			t.Errorf("no headline %q before the tables", want)
		}
	}
}

// The first screen of an HTML report, before any chart, holds the
// durability table of a --crash suite and the INCOMPLETE line of an
// interrupted run.
func TestHTMLAnswerFirst(t *testing.T) {
	crash := loadSuiteFixture(t, "crash-matrix.json")
	out := renderAs(t, "html", crash)
	chart := strings.Index(out, `<figure class="chart"`)
	for _, want := range []string{"<caption>Durability (--crash: lose model", "<td>normal</td><td>6</td><td>0</td><td>6</td><td>153</td>", "<caption>Ranking by total ops/s"} {
		if i := strings.Index(out, want); i < 0 || (chart >= 0 && i > chart) {
			t.Errorf("%q not before the first chart", want)
		}
	}
	run := loadFixture(t, "mix-wal.json")
	run.Complete, run.Problems = false, []string{"interrupted (signal)"}
	out = renderAs(t, "html", run)
	chart = strings.Index(out, `<figure class="chart"`)
	if i := strings.Index(out, `<p class="alert">INCOMPLETE RESULT: interrupted (signal)</p>`); i < 0 || i > chart {
		t.Errorf("INCOMPLETE not first (at %d, first chart at %d)", i, chart)
	}
	s := loadSuiteFixture(t, "matrix.json")
	s.Cells[1].Runs[2].Complete, s.Cells[1].Runs[2].Problems = false, []string{"interrupted (signal)"}
	out = renderAs(t, "html", s)
	chart = strings.Index(out, `<figure class="chart"`)
	if i := strings.Index(out, "INCOMPLETE: journal=wal run 3: interrupted (signal)"); i < 0 || i > chart {
		t.Errorf("a suite's INCOMPLETE not first (at %d, first chart at %d)", i, chart)
	}
}

// Durability that was not checked prints "–", not zero lost.
func TestUncheckedDurability(t *testing.T) {
	s := loadSuiteFixture(t, "crash-matrix.json")
	for _, c := range s.Cells {
		for _, r := range c.Runs {
			d := *r.Durability
			d.NotChecked, d.Lossy, d.MaxLost = "these scripts have no check of their data", 0, 0
			r.Durability = &d
		}
	}
	out := renderAs(t, "text", s)
	if !strings.Contains(out, "normal  6       0        –      –          –") {
		t.Errorf("unchecked durability row:\n%s", out)
	}
	if strings.Contains(out, "lost acked writes (") {
		t.Errorf("a table of lost writes none of which were checked:\n%s", out)
	}
	out = renderAs(t, "text", s.Cells[0].Runs[0])
	if !strings.Contains(out, "acknowledged writes lost: – (not checked): these scripts have no check") {
		t.Errorf("run's durability line:\n%s", out)
	}
}

// A traced cell (--crash) is neither ranked nor compared: it comes last,
// numbered "–", "traced" for its factor, and the untraced cells rank among
// themselves; the caption says so. A suite of traced cells alone ranks
// none of them, and has no headline factors between them.
func TestRankingLeavesTracedOut(t *testing.T) {
	s := loadSuiteFixture(t, "matrix-errors.json")
	for _, c := range s.Cells {
		j, _ := c.Settings.Get("journal")
		if y, _ := c.Settings.Get("sync"); j == "wal" && y == "normal" { // the fastest
			for _, r := range c.Runs {
				r.Plan.Crash = &workload.Crash{}
			}
		}
	}
	out := renderAs(t, "text", s)
	rank := strings.Index(out, "ranking by total ops/s")
	first := strings.Index(out, "\ntotal ops/s (ops/s")
	if rank < 0 || first < 0 {
		t.Fatalf("no ranking:\n%s", out)
	}
	table := strings.Split(out[rank:first], "\n")
	if !strings.Contains(table[0], "traced cells (--crash) last and unranked") {
		t.Errorf("caption %q does not say the traced cell is unranked", table[0])
	}
	var order []string
	for _, l := range table[2:6] {
		f := strings.Fields(l)
		order = append(order, f[0]+":"+f[1]+","+f[2]+":"+f[4])
	}
	want := "1:wal,full:best 2:rollback,normal:×0.[0-9]+ 3:rollback,full:×0.[0-9]+ –:wal,normal:traced"
	if got := strings.Join(order, " "); !regexp.MustCompile("^" + want + "$").MatchString(got) {
		t.Errorf("ranked %s, want %s", got, want)
	}
	crash := renderAs(t, "markdown", loadSuiteFixture(t, "crash-matrix.json"))
	if !strings.Contains(crash, "| – | normal |") || strings.Contains(crash, "| best |") || strings.Contains(crash, "| 1 |") {
		t.Errorf("a traced suite ranked its cells:\n%s", crash)
	}
	if strings.Contains(crash, "**Headline**") || strings.Contains(crash, "×0.064") {
		t.Errorf("a traced suite's headline compares its cells' speeds:\n%s", crash)
	}
}
