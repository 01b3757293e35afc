package result

import (
	"bytes"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/workload"
)

// fakeRun builds a complete one-worker result with n reads of latency lat
// under the given SQLite-like options.
func fakeRun(t *testing.T, journal, sync string, procs int, n int, lat time.Duration) *Result {
	t.Helper()
	p := plan(1)
	p.Procs = procs
	p.Goroutines = 1
	p.Store = store.Config{Path: "/tmp/x.db", Options: []byte(`{"journal":"` + journal + `","sync":"` + sync + `","busy_timeout_ms":5000}`)}
	b := NewBuilder(p)
	for w := range p.Workers() {
		s := b.Sink(w, 0)
		for i := range n {
			rec(t, s, workload.OpRead, store.OK, time.Duration(i)*lat, lat)
		}
		if err := s.Done(workload.WorkerStats{Worker: w, Samples: int64(n)}); err != nil {
			t.Fatal(err)
		}
	}
	r := b.Result()
	r.Command = "mix"
	r.StartedAt = time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC).Add(time.Duration(fakeStarts.Add(1)) * time.Second) // each run its own
	return r
}

// fakeStarts numbers the fake runs, which start a second apart (tests
// that make them run in parallel).
var fakeStarts atomic.Int64

// The same run given twice (a result merged with itself) is refused: it
// would pass for two independent repeats. Two runs of the same settings
// are repeats.
func TestDuplicateRunRefused(t *testing.T) {
	t.Parallel()
	a, b := fakeRun(t, "wal", "full", 1, 10, time.Microsecond), fakeRun(t, "wal", "full", 1, 10, time.Microsecond)
	if _, err := NewSuite("mix", "merged", []*Result{a, b}, ""); err != nil {
		t.Fatalf("two repeats: %v", err)
	}
	one, _ := NewSuite("mix", "single", []*Result{a}, "")
	_, err := Merge([]*Suite{one, one, one})
	if !errors.Is(err, ErrDuplicateRun) || !strings.Contains(err.Error(), "runs 1 and 2") {
		t.Fatalf("merging a run with itself: %v", err)
	}
}

func TestNewSuite(t *testing.T) {
	t.Parallel()
	runs := []*Result{
		fakeRun(t, "rollback", "full", 1, 10, time.Millisecond),
		fakeRun(t, "wal", "full", 1, 10, time.Microsecond),
		fakeRun(t, "rollback", "normal", 1, 10, time.Millisecond),
		fakeRun(t, "wal", "normal", 1, 10, time.Microsecond),
		fakeRun(t, "rollback", "full", 1, 10, time.Millisecond), // a repeat
	}
	s, err := NewSuite("mix", "interleaved", runs, "")
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(s.Varied, ","); got != "journal,sync" {
		t.Fatalf("varied = %q, want journal,sync", got)
	}
	if len(s.Cells) != 4 || len(s.Cells[0].Runs) != 2 {
		t.Fatalf("cells = %d, first with %d runs; want 4 cells, first with 2", len(s.Cells), len(s.Cells[0].Runs))
	}
	if s.Baseline.String() != "journal=rollback,sync=full" {
		t.Errorf("baseline = %s", s.Baseline)
	}
	for sel, want := range map[string]int{"wal": 2, "journal=wal": 2, "wal,normal": 1, "rollback,sync=full": 1} {
		got, err := s.Select(sel)
		if err != nil || len(got) != want {
			t.Errorf("Select(%q) = %v, %v; want %d cells", sel, got, err, want)
		}
	}
	for sel, msg := range map[string]string{"memory": "no cell has", "procs=4": "not a varied setting"} {
		if _, err := s.Select(sel); err == nil || !strings.Contains(err.Error(), msg) {
			t.Errorf("Select(%q) error = %v, want %q", sel, err, msg)
		}
	}
	if s2, err := NewSuite("mix", "interleaved", runs, "wal,normal"); err != nil || s2.Baseline.String() != "journal=wal,sync=normal" {
		t.Errorf("--baseline wal,normal: %v, %v", s2, err)
	}
	if _, err := NewSuite("mix", "interleaved", runs, "wal"); err == nil || !strings.Contains(err.Error(), "matches 2 cells") {
		t.Errorf("ambiguous baseline accepted: %v", err)
	}
}

