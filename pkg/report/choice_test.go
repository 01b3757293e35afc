package report

import (
	"bytes"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/gobench/gobench/internal/golden"
	"github.com/gobench/gobench/pkg/result"
)

// testChoice is an answer of two ranked rows and one that lost writes.
func testChoice() *result.Choice {
	return &result.Choice{Kind: result.ChoiceKind, Keep: "acked", Says: "no acknowledged write lost at a power cut", Workload: "mix read=20,upsert=80",
		Budget: time.Minute, Elapsed: 50 * time.Second, Repeats: 5, Duration: 2 * time.Second, Cuts: 10, BaselineRSSBytes: 58_720_256,
		Rows: []result.ChoiceRow{
			{Rank: 1, Driver: "pebble", Settings: "sync=full", Version: "pebble v2.1.7", OpsPerSec: 8306, Low: 4481, High: 10574, Confidence: 0.938, Runs: 5, P99: 4100, P99Kind: "upsert", SyncsPerCommit: 0.25, Cuts: 10,
				DiskBytes: 5_452_595, LiveBytes: 819_200, SpaceNote: "the live data (800 KiB) is below 64 MiB, where the engines' fixed files (up to 4.4 MiB, pebble's) outweigh it", PeakRSSBytes: 63_963_136, EngineRSSBytes: 5_242_880},
			{Rank: 2, Driver: "bbolt", Settings: "sync=full bbolt-batch=true", Version: "bbolt v1.5.0", OpsPerSec: 699, Low: 659, High: 754, Runs: 3, P99: 33600, P99Kind: "upsert", SyncsPerCommit: 2, Cuts: 10,
				DiskBytes: 209_715_200, LiveBytes: 134_217_728, SpaceAmplification: 1.5625, PeakRSSBytes: 60_817_408, EngineRSSBytes: 2_097_152, Errors: result.Errors{Total: 3, Busy: 3}},
			{Driver: "mattn", Settings: "journal=rollback sync=full", OpsPerSec: 400, Low: 300, High: 500, Runs: 3, P99Kind: "upsert", SyncsPerCommit: 4, Cuts: 10, Lossy: 4, Lost: 1,
				SpaceNote: "the database's space and live data were not measured", MemoryNote: "the workers' memory was not measured",
				Why: "lost acknowledged writes in 4 of 10 power cuts (at most 1 in one), 0 corrupt"},
		},
		Winner: "pebble sync=full", Margin: &result.Margin{RunnerUp: "bbolt sync=full bbolt-batch=true", Ratio: 11.9, Low: 6.1, High: 15.2, Confidence: 0.905, Significant: true},
		NotMeasured: []string{"files (a file per key): not among the candidates"}, Notes: []string{"note: drivers carry different SQLite versions"}}
}

// testChoiceRoles is an answer on a workload of roles, ranked by the
// writers' ops/s: the reader of the second row is the fastest of all.
func testChoiceRoles() *result.Choice {
	c := testChoice()
	c.Workload = "roles writer 3 × append=100, reader 1 × read=100 · 10000 keys uniform · 64-byte values · 2s/worker"
	c.RankBy, c.RankWhy = "writer", "the first closed-loop role that writes"
	roles := [][]result.ChoiceRole{
		{{Name: "writer", Workers: 3, OpsPerSec: 1635, Low: 364, High: 2569, Confidence: 0.938, P99: 33100}, {Name: "reader", Workers: 1, OpsPerSec: 6671, Low: 4117, High: 8005, Confidence: 0.938, P99: 13}},
		{{Name: "writer", Workers: 3, OpsPerSec: 205, Low: 190, High: 221, P99: 164000}, {Name: "reader", Workers: 1, OpsPerSec: 494, Low: 469, High: 533, P99: 13.7}},
		{{Name: "writer", Workers: 3, OpsPerSec: 199, Low: 150, High: 250, P99: 649000}, {Name: "reader", Workers: 1, OpsPerSec: 201, Low: 100, High: 250, P99: 101}},
	}
	for i := range c.Rows {
		c.Rows[i].Roles = roles[i]
	}
	c.Margin.Ratio, c.Margin.Low, c.Margin.High = 7.98, 1.7, 12.5
	return c
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
			"  - files (a file per key): not among the candidates",
			"  1     pebble sync=full                  8306   4481–10574 (93.8%)    upsert 4.10ms  0 lost in 10          0.25          5.2 MiB  –          5 MiB",
			"200 MiB  1.56×      2 MiB       bbolt v1.5.0",
			"no space amp for pebble sync=full: the live data (800 KiB) is below 64 MiB",
			"no engine RSS for mattn journal=rollback sync=full: the workers' memory was not measured",
			"engine RSS: the peak resident memory of the row's own worker process (one a run, its workers its goroutines) less a worker's on the null driver in the same shape (56 MiB, gobench's own)",
			"note: drivers carry different SQLite versions",
		}},
		{"markdown", []string{"| rank | engine and setting |", "| 1 | pebble sync=full |", "**winner: pebble sync=full, ×11.9", "- files (a file per key): not among the candidates", "| on disk | space amp | engine RSS |", "| 200 MiB | 1.56× | 2 MiB |"}},
		{"json", []string{`"kind": "choice"`, `"winner": "pebble sync=full"`, `"runner_up": "bbolt sync=full bbolt-batch=true"`, `"disk_bytes": 209715200`, `"space_amplification": 1.5625`, `"peak_rss_bytes": 60817408`, `"engine_rss_bytes": 2097152`, `"baseline_rss_bytes": 58720256`, `"space_note": "the live data (800 KiB)`}},
		{"html", []string{"<title>gobench choose · keep acked</title>", "pebble sync=full", "winner: pebble sync=full", "<th>on disk</th><th>space amp</th><th>engine RSS</th>", "<td>200 MiB</td><td>1.56×</td><td>2 MiB</td>"}},
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

