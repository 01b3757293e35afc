package report

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gobench/gobench/internal/golden"
	"github.com/gobench/gobench/pkg/bytesize"
	"github.com/gobench/gobench/pkg/judge"
	"github.com/gobench/gobench/pkg/result"
	"github.com/gobench/gobench/pkg/store/all"
	"github.com/gobench/gobench/pkg/workload"
)

// loadFixture reads a result recorded on a real run, shared with other
// packages' tests in the repository's testdata/, named by today's engines
// as the command names every result it reads (result.Result.Name).
func loadFixture(t *testing.T, name string) *result.Result {
	t.Helper()
	r := loadLegacyFixture(t, name)
	r.Name(all.Registry())
	return r
}

// loadLegacyFixture reads a recorded result as it was written, before
// engines named their options and summed up their facts.
func loadLegacyFixture(t *testing.T, name string) *result.Result {
	t.Helper()
	f, err := os.Open(filepath.Join("..", "..", "testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, err := result.Read(f)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// A result written before engines summed up their facts still renders,
// its header listing the facts as they are.
func TestRenderLegacy(t *testing.T) {
	r := loadLegacyFixture(t, "mix-wal.json")
	var buf bytes.Buffer
	if err := runText(&buf, r, nil); err != nil {
		t.Fatal(err)
	}
	if first, _, _ := strings.Cut(buf.String(), "\n"); !strings.Contains(first, "driver mattn · sqlite version 3.") {
		t.Errorf("header %q", first)
	}
}

// loadSuiteFixture reads a suite recorded on a real run from the
// repository's testdata/.
func loadSuiteFixture(t *testing.T, name string) *result.Suite {
	t.Helper()
	f, err := os.Open(filepath.Join("..", "..", "testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	s, err := result.ReadSuite(f)
	if err != nil {
		t.Fatal(err)
	}
	if s, err = s.Named(all.Registry()); err != nil {
		t.Fatal(err)
	}
	return s
}

func TestTextGolden(t *testing.T) {
	for _, name := range []string{"mix-wal", "mix-rollback", "mix-fidelity", "sql-tpcb"} {
		t.Run(name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := fitted(func(w io.Writer) error { return runText(w, loadFixture(t, name+".json"), nil) }, TextWidth)(&buf); err != nil {
				t.Fatal(err)
			}
			golden.Check(t, name+".txt", buf.Bytes())
		})
	}
}

func TestTextIncomplete(t *testing.T) {
	r := loadFixture(t, "mix-wal.json")
	r.Complete = false
	r.Problems = []string{"interrupted"}
	var buf bytes.Buffer
	if err := runText(&buf, r, nil); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(buf.String(), "INCOMPLETE RESULT: interrupted\n") {
		t.Fatalf("incomplete result not flagged first:\n%s", buf.String())
	}
}

func TestCheckFormat(t *testing.T) {
	if err := CheckFormat("yaml"); err == nil || !strings.Contains(err.Error(), "benchfmt, csv, html, json, markdown, text") {
		t.Fatalf("CheckFormat(yaml) = %v", err)
	}
	for _, f := range Formats() {
		if err := CheckFormat(f); err != nil {
			t.Errorf("CheckFormat(%s) = %v", f, err)
		}
	}
	r := loadFixture(t, "mix-wal.json")
	var buf bytes.Buffer
	if err := runJSON(&buf, r, nil); err != nil {
		t.Fatal(err)
	}
	back, err := result.Read(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if back.Phases[0].Total.Count != r.Phases[0].Total.Count {
		t.Fatal("JSON round trip changed the counts")
	}
}

// The CRUD scaling table of a recorded run: five engines at two sizes.
func TestCRUDGolden(t *testing.T) {
	s := loadSuiteFixture(t, "crud.json")
	tab, err := summarizeCRUD(s, "mattn")
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name   string
		render func(io.Writer, *crudReport) error
	}{{"crud.txt", crudText}, {"crud.md", crudMarkdown}, {"crud.csv", crudCSV}} {
		var buf bytes.Buffer
		render := func(w io.Writer) error { return tt.render(w, tab) }
		if strings.HasSuffix(tt.name, ".txt") {
			render = fitted(render, TextWidth) // as Render does for a terminal
		}
		if err := render(&buf); err != nil {
			t.Fatal(err)
		}
		golden.Check(t, tt.name, buf.Bytes())
	}
	// Engines without key order skip the scan; the others report it.
	for _, r := range tab.Rows {
		scan := r.Groups[3]
		if want := r.Driver != "map" && r.Driver != "files"; scan.Present != want {
			t.Errorf("%s: scan present = %v, want %v", r.Driver, scan.Present, want)
		}
	}
	if _, err := summarizeCRUD(s, "oracle"); err == nil {
		t.Error("a baseline that did not run was accepted")
	}
}

// With a measured ceiling, the report sets the write commit rate against
// the disk's fsync rate, and says when commits went faster than fsyncs.
func TestCeilingText(t *testing.T) {
	r := loadFixture(t, "mix-wal.json")
	if got := ceilingText(r, 0); got != "" {
		t.Errorf("no ceiling, yet: %q", got)
	}
	upsert, _ := r.Phases[0].Op("upsert")
	commits, ok := r.CommitsPerSec(0)
	if !ok || commits != upsert.OpsPerSec {
		t.Fatalf("CommitsPerSec = %v, %v; want the upsert rate %v", commits, ok, upsert.OpsPerSec)
	}
	for _, tt := range []struct {
		fsyncs float64
		want   string
		above  bool
	}{
		{commits * 4, "25.0% of that, taking one sync per commit", false},
		{commits / 2, "200% of that, taking one sync per commit (the I/O was not traced): above the ceiling", true},
	} {
		r.Environment.Ceiling = &result.Ceiling{Filesystem: "ext4", Ops: 1000, WriteSize: 4096, FsyncPerSec: tt.fsyncs, P50Micros: 200, P99Micros: 400}
		got := ceilingText(r, 0)
		if !strings.Contains(got, tt.want) || !strings.Contains(got, "durable 4096-byte writes/s (fdatasync p50 200µs, p99 400µs)") || strings.Contains(got, "above") != tt.above {
			t.Errorf("fsync rate %v: %q", tt.fsyncs, got)
		}
		var buf bytes.Buffer
		if err := runText(&buf, r, nil); err != nil || !strings.Contains(buf.String(), got) {
			t.Errorf("the text report lacks the ceiling line (%v)", err)
		}
		m, _ := judge.ParseMetric("commits fsync%")
		if v, ok := m.Value(r); !ok || v < 100*commits/tt.fsyncs-1e-9 || v > 100*commits/tt.fsyncs+1e-9 {
			t.Errorf("commits fsync%% = %v, %v", v, ok)
		}
	}
	m, _ := judge.ParseMetric("commits fsync%")
	r.Environment.Ceiling = nil
	if _, ok := m.Value(r); ok {
		t.Error("commits fsync% without a ceiling")
	}

	// With the I/O traced, the syncs each commit made count: four each
	// (the rollback journal's) against a disk that made eight times the
	// commit rate is half of it; against one that made twice the commit
	// rate, twice what the disk can do, which commits that waited for
	// their syncs cannot have done.
	ph := &r.Phases[0]
	n := int64(upsert.Count)
	ph.IO = &result.PhaseIO{Commits: n, SyncsPerCommit: 4}
	ph.IO.Files.Database.Syncs = n
	ph.IO.Files.Journal.Syncs, ph.IO.Files.Journal.DirSyncs = 2*n, n
	syncs := 4 * float64(n) / ph.WallSeconds
	for _, tt := range []struct {
		fsyncs     float64
		want       string
		impossible bool
	}{
		{syncs * 2, "× 4.00 syncs each (counted) = ", false},
		{syncs / 2, "200% of that: IMPOSSIBLE for commits that each waited for their syncs", true},
	} {
		r.Environment.Ceiling = &result.Ceiling{Filesystem: "ext4", Ops: 1000, WriteSize: 4096, FsyncPerSec: tt.fsyncs, P50Micros: 200, P99Micros: 400}
		got := ceilingText(r, 0)
		if !strings.Contains(got, tt.want) || strings.Contains(got, "IMPOSSIBLE") != tt.impossible {
			t.Errorf("traced, fsync rate %v: %q", tt.fsyncs, got)
		}
		if v, ok := m.Value(r); !ok || v < 100*syncs/tt.fsyncs-1e-9 || v > 100*syncs/tt.fsyncs+1e-9 {
			t.Errorf("traced: commits fsync%% = %v, %v, want %v", v, ok, 100*syncs/tt.fsyncs)
		}
	}
}

// The last second of a phase that ended inside it holds a fraction of a
// second's ops: it is never named the slowest. The recorded rollback run
// lasted 2.81 s; with its last second cut to a handful of ops, the
// slowest is still a whole one.
func TestPartialSecondNotSlowest(t *testing.T) {
	r := loadFixture(t, "mix-rollback.json")
	tl := r.Phases[0].Timeline
	last := &tl[len(tl)-1]
	if !last.Partial() || last.Span() < 0.8 || last.Span() > 0.81 {
		t.Fatalf("the recorded run's last second spans %v s, want its wall time's 0.805 s, marked partial", last.Span())
	}
	for i := range last.Ops {
		last.Ops[i].Count = 1
	}
	var buf bytes.Buffer
	if err := runText(&buf, r, nil); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "slowest second 1 (") {
		t.Errorf("want second 1, the slowest whole second, named:\n%s", buf.String())
	}
}

// A CRUD run that stopped early says how many of its rounds ran ("1
// rounds" used to stand for three planned).
func TestCRUDStoppedEarly(t *testing.T) {
	s := loadSuiteFixture(t, "crud.json")
	planned := plannedRounds(s.Cells[0].Runs[0].Plan)
	if planned < 2 {
		t.Fatalf("the fixture plans %d rounds", planned)
	}
	for _, c := range s.Cells {
		for _, r := range c.Runs {
			for i := range r.Phases {
				if n := r.Phases[i].Name; n != "query 1" && n != "update 1" && (strings.HasPrefix(n, "query") || strings.HasPrefix(n, "update")) {
					r.Phases[i].Total.Count = 0 // never ran
				}
			}
		}
	}
	tab, err := summarizeCRUD(s, "mattn")
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := crudText(&buf, tab); err != nil {
		t.Fatal(err)
	}
	if want := fmt.Sprintf("1 round (of %d planned: the run stopped early) of query and update", planned); !strings.Contains(buf.String(), want) {
		t.Errorf("want %q in:\n%s", want, buf.String())
	}
}

// Render picks the renderer by what the result holds: a single run as a
// run, a CRUD suite as its table, a blob suite as its comparison, other
// suites as their statistics; a format without a table for the kind falls
// back to the suite's own form.
func TestRenderPicksByKind(t *testing.T) {
	direct := func(f func(*bytes.Buffer) error) string {
		var b bytes.Buffer
		if err := f(&b); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	run := loadFixture(t, "mix-wal.json")
	crud, blob, matrix := loadSuiteFixture(t, "crud.json"), loadSuiteFixture(t, "blob.json"), loadSuiteFixture(t, "matrix.json")
	single, _ := result.NewSuite("mix", "single", []*result.Result{run}, "")
	crudTable, _ := summarizeCRUD(crud, "")
	blobTable, _ := summarizeBlob(blob)
	cmp, err := judge.Compare("old", matrix, "new", matrix, judge.DefaultMetrics(matrix), judge.CompareOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name, format string
		v            any
		want         string
	}{
		{"run", "text", single, direct(func(b *bytes.Buffer) error { return runText(b, run, nil) })},
		{"a result", "markdown", run, direct(func(b *bytes.Buffer) error { return runMarkdown(b, run, nil) })},
		{"comparison", "csv", cmp, direct(func(b *bytes.Buffer) error { return comparisonCSV(b, cmp) })},
		{"disk", "markdown", diskReport(), direct(func(b *bytes.Buffer) error { return diskMarkdown(b, diskReport(), bytesize.Units{}) })},
		{"crud", "markdown", crud, direct(func(b *bytes.Buffer) error { return crudMarkdown(b, crudTable) })},
		{"blob", "csv", blob, direct(func(b *bytes.Buffer) error { return blobCSV(b, blobTable, bytesize.Units{}) })},
		{"suite", "text", matrix, direct(func(b *bytes.Buffer) error {
			return suiteText(b, judge.Summarize(matrix, judge.DefaultMetrics(matrix)))
		})},
		{"crud as JSON", "json", crud, direct(func(b *bytes.Buffer) error { return crud.Write(b) })},
	} {
		render, err := Render(tt.format, tt.v, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if got := direct(func(b *bytes.Buffer) error { return render(b) }); got != tt.want {
			t.Errorf("%s: Render chose another renderer", tt.name)
		}
	}
	for _, tt := range []struct {
		format string
		v      any
		want   string
	}{
		{"yaml", matrix, `unknown format "yaml" for a result (want one of benchfmt, csv, html, json, markdown, text, ycsb)`},
		{"benchfmt", cmp, `unknown format "benchfmt" for a comparison (want one of csv, html, json, markdown, text)`},
		{"benchfmt", (*judge.Comparison)(nil), `unknown format "benchfmt" for a comparison`},
		{"text", 42, "cannot render a int"},
	} {
		if _, err := Render(tt.format, tt.v, Options{}); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Render(%s, %T) = %v, want %q", tt.format, tt.v, err, tt.want)
		}
	}
	if render, err := Render("text", (*judge.Comparison)(nil), Options{}); err != nil || render != nil {
		t.Errorf("a nil comparison in text: %v; want no error (the format can) and nothing to render", err)
	}
}

// The CPU line says per op, user and system, and whose time it is.
func TestCPUText(t *testing.T) {
	for _, tc := range []struct {
		cpu  *result.CPU
		want string
	}{
		{nil, ""},
		{&result.CPU{Scope: result.CPUWorkers, Processes: 25, UserSeconds: 1.25, SystemSeconds: 0.5, MicrosPerOp: 35}, "cpu: 35.0µs per op (user 1.250 s, system 0.500 s: 25 worker processes, START to last op)"},
		{&result.CPU{Scope: result.CPUWorkers, Processes: 1, UserSeconds: 0.002, SystemSeconds: 0.001, MicrosPerOp: 0.15}, "cpu: 150ns per op (user 0.002 s, system 0.001 s: 1 worker process, START to last op)"},
		{&result.CPU{Scope: result.CPUProcess, Processes: 1, UserSeconds: 2, MicrosPerOp: 4.2}, "cpu: 4.20µs per op (user 2.000 s, system 0.000 s: one process (goroutine workers and the coordinator))"},
		{&result.CPU{Scope: result.CPUWorkers, Processes: 25, UserSeconds: 1.25, SystemSeconds: 0.5, MicrosPerOp: 35, Coordinator: &result.CPUTime{UserSeconds: 0.1, MicrosPerOp: 0.21}},
			"cpu: 35.0µs per op (user 1.250 s, system 0.500 s: 25 worker processes, START to last op); coordinator 210ns per op"},
	} {
		if got := cpuText(result.Phase{CPU: tc.cpu}); got != tc.want {
			t.Errorf("cpuText(%+v) = %q, want %q", tc.cpu, got, tc.want)
		}
	}
}

// Lock waits an engine did not count read as not counted, never as zero;
// those it counted as numbers, zero for a kind that never waited.
func TestLockWaitTableSaysNotCounted(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name  string
		waits *result.LockWaits
		want  []string
		not   []string
	}{
		{"uncounted", nil, []string{"upsert              –", "read              –", "–: not counted"}, []string{"upsert              0"}},
		{"counted", &result.LockWaits{Retries: 4}, []string{"upsert              4", "read              0"}, []string{"–"}},
	} {
		ph := result.Phase{Ops: []result.OpStats{{Kind: "read"}, {Kind: "upsert", BusyBegins: 3, LockWaits: tt.waits}}}
		var b strings.Builder
		lockWaitTable(&errWriter{w: &b}, ph, workload.Plan{Busy: workload.BusyTimeout})
		for _, s := range tt.want {
			if !strings.Contains(b.String(), s) {
				t.Errorf("%s: no %q in\n%s", tt.name, s, b.String())
			}
		}
		for _, s := range tt.not {
			if strings.Contains(b.String(), s) {
				t.Errorf("%s: %q in\n%s", tt.name, s, b.String())
			}
		}
	}
}

// The warm-up line says what --warmup auto decided, and names a rate that
// did not settle beside latencies that did.
func TestSteadyText(t *testing.T) {
	for _, tc := range []struct {
		name string
		cut  result.SteadyCut
		want []string
	}{
		{"cut", result.SteadyCut{Method: "MSER-5", Found: true, ChosenSeconds: 2.08, Seconds: 2.048, Ops: 9045, Series: "read latency"},
			[]string{"warm-up cut at 2.05 s (MSER-5 put its end at 2.08 s, by read latency): 9045 ops left out"}},
		{"rate unsettled", result.SteadyCut{Method: "MSER-5", Found: true, ChosenSeconds: 2.08, Seconds: 2.048, Ops: 9045, Series: "read latency", Unsettled: "throughput", TrendPerSecond: -0.041},
			[]string{"warm-up cut at 2.05 s", "throughput did not settle (-4.1%/s over the run's second half) while every latency did"}},
		{"none", result.SteadyCut{Method: "MSER-5", Found: false, Series: "read latency", Reason: "settles only in the run's second half", TrendPerSecond: 0.02},
			[]string{"no steady state (MSER-5): read latency settles only in the run's second half; throughput +2.0%/s"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := steadyText(&tc.cut)
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("steadyText = %q, want it to hold %q", got, w)
				}
			}
			if tc.cut.Unsettled == "" && strings.Contains(got, "did not settle") {
				t.Errorf("steadyText = %q names an unsettled series where none was", got)
			}
		})
	}
}