func TestSameWorkload(t *testing.T) {
	t.Parallel()
	a := fakeRun(t, "wal", "full", 1, 10, time.Microsecond)
	b := fakeRun(t, "rollback", "normal", 4, 10, time.Microsecond)
	if err := SameWorkload(a, b); err != nil {
		t.Errorf("different settings, same workload: %v", err)
	}
	// A matrix of engines under --crash: each traced by what it has.
	vfs, fs := fakeRun(t, "wal", "full", 1, 10, time.Microsecond), fakeRun(t, "wal", "full", 1, 10, time.Microsecond)
	vfs.Plan.IOTrace, fs.Plan.IOTrace = "vfs", "fs"
	if err := SameWorkload(vfs, fs); err != nil {
		t.Errorf("traced by a VFS and by the file system, same workload: %v", err)
	}
	c := fakeRun(t, "wal", "full", 1, 10, time.Microsecond)
	c.Plan.Seed = 9
	if err := SameWorkload(a, c); err == nil || !strings.Contains(err.Error(), "seed is 1 in one and 9 in the other") {
		t.Errorf("different seeds: %v", err)
	}
	if _, err := NewSuite("mix", "merged", []*Result{a, c}, ""); err == nil {
		t.Error("NewSuite accepted runs of different workloads")
	}
}