// Each format of the answer as it reads, in testdata/choice.*: the
// space and memory columns (size on disk, space amplification where it
// is stated, the engine's RSS) and the notes saying why a row has "–" in them;
// on roles (choice-roles.*), each role's ops/s and p99 and the ranking
// role named.
func TestChoiceGolden(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		format, golden string
		choice         func() *result.Choice
	}{
		{"text", "choice.txt", testChoice}, {"markdown", "choice.md", testChoice}, {"json", "choice.json", testChoice}, {"html", "choice-html.tables", testChoice},
		{"text", "choice-roles.txt", testChoiceRoles}, {"markdown", "choice-roles.md", testChoiceRoles}, {"json", "choice-roles.json", testChoiceRoles},
	} {
		// Text as a terminal gets it, as every text golden is.
		render, err := Render(tt.format, tt.choice(), Options{Width: TextWidth})
		if err != nil {
			t.Fatalf("%s: %v", tt.format, err)
		}
		var b bytes.Buffer
		if err := render(&b); err != nil {
			t.Fatalf("%s: %v", tt.format, err)
		}
		got := b.String()
		if tt.format == "html" {
			// The page's tables; its style is every page's.
			got = strings.Join(regexp.MustCompile(`(?s)<table.*?</table>`).FindAllString(got, -1), "\n") + "\n"
		}
		golden.Check(t, tt.golden, []byte(got))
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

// A column's "–" is explained a note per reason: naming the rows that
// share it, "in any row" where every measured row does; rows with no
// speed run (their own note says why) and rows with a value are left out.
func TestChoiceUnstated(t *testing.T) {
	t.Parallel()
	row := func(d, note string, runs int) result.ChoiceRow {
		return result.ChoiceRow{Driver: d, Runs: runs, SpaceNote: note}
	}
	for _, tt := range []struct {
		name string
		rows []result.ChoiceRow
		want []string
	}{
		{"all", []result.ChoiceRow{row("a", "small", 3), row("b", "small", 3), row("c", "", 0)}, []string{"no space amp in any row: small"}},
		{"some", []result.ChoiceRow{row("a", "small", 3), row("b", "", 3), row("c", "uncounted", 3), row("d", "small", 3)},
			[]string{"no space amp for a, d: small", "no space amp for c: uncounted"}},
		{"none", []result.ChoiceRow{row("a", "", 3)}, nil},
		{"one row", []result.ChoiceRow{row("a", "small", 3)}, []string{"no space amp for a: small"}},
		{"figures differ", []result.ChoiceRow{row("a", "live (1 MiB) is small", 3), row("b", "live (2 MiB) is small", 3), row("c", "", 3)},
			[]string{"no space amp for a (1 MiB), b (2 MiB): live is small"}},
		{"figures differ in every row", []result.ChoiceRow{row("a", "live (1 MiB) is small", 3), row("b", "live (2 MiB) is small", 3), row("c", "live (1 MiB) is small", 3)},
			[]string{"no space amp for a (1 MiB), b (2 MiB), c (1 MiB): live is small"}},
		{"figures alike", []result.ChoiceRow{row("a", "live (1 MiB) is small", 3), row("b", "live (1 MiB) is small", 3)},
			[]string{"no space amp in any row: live (1 MiB) is small"}},
	} {
		got := choiceUnstated(tt.rows, "space amp", func(r result.ChoiceRow) string { return r.SpaceNote })
		if strings.Join(got, "|") != strings.Join(tt.want, "|") {
			t.Errorf("%s: %q, want %q", tt.name, got, tt.want)
		}
	}
}

// On roles, the table shows each role's ops/s and p99 (the ranking
// role's first, with its interval) instead of the total's, and the
// header, the caption and the winner's line name the ranking role; the
// JSON carries each row's roles. Without roles, none of it.
func TestChoiceRoles(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name     string
		choice   *result.Choice
		format   string
		want     []string
		wantNone []string
	}{
		{"roles", testChoiceRoles(), "text", []string{
			"ranked by writer ops/s, as is the winner's margin (the first closed-loop role that writes; --rank-by ROLE ranks by another)",
			"writer ops/s  interval",
			"writer p99  reader ops/s  reader p99",
			"  1     pebble sync=full                  1635          364–2569 (93.8%)      33.1ms      6671          13.0µs",
			"in writer ops/s (90.5% interval of the ratio",
		}, []string{"upsert 4.10ms", "8306"}},
		{"roles", testChoiceRoles(), "markdown", []string{"| writer ops/s | interval | writer p99 | reader ops/s | reader p99 |", "ranked by writer ops/s"}, nil},
		{"roles", testChoiceRoles(), "json", []string{`"rank_by": "writer"`, `"rank_why": "the first closed-loop role that writes"`, `"name": "reader"`, `"ops_per_sec": 6671`, `"p99_us": 164000`}, nil},
		{"mix", testChoice(), "text", []string{"ops/s  interval", "upsert 4.10ms"}, []string{"ranked by", "writer", " in total ops/s"}},
	} {
		render, err := Render(tt.format, tt.choice, Options{})
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := render(&b); err != nil {
			t.Fatal(err)
		}
		for _, w := range tt.want {
			if !strings.Contains(b.String(), w) {
				t.Errorf("%s %s lacks %q:\n%s", tt.name, tt.format, w, b.String())
			}
		}
		for _, w := range tt.wantNone {
			if strings.Contains(b.String(), w) {
				t.Errorf("%s %s has %q:\n%s", tt.name, tt.format, w, b.String())
			}
		}
	}
}

