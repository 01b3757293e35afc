package report

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/gobench/gobench/pkg/result"
)

// testChoice is an answer of two ranked rows and one that lost writes.
func testChoice() *result.Choice {
	return &result.Choice{Kind: result.ChoiceKind, Keep: "acked", Says: "no acknowledged write lost at a power cut", Workload: "mix read=20,upsert=80",
		Budget: time.Minute, Elapsed: 50 * time.Second, Repeats: 5, Duration: 2 * time.Second, Cuts: 10,
		Rows: []result.ChoiceRow{
			{Rank: 1, Driver: "pebble", Settings: "sync=full", Version: "pebble v2.1.7", OpsPerSec: 8306, Low: 4481, High: 10574, Confidence: 0.938, Runs: 5, P99: 4100, P99Kind: "upsert", SyncsPerCommit: 0.25, Cuts: 10},
			{Rank: 2, Driver: "bbolt", Settings: "sync=full bbolt-batch=true", Version: "bbolt v1.5.0", OpsPerSec: 699, Low: 659, High: 754, Runs: 3, P99: 33600, P99Kind: "upsert", SyncsPerCommit: 2, Cuts: 10,
				Errors: result.Errors{Total: 3, Busy: 3}},
			{Driver: "mattn", Settings: "journal=rollback sync=full", OpsPerSec: 400, Low: 300, High: 500, Runs: 3, P99Kind: "upsert", SyncsPerCommit: 4, Cuts: 10, Lossy: 4, Lost: 1,
				Why: "lost acknowledged writes in 4 of 10 power cuts (at most 1 in one), 0 corrupt"},
		},
		Winner: "pebble sync=full", Margin: &result.Margin{RunnerUp: "bbolt sync=full bbolt-batch=true", Ratio: 11.9, Low: 6.1, High: 15.2, Confidence: 0.905, Significant: true},
		NotMeasured: []string{"space and memory: not compared"}, Notes: []string{"note: drivers carry different SQLite versions"}}
}

// Every format that renders an answer has its table, every row, the
// unranked row's loss, the winner with its margin and what was not
// measured.
func TestChoiceFormats(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		format string
		want   []string
	}{
		{"text", []string{
			"gobench choose · keep acked: no acknowledged write lost at a power cut",
			"measured: 5 interleaved runs of 2s each per row, and 10 simulated power cuts of each row's own traced run · budget 1m0s, took 50s",
			"  rank  engine and setting",
			"  1     pebble sync=full",
			"4481–10574 (93.8%)",
			"659–754 (range of 3)",
			"upsert 4.10ms",
			"0 lost in 10",
			"4 of 10 lost up to 1",
			"  –     mattn journal=rollback sync=full",
			"mattn journal=rollback sync=full: not ranked: lost acknowledged writes in 4 of 10 power cuts",
			"bbolt sync=full bbolt-batch=true: ops failed over its speed runs: 3 busy",
			"winner: pebble sync=full, ×11.9 the runner-up bbolt sync=full bbolt-batch=true (90.5% interval of the ratio ×6.10–×15.2: faster)",
			"  - space and memory: not compared",
			"note: drivers carry different SQLite versions",
		}},
		{"markdown", []string{"| rank | engine and setting |", "| 1 | pebble sync=full |", "**winner: pebble sync=full, ×11.9", "- space and memory: not compared"}},
		{"json", []string{`"kind": "choice"`, `"winner": "pebble sync=full"`, `"runner_up": "bbolt sync=full bbolt-batch=true"`}},
		{"html", []string{"<title>gobench choose · keep acked</title>", "pebble sync=full", "winner: pebble sync=full"}},
	} {
		render, err := Render(tt.format, testChoice(), Options{})
		if err != nil {
			t.Fatalf("%s: %v", tt.format, err)
		}
		var b bytes.Buffer
		if err := render(&b); err != nil {
			t.Fatalf("%s: %v", tt.format, err)
		}
		for _, w := range tt.want {
			if !strings.Contains(b.String(), w) {
				t.Errorf("%s lacks %q:\n%s", tt.format, w, b.String())
			}
		}
	}
	if _, err := Render("csv", testChoice(), Options{}); err == nil || !strings.Contains(err.Error(), `unknown format "csv" for a choice (want one of html, json, markdown, text)`) {
		t.Errorf("csv: %v", err)
	}
}

// The winner's line says a tie where the interval of the ratio holds ×1,
// and too few runs where there is none; no winner where none kept the
// promise, and, where rows kept it but none was ranked (speed runs
// interrupted), no claim that none kept it.
func TestChoiceWinner(t *testing.T) {
	t.Parallel()
	c := testChoice()
	c.Margin.Significant, c.Margin.Low = false, 0.9
	if got := choiceWinner(c); !strings.Contains(got, "holds ×1: a tie at this budget") {
		t.Errorf("tie: %s", got)
	}
	c.Margin.Confidence = 0
	if got := choiceWinner(c); !strings.Contains(got, "too few runs for an interval of the ratio") {
		t.Errorf("few: %s", got)
	}
	c.Winner, c.Margin = "", nil
	if got := choiceWinner(c); !strings.HasPrefix(got, "no winner: none was ranked") {
		t.Errorf("none ranked, two kept the promise: %s", got)
	}
	for i := range c.Rows {
		c.Rows[i].Rank, c.Rows[i].Lossy = 0, 1
	}
	if got := choiceWinner(c); !strings.Contains(got, "no engine and setting kept the promise") {
		t.Errorf("all lost: %s", got)
	}
}

// The gates on the margin are printed under the winner, as judged.
func TestChoiceGates(t *testing.T) {
	t.Parallel()
	c := testChoice()
	c.Gates = []result.Gate{{Expression: "margin >= 20", Outcome: result.OutcomeFail, Verdict: "margin >= 20: fail (90% interval of the ratio ×6.10–×15.2, all of it below ×20)"}}
	for _, format := range []string{"text", "markdown", "json"} {
		render, err := Render(format, c, Options{})
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := render(&b); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(b.String(), "= 20: fail (90% interval") { // markdown escapes the >
			t.Errorf("%s lacks the gate:\n%s", format, b.String())
		}
	}
}