func TestReadSuite(t *testing.T) {
	t.Parallel()
	// A single result reads as a suite of one cell.
	var buf bytes.Buffer
	if err := fakeRun(t, "wal", "full", 1, 10, time.Microsecond).Write(&buf); err != nil {
		t.Fatal(err)
	}
	s, err := ReadSuite(&buf)
	if err != nil || len(s.Cells) != 1 || len(s.Cells[0].Runs) != 1 {
		t.Fatalf("single result as suite: %+v, %v", s, err)
	}
	// A suite round-trips, baseline included.
	runs := []*Result{fakeRun(t, "rollback", "full", 1, 10, time.Millisecond), fakeRun(t, "wal", "full", 1, 10, time.Microsecond)}
	s, err = NewSuite("mix", "interleaved", runs, "wal")
	if err != nil {
		t.Fatal(err)
	}
	buf.Reset()
	if err := s.Write(&buf); err != nil {
		t.Fatal(err)
	}
	back, err := ReadSuite(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if len(back.Cells) != 2 || back.Baseline.String() != "journal=wal" || back.Order != "interleaved" {
		t.Fatalf("suite round trip: %d cells, baseline %s, order %s", len(back.Cells), back.Baseline, back.Order)
	}
	// A suite's runs are checked like any result.
	s.Cells[1].Runs[0].SchemaVersion = 7
	buf.Reset()
	if err := s.Write(&buf); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadSuite(&buf); err == nil || !strings.Contains(err.Error(), "schema version 7") {
		t.Errorf("ReadSuite of a run of another schema version: %v", err)
	}
}

// FuzzReadSuite feeds arbitrary bytes to the loader compare and merge use:
// it never panics, and what it accepts writes back and reads again.
func FuzzReadSuite(f *testing.F) {
	var one, two bytes.Buffer
	r := NewBuilder(plan(1))
	s := r.Sink(0, 0)
	_ = s.Record(workload.Sample{Op: workload.OpRead, Latency: time.Microsecond})
	_ = s.Done(workload.WorkerStats{Samples: 1})
	res := r.Result()
	_ = res.Write(&one)
	suite, _ := NewSuite("mix", "interleaved", []*Result{res, res}, "")
	_ = suite.Write(&two)
	f.Add(one.Bytes())
	f.Add(two.Bytes())
	f.Add([]byte(`{"kind":"suite","schema_version":1,"cells":[]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		slow := time.AfterFunc(10*time.Second, func() { panic("ReadSuite took over 10 s: a slow input") })
		defer slow.Stop()
		s, err := ReadSuite(bytes.NewReader(data))
		if err != nil {
			return
		}
		var out bytes.Buffer
		if err := s.Write(&out); err != nil {
			t.Fatal(err)
		}
		if _, err := ReadSuite(&out); err != nil {
			t.Fatalf("accepted suite does not read back: %v", err)
		}
	})
}

// A setting only some runs have (an engine's own option) varies: two
// files layouts after a SQLite run are two cells, not one.
func TestNewSuiteEngineOptions(t *testing.T) {
	t.Parallel()
	db := fakeRun(t, "rollback", "off", 1, 10, time.Millisecond)
	layout := func(l string) *Result {
		r := fakeRun(t, "rollback", "off", 1, 10, time.Millisecond)
		r.Plan.Driver = "files"
		r.Plan.Store.Options = []byte(`{"layout":"` + l + `","fsync":false}`)
		return r
	}
	s, err := NewSuite("blob", "interleaved", []*Result{db, layout("flat"), layout("tree")}, "")
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Cells) != 3 {
		t.Fatalf("%d cells (varied %v), want 3", len(s.Cells), s.Varied)
	}
	if v, _ := s.Cells[2].Settings.Get("layout"); v != "tree" {
		t.Errorf("third cell: %s", s.Cells[2].Settings)
	}
}

// A suite reads as its run (in every format, and in --json's file) only
// when it is a matrix of one run that says nothing its run does not.
func TestReadsAsRun(t *testing.T) {
	one := func(s *Suite) *Suite {
		s.Cells = []Cell{{Runs: []*Result{{}}}}
		return s
	}
	for _, tt := range []struct {
		name string
		s    *Suite
		want bool
	}{
		{"a matrix of one run", one(&Suite{Shape: ShapeMatrix}), true},
		{"a matrix of two runs", &Suite{Shape: ShapeMatrix, Cells: []Cell{{Runs: []*Result{{}, {}}}}}, false},
		{"a matrix of two cells", &Suite{Shape: ShapeMatrix, Cells: []Cell{{Runs: []*Result{{}}}, {Runs: []*Result{{}}}}}, false},
		{"targets of one", one(&Suite{Shape: ShapeTargets}), false},
		{"a scaling table of one", one(&Suite{Shape: ShapeScaling}), false},
		{"a shard of one run", one(&Suite{Shape: ShapeMatrix, Shard: &Shard{Index: 1, Count: 2}}), false},
		{"a merge missing runs", one(&Suite{Shape: ShapeMatrix, Missing: []string{"journal=wal"}}), false},
		{"a scenario's verdict", one(&Suite{Shape: ShapeMatrix, Scenario: &Scenario{Name: "x"}}), false},
	} {
		if got := tt.s.ReadsAsRun(); got != tt.want {
			t.Errorf("%s: ReadsAsRun = %v, want %v", tt.name, got, tt.want)
		}
	}
}

// Any percentile reads from the histogram by the rule the stored ones
// follow: 1,000 reads of 1 ms to 1 s have the p99.9 the summary stores,
// a p99.99 at the slowest, a p95 at the 950th; none outside 0–100 or
// from a summary that keeps no histogram.
func TestLatencyPercentile(t *testing.T) {
	p := plan(1)
	b := NewBuilder(p)
	s := b.Sink(0, 0)
	for i := 1; i <= 1000; i++ {
		rec(t, s, workload.OpRead, store.OK, time.Duration(i)*time.Millisecond, time.Duration(i)*time.Millisecond)
	}
	if err := s.Done(workload.WorkerStats{Worker: 0, Samples: 1000}); err != nil {
		t.Fatal(err)
	}
	l := b.Result().Phases[0].Total.Latency
	near := func(got, want float64) bool { return got >= want && got <= want*1.001 } // 3 digits
	for _, tt := range []struct {
		p    float64
		want float64
	}{{99.9, l.P999Micros}, {99.99, 1e6}, {95, 950e3}, {50, l.P50Micros}} {
		if got, ok := l.Percentile(tt.p); !ok || !near(got, tt.want) {
			t.Errorf("p%v = %v, %v; want %v", tt.p, got, ok, tt.want)
		}
	}
	for _, bad := range []float64{0, 100, -1} {
		if _, ok := l.Percentile(bad); ok {
			t.Errorf("p%v read", bad)
		}
	}
	l.Histogram = ""
	if _, ok := l.Percentile(99); ok {
		t.Error("a percentile read without a histogram")
	}
}

// A matrix varies along the settings the runs differ in where both have
// them; an engine's own option (bbolt-batch), or the journal of a matrix
// of SQLite and bbolt at one journal, is no axis: Fixed says it per
// driver, and selectors may still name it. A setting only some runs have
// stays an axis where without it two cells would be one.
func TestVariedOnlyWhatVaries(t *testing.T) {
	t.Parallel()
	run := func(driver string, settings ...string) *Result {
		r := fakeRun(t, "rollback", "off", 1, 10, time.Millisecond)
		r.Plan.Driver = driver
		r.Plan.Store.Options = []byte(`{}`)
		for _, s := range settings {
			name, value, _ := strings.Cut(s, "=")
			r.Plan.Store.Settings = append(r.Plan.Store.Settings, store.Setting{Name: name, Value: value})
		}
		return r
	}
	for _, tt := range []struct {
		name     string
		runs     []*Result
		varied   string
		own      string
		selector string // picks the first cell
	}{
		{
			name: "engines at one journal",
			runs: []*Result{
				run("mattn", "journal=wal", "sync=full", "busy-timeout=5s"), run("mattn", "journal=wal", "sync=normal", "busy-timeout=5s"),
				run("bbolt", "sync=full", "bbolt-batch=false"), run("bbolt", "sync=normal", "bbolt-batch=false"),
				run("pebble", "sync=full", "pebble-cache=8"),
			},
			varied: "driver sync",
			own:    "mattn: journal=wal,busy-timeout=5s | bbolt: bbolt-batch=false | pebble: pebble-cache=8",
			// as a file written before named it: every setting, empty ones too
			selector: "driver=mattn,journal=wal,sync=full,busy-timeout=5s,bbolt-batch=,pebble-cache=",
		},
		{
			name: "journals of one engine beside another",
			runs: []*Result{
				run("mattn", "journal=wal", "sync=full"), run("mattn", "journal=delete", "sync=full"),
				run("bbolt", "sync=full", "bbolt-batch=false"),
			},
			varied:   "driver journal",
			own:      "bbolt: bbolt-batch=false",
			selector: "journal=wal",
		},
		{
			name:     "a setting only one run has, that alone tells them apart",
			runs:     []*Result{run("null", "x=1"), run("null")},
			varied:   "x",
			selector: "x=1",
		},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s, err := NewSuite("mix", "interleaved", tt.runs, "")
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.Join(s.Varied, " "); got != tt.varied {
				t.Errorf("varied %q, want %q", got, tt.varied)
			}
			if len(s.Cells) != len(tt.runs) {
				t.Errorf("%d cells, want %d: %s", len(s.Cells), len(tt.runs), s.cellList())
			}
			_, own := s.Fixed()
			var got []string
			for _, o := range own {
				got = append(got, o.String())
			}
			if g := strings.Join(got, " | "); g != tt.own {
				t.Errorf("own options %q, want %q", g, tt.own)
			}
			if cells, err := s.Select(tt.selector); err != nil || len(cells) != 1 || cells[0] != 0 {
				t.Errorf("Select(%q) = %v, %v; want the first cell", tt.selector, cells, err)
			}
		})
	}
}