// The engine RSS cell is the row's worker peak less the baseline: its
// figure where the worker took more than the baseline, "≈0" where no
// more, "–" where the worker's peak or the baseline was not measured.
func TestChoiceEngineRSS(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name         string
		peak, engine int64
		note         string
		want         string
	}{
		{"above the baseline", 64 << 20, 8 << 20, "", "8 MiB"},
		{"within the baseline", 55 << 20, -1 << 20, "", "≈0"},
		{"no peak", 0, 0, "the workers' memory was not measured", "–"},
		{"no baseline", 64 << 20, 0, "the memory baseline (the null driver's worker) was not measured", "–"},
	} {
		got := choiceSpace(result.ChoiceRow{PeakRSSBytes: tt.peak, EngineRSSBytes: tt.engine, MemoryNote: tt.note})[2]
		if got != tt.want {
			t.Errorf("%s: %q, want %q", tt.name, got, tt.want)
		}
	}
}

// The power-cut column says what the cuts checked: a row whose states
// were checked for integrity alone (its acknowledged writes not
// checked) must not read "0 lost", which claims a check not made.
func TestChoiceCuts(t *testing.T) {
	t.Parallel()
	const unchecked = "acknowledged writes not checked: the replay's commits could not be rebuilt"
	for _, tt := range []struct {
		name string
		row  result.ChoiceRow
		want string
	}{
		{"checked, none lost", result.ChoiceRow{Cuts: 3}, "0 lost in 3"},
		{"checked, lossy", result.ChoiceRow{Cuts: 3, Lossy: 1, Lost: 2}, "1 of 3 lost up to 2"},
		{"not cut", result.ChoiceRow{CutNote: "not cut (none)"}, "not cut (none)"},
		{"integrity only", result.ChoiceRow{Cuts: 3, CutNote: unchecked}, "3 intact, writes not checked"},
		{"integrity only, corrupt", result.ChoiceRow{Cuts: 3, Corrupt: 1, CutNote: unchecked}, "1 of 3 corrupt, writes not checked"},
	} {
		if got := choiceCuts(tt.row); got != tt.want {
			t.Errorf("%s: %q, want %q", tt.name, got, tt.want)
		}
	}
}

// The header says how many speed runs the rows had: the planned repeats
// where a row completed them all, else how many of those planned (an
// interrupt after two of five), as the rows' ranges do.
func TestChoiceHeaderRuns(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name string
		runs []int
		want string
	}{
		{"all made", []int{5, 5}, "measured: 5 interleaved runs of 1s each per row"},
		{"one row short", []int{5, 3}, "measured: 5 interleaved runs of 1s each per row"},
		{"interrupted", []int{2, 2}, "measured: 2 of 5 planned interleaved runs of 1s each per row"},
		{"interrupted mid-round", []int{3, 2}, "measured: 2–3 of 5 planned interleaved runs of 1s each per row"},
		{"none made", []int{0, 0}, "measured: 0 of 5 planned interleaved runs"},
	} {
		c := &result.Choice{Keep: "none", Repeats: 5, Duration: time.Second}
		for _, n := range tt.runs {
			c.Rows = append(c.Rows, result.ChoiceRow{Driver: "bbolt", Runs: n})
		}
		if got := strings.Join(choiceHeader(c), "\n"); !strings.Contains(got, tt.want) {
			t.Errorf("%s: %q, want %q", tt.name, got, tt.want)
		}
	}
}
