package report

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gobench/gobench/pkg/judge"
)

// A text report rendered for a terminal of 80 columns fits it: a run's
// (mix at 25 processes, the retry policy's lock waits, open loop, TPC-B,
// a crash run, a replay), a suite's (a journal × sync matrix with failed
// ops, a crash matrix, a replayed trace's), a comparison's, a capacity
// search's, CRUD's, blob's, disk's and choose's answer, each from a fixed recorded
// result. Wider tables are split and stacked, wider lines wrapped; no
// cell or line is cut (no word is lost or added). Without a
// width (a file, a pipe) the lines are whole, wider than 80.
func TestTextFitsTerminal(t *testing.T) {
	matrix := loadSuiteFixture(t, "matrix.json")
	cmp, err := judge.Compare("old.json", loadSuiteFixture(t, "compare-old.json"), "new.json", loadSuiteFixture(t, "compare-new.json"), judge.DefaultMetrics(matrix), judge.CompareOptions{MaxRegression: 0.1})
	if err != nil {
		t.Fatal(err)
	}
	crash := loadSuiteFixture(t, "crash-matrix.json")
	reports := map[string]any{
		"compare": cmp, "capacity": loadCapacityFixture(t), "disk": diskReport(),
		"crash matrix": crash, "crash run": crash.Cells[0].Runs[0], "crud": loadSuiteFixture(t, "crud.json"), "blob": loadSuiteFixture(t, "blob.json"),
		"history": historyReport(), "choice": testChoice(),
	}
	for _, name := range []string{"mix-wal", "mix-rollback", "mix-fidelity", "mix-contention", "sql-tpcb", "replay-race", "ycsb-f"} {
		reports[name] = loadFixture(t, name+".json")
	}
	for _, name := range []string{"matrix", "matrix-errors", "replay-matrix"} {
		reports[name] = loadSuiteFixture(t, name+".json")
	}
	text := func(name string, v any, width int) string {
		render, err := Render("text", v, Options{Width: width})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var buf bytes.Buffer
		if err := render(&buf); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return buf.String()
	}
	wider := 0
	for name, v := range reports {
		whole, fitted := text(name, v, 0), text(name, v, TextWidth)
		checkWidth(t, name, fitted)
		if words(fitted) != words(whole) {
			t.Errorf("%s: the fitted report lost or changed words:\n%s", name, fitted)
		}
		for _, line := range strings.Split(whole, "\n") {
			if columns(line) > TextWidth {
				wider++
				break
			}
		}
	}
	if wider < len(reports)/2 {
		t.Errorf("only %d of %d reports have a line over %d columns without a width: the check tests little", wider, len(reports), TextWidth)
	}
	// The text goldens are rendered as Render renders them: they fit too.
	files, err := filepath.Glob(filepath.Join("testdata", "*.txt"))
	if err != nil || len(files) < 10 {
		t.Fatalf("%d text goldens: %v", len(files), err)
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if filepath.Base(f) != "chart-axes.txt" {
			checkWidth(t, f, string(b))
		}
	}
}

// words returns the words of a text report in order, whatever its
// layout: the words of the cells of a stacked table's repeated columns
// (its heads and the keys) counted once per table.
func words(text string) string {
	seen := map[string]bool{}
	var out []string
	for _, w := range strings.Fields(text) {
		if !seen[w] {
			seen[w] = true
			out = append(out, w)
		}
	}
	slices.Sort(out)
	return strings.Join(out, " ")
}

func checkWidth(t *testing.T, name, text string) {
	t.Helper()
	for i, line := range strings.Split(text, "\n") {
		if n := columns(line); n > TextWidth {
			t.Errorf("%s: line %d is %d columns wide:\n%s", name, i+1, n, line)
		}
	}
}

// A line of words wraps between its " · " parts, and between words
// where a part is wider than the line; its continuations are indented
// two columns deeper; a line that fits, and a word wider than the line,
// are left whole.
func TestWrapLine(t *testing.T) {
	for _, tt := range []struct {
		line  string
		width int
		want  []string
	}{
		{"short · line", 20, []string{"short · line"}},
		{"alpha beta · gamma delta · epsilon", 20, []string{"alpha beta ·", "  gamma delta ·", "  epsilon"}},
		{"  one two three four five six", 14, []string{"  one two", "    three four", "    five six"}},
		{"a · averyveryverylongword · b", 10, []string{"a ·", "  averyveryverylongword ·", "  b"}},
		{"aligned  table   row", 10, []string{"aligned", "  table", "  row"}},
	} {
		got := wrapLine(tt.line, tt.width)
		if strings.Join(got, "|") != strings.Join(tt.want, "|") {
			t.Errorf("wrapLine(%q, %d) = %q, want %q", tt.line, tt.width, got, tt.want)
		}
	}
	var out bytes.Buffer
	f := &lineFitter{w: &out, width: 12}
	for _, piece := range []string{"first ", "second", " third\nfits\n", "tail without end"} {
		if _, err := f.Write([]byte(piece)); err != nil {
			t.Fatal(err)
		}
	}
	if err := f.flush(); err != nil {
		t.Fatal(err)
	}
	if want := "first second\n  third\nfits\ntail without\n  end"; out.String() != want {
		t.Errorf("written in pieces:\n%q\nwant\n%q", out.String(), want)
	}
}
