package report

import (
	"bytes"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/gobench/gobench/internal/golden"
	"github.com/gobench/gobench/pkg/result"
	"github.com/gobench/gobench/pkg/workload"
)

// The CSV and benchfmt of a recorded run and of the recorded matrix, and
// the markdown of the matrix: values rounded as the text shows them.
func TestFormatGoldens(t *testing.T) {
	run, matrix := loadFixture(t, "mix-fidelity.json"), loadSuiteFixture(t, "matrix.json")
	// A matrix with --crash (WAL at NORMAL and FULL) and its first run:
	// the durability table, the traced mark, the I/O and durability
	// metrics.
	crash := loadSuiteFixture(t, "crash-matrix.json")
	// pgbench's TPC-B with --crash at NORMAL and FULL: its states judged
	// by their content (lost transactions, the tables they changed, the
	// invariants held, the column not compared).
	sqlCrash := loadSuiteFixture(t, "sql-crash-matrix.json")
	// A replayed trace (the Python shop of docs/replay.md): in the order
	// of commits under rollback and WAL, and racing, its statements by
	// fingerprint, the suite's tables naming theirs.
	replay, race := loadSuiteFixture(t, "replay-matrix.json"), loadFixture(t, "replay-race.json")
	// The race again, as a trace that digests its statements' rows
	// would report it: each kind that diverged, one non-deterministic,
	// two with an example.
	digested := loadFixture(t, "replay-race.json")
	rp := *digested.Plan.Replay
	rp.Digested, rp.Kinds = rp.Statements, slices.Clone(rp.Kinds)
	rp.Kinds[0].NonDeterministic = true
	digested.Plan.Replay = &rp
	check := *digested.Replay
	check.Diverged = []workload.ReplayDivergence{
		{Kind: rp.Kinds[0].ID, SQL: "SELECT max(id) FROM users", What: "other values", Rows: 1, CapturedRows: 1},
		{Kind: "qfd7ea31b", SQL: "INSERT INTO orders (user_id, total) VALUES (?, ?)", Args: []string{"7", "'it''s'", "x'00ff'"}, What: "another outcome", Class: "constraint", CapturedClass: "ok"},
	}
	digested.Replay = &check
	for _, tt := range []struct {
		golden, format string
		v              any
	}{
		{"mix-fidelity.csv", "csv", run},
		{"mix-fidelity.benchfmt", "benchfmt", run},
		{"matrix.csv", "csv", matrix},
		{"matrix.benchfmt", "benchfmt", matrix},
		{"matrix.md", "markdown", matrix},
		{"matrix.txt", "text", matrix},
		{"sql-tpcb.csv", "csv", loadFixture(t, "sql-tpcb.json")},
		{"sql-tpcb.md", "markdown", loadFixture(t, "sql-tpcb.json")},
		{"crash-matrix.txt", "text", crash},
		{"crash-matrix.md", "markdown", crash},
		{"crash-matrix.csv", "csv", crash},
		{"crash-run.md", "markdown", crash.Cells[0].Runs[0]},
		{"crash-run.csv", "csv", crash.Cells[0].Runs[0]},
		{"crash-run.txt", "text", crash.Cells[0].Runs[0]},
		{"sql-crash-matrix.txt", "text", sqlCrash},
		{"sql-crash-matrix.md", "markdown", sqlCrash},
		{"sql-crash-run.txt", "text", sqlCrash.Cells[0].Runs[0]},
		{"sql-crash-run.md", "markdown", sqlCrash.Cells[0].Runs[0]},
		{"replay-matrix.txt", "text", replay},
		{"replay-matrix.md", "markdown", replay},
		{"replay-run.txt", "text", race},
		{"replay-run.md", "markdown", race},
		{"replay-diverged.txt", "text", digested},
		// A journal × sync matrix whose cells but one failed ops (busy):
		// the warning, the errors column, the ranking of four cells and a
		// headline at each value of the other setting (the other formats'
		// errors are asserted by TestFailedOpsInEveryFormat).
		{"matrix-errors.txt", "text", loadSuiteFixture(t, "matrix-errors.json")},
		// Roles (--role writer:2:append=100 --role reader:1:read=90,
		// upsert=10): a row per role and op kind, its total and fairness,
		// and a gate on a role's percentile.
		{"mix-roles.txt", "text", loadFixture(t, "mix-roles.json")},
		{"mix-roles.md", "markdown", loadFixture(t, "mix-roles.json")},
		// Readers of the newest events (--role writer:2:append=100 --role
		// reader:1:latest=50,scan=50): latest and scan are rows like every
		// op kind's, their not-found counted, and gates name them.
		{"mix-latest.txt", "text", loadFixture(t, "mix-latest.json")},
		{"mix-latest.md", "markdown", loadFixture(t, "mix-latest.json")},
		{"mix-latest.csv", "csv", loadFixture(t, "mix-latest.json")},
	} {
		render, err := Render(tt.format, tt.v, Options{Width: TextWidth}) // text as on a terminal
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if err := render(&buf); err != nil {
			t.Fatal(err)
		}
		// No float noise: no number carries more than four decimals (the
		// exponent form benchfmt prints from 1e6 up is exact).
		plain := regexp.MustCompile(`[0-9.]+e\+[0-9]+`).ReplaceAll(buf.Bytes(), nil)
		if m := regexp.MustCompile(`[0-9]\.[0-9]{5,}`).Find(plain); m != nil {
			t.Errorf("%s: unrounded value %s", tt.golden, m)
		}
		golden.Check(t, tt.golden, buf.Bytes())
	}
}

// A run that measured its CPU time gives benchstat cpu-ns/op on its total
// line, and on no other.
func TestBenchfmtCPU(t *testing.T) {
	run := loadFixture(t, "mix-fidelity.json")
	run.Phases[0].CPU = &result.CPU{Scope: result.CPUWorkers, Processes: 2, UserSeconds: 0.2, SystemSeconds: 0.1, MicrosPerOp: 6.25}
	render, err := Render("benchfmt", run, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := render(&buf); err != nil {
		t.Fatal(err)
	}
	var with []string
	for _, line := range strings.Split(buf.String(), "\n") {
		if strings.Contains(line, "cpu-ns/op") {
			with = append(with, line)
		}
	}
	if len(with) != 1 || !strings.Contains(with[0], "/op=total") || !strings.Contains(with[0], "6250 cpu-ns/op") {
		t.Errorf("cpu-ns/op on %q, want the total line alone, 6250", with)
	}
}
