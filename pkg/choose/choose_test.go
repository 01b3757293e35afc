package choose

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gobench/gobench/pkg/preset"
	"github.com/gobench/gobench/pkg/result"
	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/store/all"
	"github.com/gobench/gobench/pkg/workload"
)

// names returns the candidates' names.
func names(cands []Candidate) []string {
	out := make([]string, len(cands))
	for i, c := range cands {
		out[i] = c.Name()
	}
	return out
}

// Each promise has its candidates: every engine at the settings that keep
// it, acknowledged writes at sync full (SQLite's two journals, bbolt with
// and without group commit), a process crash at sync off; --driver
// narrows them, and a driver choose knows nothing of is refused.
func TestCandidates(t *testing.T) {
	t.Parallel()
	reg := all.Registry()
	if _, err := reg.Lookup("capi"); err != nil {
		t.Skip("a build without cgo lacks capi and lmdb")
	}
	for _, tt := range []struct {
		keep string
		only []string
		want []string
		err  string
	}{
		{keep: KeepAcked, want: []string{
			"mattn journal=wal sync=full", "mattn journal=rollback sync=extra",
			"modernc journal=wal sync=full", "modernc journal=rollback sync=extra",
			"ncruces journal=wal sync=full", "ncruces journal=rollback sync=extra",
			"capi journal=wal sync=full", "capi journal=rollback sync=extra",
			"bbolt sync=full bbolt-batch=false", "bbolt sync=full bbolt-batch=true",
			"pebble sync=full", "pebble sync=full profile=tool", "badger sync=full", "badger sync=full profile=tool", "lmdb sync=full"}},
		{keep: KeepProcessCrash, only: []string{"mattn", "pebble"}, want: []string{
			"mattn journal=wal sync=off", "mattn journal=rollback sync=off", "pebble sync=normal", "pebble sync=normal profile=tool"}},
		{keep: KeepNone, only: []string{"pebble", "lmdb"}, want: []string{"pebble sync=off", "pebble sync=off profile=tool", "lmdb sync=off"}},
		{keep: KeepNone, only: []string{"bbolt"}, want: []string{"bbolt sync=off bbolt-batch=false", "bbolt sync=off bbolt-batch=true"}},
		{keep: "forever", err: `--keep "forever": want acked, process-crash, none`},
		{keep: KeepAcked, only: []string{"map"}, err: "--driver map: choose knows no settings of it"},
	} {
		got, _, err := Candidates(tt.keep, reg, tt.only)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("%s %v: %v, want %q", tt.keep, tt.only, err, tt.err)
			}
			continue
		}
		if err != nil || !slices.Equal(names(got), tt.want) {
			t.Errorf("%s %v: %v %q\nwant %q", tt.keep, tt.only, err, names(got), tt.want)
		}
	}
}

// A driver this build lacks is named among what was not measured.
func TestCandidatesMissing(t *testing.T) {
	t.Parallel()
	reg := store.NewRegistry()
	bbolt, err := all.Registry().Lookup("bbolt")
	if err != nil {
		t.Fatal(err)
	}
	reg.Register(bbolt)
	got, missing, err := Candidates(KeepAcked, reg, nil)
	if err != nil || !slices.Equal(names(got), []string{"bbolt sync=full bbolt-batch=false", "bbolt sync=full bbolt-batch=true"}) {
		t.Fatalf("%v %q", err, names(got))
	}
	if len(missing) != 7 || missing[0] != "mattn: not in this build" {
		t.Errorf("missing %q", missing)
	}
}

// Every candidate becomes one plan the matrix checks, of the goroutines
// asked for in one worker process of its own (its memory its own, an
// engine one process may open handed over to it), and the null driver's
// in the same shape is the memory baseline run with them; under
// KeepAcked each has a power-cut plan too, in gobench's own process,
// which tags and checks its values; a budget too small is refused naming
// one that would do.
func TestBuild(t *testing.T) {
	t.Parallel()
	reg := all.Registry()
	spec := Spec{Workload: Mix{Spec: preset.DefaultMixSpec()}, Keep: KeepAcked, Budget: 2 * time.Minute, Workers: 3, Drivers: []string{"bbolt", "pebble"}}
	p, err := Build(spec, reg)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Speed) != 4 || len(p.Crash) != 4 {
		t.Fatalf("%d speed, %d crash plans", len(p.Speed), len(p.Crash))
	}
	for i, sp := range p.Speed {
		cr := p.Crash[i]
		if sp.Driver != p.Candidates[i].Driver || sp.Procs != 1 || sp.Goroutines != 3 || sp.Mode != workload.ModeProcess || sp.Crash != nil {
			t.Errorf("speed plan %d: %s %s %d×%d crash %v", i, sp.Driver, sp.Mode, sp.Procs, sp.Goroutines, sp.Crash)
		}
		drv, err := reg.Lookup(sp.Driver)
		if err != nil {
			t.Fatal(err)
		}
		if err := workload.CheckDriver(sp, drv); err != nil {
			t.Errorf("speed plan %d: %v", i, err)
		}
		if cr == nil || cr.Crash == nil || cr.Crash.States != p.Size.Cuts || !cr.Verify || cr.Mode != workload.ModeGoroutine {
			t.Errorf("crash plan %d: %+v", i, cr)
		}
	}
	if b := p.Baseline; b == nil || b.Driver != BaselineDriver || b.Mode != workload.ModeProcess || b.Procs != 1 || b.Goroutines != 3 || b.Crash != nil ||
		len(p.SpeedCells()) != len(p.Speed)+1 || p.SpeedCells()[len(p.Speed)] != b {
		t.Errorf("baseline %+v among %d speed cells", b, len(p.SpeedCells()))
	}
	if got := result.PlanSettings(p.Speed[1]).String(); !strings.Contains(got, "bbolt-batch=true") {
		t.Errorf("the second candidate's settings %q", got)
	}
	if got := result.PlanSettings(p.Speed[3]).String(); !strings.Contains(got, "profile=tool") || !strings.Contains(got, "pebble-memtable=64") {
		t.Errorf("pebble's tool profile's settings %q", got)
	}
	spec.Keep = KeepNone
	if p, err = Build(spec, reg); err != nil || p.Crash[0] != nil {
		t.Errorf("none: %v, crash plan %v", err, p.Crash)
	}
	spec.Budget = 10 * time.Second
	if _, err := Build(spec, reg); err == nil || !strings.Contains(err.Error(), "--budget 10s is too small for 4 candidates") {
		t.Errorf("tiny budget: %v", err)
	}
}

// The budget buys power cuts first (one per 30 s of it, 3 to 20), then
// five repeats where each is at least half a second long, else three;
// runs never exceed 30 s, and the plan fits the budget.
func TestSize(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		budget     time.Duration
		cells, cut int
		baseline   bool
		repeats    int
		cuts       int
		err        bool
	}{
		{budget: 5 * time.Minute, cells: 13, cut: 13, baseline: true, repeats: 5, cuts: 10},
		{budget: 20 * time.Second, cells: 2, cut: 2, baseline: true, err: true},
		{budget: 25 * time.Second, cells: 2, cut: 2, baseline: true, repeats: 3, cuts: 3},
		{budget: 5 * time.Minute, cells: 13, cut: 13, repeats: 5, cuts: 10},
		{budget: 5 * time.Minute, cells: 13, cut: 0, repeats: 5, cuts: 10},
		{budget: 30 * time.Second, cells: 2, cut: 2, repeats: 5, cuts: 3},
		{budget: 20 * time.Second, cells: 2, cut: 2, repeats: 3, cuts: 3},
		{budget: time.Hour, cells: 2, cut: 0, repeats: 5, cuts: 20},
		{budget: 10 * time.Second, cells: 3, cut: 3, err: true},
	} {
		s, err := Size(tt.budget, tt.cells, tt.cut, tt.baseline)
		if tt.err {
			if err == nil {
				t.Errorf("%v %d cells: %+v, want an error", tt.budget, tt.cells, s)
				continue
			}
			// The budget the refusal names is enough, and not a minute
			// more than the least that is.
			_, at, _ := strings.Cut(err.Error(), "give at least ")
			enough, perr := time.ParseDuration(strings.TrimSuffix(at, ", or fewer drivers"))
			if perr != nil {
				t.Fatalf("%v: %v", err, perr)
			}
			if _, err := Size(enough, tt.cells, tt.cut, tt.baseline); err != nil {
				t.Errorf("%v %d cells: the budget named, %v, is refused: %v", tt.budget, tt.cells, enough, err)
			}
			if _, err := Size(enough-5*time.Second, tt.cells, tt.cut, tt.baseline); err == nil && enough < time.Minute {
				t.Errorf("%v %d cells: names %v, where 5 s less would do", tt.budget, tt.cells, enough)
			}
			continue
		}
		if err != nil || s.Repeats != tt.repeats || s.Cuts != tt.cuts || s.Run < minRun || s.Run > maxRun {
			t.Errorf("%v %d cells, %d cut: %+v %v", tt.budget, tt.cells, tt.cut, s, err)
		}
		spent := time.Duration(tt.cut)*(runOverhead+s.CrashRun+time.Duration(s.Cuts)*cutCost) + time.Duration(tt.cells*s.Repeats)*(runOverhead+s.Run) + time.Duration(btoi(tt.baseline)*s.Repeats)*(runOverhead+BaselineRun)
		if spent > tt.budget+time.Duration(tt.cells*s.Repeats)*50*time.Millisecond {
			t.Errorf("%v %d cells: plans %v", tt.budget, tt.cells, spent)
		}
	}
}

// Every candidate for acknowledged writes is at settings its engine
// promises keep them at a power cut (store.Promiser), and every one
// choose leaves out for a weaker setting is not: the list follows the
// engines' own declarations.
func TestCandidatesKeepTheirEnginesPromise(t *testing.T) {
	t.Parallel()
	reg := all.Registry()
	cands, _, err := Candidates(KeepAcked, reg, nil)
	if err != nil {
		t.Fatal(err)
	}
	weaker := []Candidate{
		{Driver: "mattn", Flags: []Flag{{"journal", "rollback"}, {"sync", "full"}}},
		{Driver: "modernc", Flags: []Flag{{"journal", "wal"}, {"sync", "normal"}}},
		{Driver: "pebble", Flags: []Flag{{"sync", "normal"}}},
		{Driver: "bbolt", Flags: []Flag{{"sync", "off"}}},
	}
	for _, tt := range []struct {
		cands []Candidate
		keeps bool
	}{{cands, true}, {weaker, false}} {
		for _, c := range tt.cands {
			drv, err := reg.Lookup(c.Driver)
			if err != nil {
				t.Fatal(err)
			}
			var facts []store.Fact
			for _, f := range c.Flags {
				switch {
				case f.Name == "journal" && f.Value == "rollback":
					facts = append(facts, store.Fact{Name: "journal_mode", Value: "delete"}) // as SQLite reads it back
				case f.Name == "journal":
					facts = append(facts, store.Fact{Name: "journal_mode", Value: f.Value})
				case f.Name == "sync":
					facts = append(facts, store.Fact{Name: "sync", Value: f.Value}, store.Fact{Name: "synchronous", Value: f.Value})
				}
			}
			p, ok := drv.(store.Promiser).Promise(facts)
			if !ok || (p.Level == store.PromiseKeeps) != tt.keeps {
				t.Errorf("%s %s: promise %+v (%v), want keeps %v", c.Driver, c.Settings(), p, ok, tt.keeps)
			}
		}
	}
}

// btoi is 1 for true.
func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// A workload that writes nothing (a mix of reads and scans, YCSB C) is
// refused under KeepAcked before anything runs: its power-cut runs would
// sync nothing, so no row could be ranked. Other promises measure it.
func TestBuildReadOnly(t *testing.T) {
	t.Parallel()
	mix := preset.DefaultMixSpec()
	m, err := workload.ParseMix("read=90,scan=10")
	if err != nil {
		t.Fatal(err)
	}
	mix.Plan.Phases[0].Mix = m
	for _, tt := range []struct {
		keep, want string
	}{
		{KeepAcked, "--keep acked: the workload writes nothing"},
		{KeepNone, ""},
		{KeepProcessCrash, ""},
	} {
		buildRefuses(t, Spec{Workload: Mix{Spec: mix}, Keep: tt.keep, Budget: 2 * time.Minute, Workers: 2, Drivers: []string{"lmdb"}}, tt.want)
	}
}

// --workers out of range is refused naming --workers (the plan's own
// check named "goroutines", a flag choose has not).
func TestBuildWorkers(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		workers int
		want    string
	}{
		{0, "--workers 0: want 1 to "},
		{workload.MaxGoroutines + 1, fmt.Sprintf("--workers %d: want 1 to %d", workload.MaxGoroutines+1, workload.MaxGoroutines)},
		{2, ""},
	} {
		buildRefuses(t, Spec{Workload: Mix{Spec: preset.DefaultMixSpec()}, Keep: KeepNone, Budget: 2 * time.Minute, Workers: tt.workers, Drivers: []string{"lmdb"}}, tt.want)
	}
}

// What was not measured names only what the question could have
// included: with --driver, files (which it did not ask for) goes unsaid,
// and SQLite's journal modes where no SQLite driver is a candidate.
func TestBuildNotMeasured(t *testing.T) {
	t.Parallel()
	reg := all.Registry()
	if _, err := reg.Lookup("mattn"); err != nil {
		t.Skip("a build without cgo lacks mattn")
	}
	for _, tt := range []struct {
		drivers   []string
		want, not []string
	}{
		{nil, []string{"files (a file per key)", "truncate and persist", "rollback journal at synchronous=full"}, nil},
		{[]string{"mattn"}, []string{"truncate and persist", "rollback journal at synchronous=full"}, []string{"files (a file per key)"}},
		{[]string{"lmdb", "bbolt"}, nil, []string{"files (a file per key)", "truncate and persist", "synchronous=full"}},
	} {
		spec := Spec{Workload: Mix{Spec: preset.DefaultMixSpec()}, Keep: KeepAcked, Budget: time.Hour, Workers: 2, Drivers: tt.drivers}
		p, err := Build(spec, reg)
		if err != nil {
			t.Fatal(err)
		}
		all := strings.Join(p.NotMeasured, "\n")
		for _, w := range tt.want {
			if !strings.Contains(all, w) {
				t.Errorf("--driver %v: no %q in\n%s", tt.drivers, w, all)
			}
		}
		for _, n := range tt.not {
			if strings.Contains(all, n) {
				t.Errorf("--driver %v: %q in\n%s", tt.drivers, n, all)
			}
		}
	}
}

// buildRefuses checks that Build refuses spec with an error holding want,
// or, want empty, builds it.
func buildRefuses(t *testing.T, spec Spec, want string) {
	t.Helper()
	_, err := Build(spec, all.Registry())
	if want == "" && err != nil || want != "" && (err == nil || !strings.Contains(err.Error(), want)) {
		t.Errorf("keep %s, --workers %d: %v, want %q", spec.Keep, spec.Workers, err, want)
	}
}

// A budget that is not positive is refused as such, not as too small;
// a budget too small says "or fewer drivers" only where there is more
// than one driver to drop.
func TestBuildBudget(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		budget    time.Duration
		drivers   []string
		want, not string
	}{
		{-time.Second, []string{"bbolt", "lmdb"}, "--budget -1s: want a positive time", "too small"},
		{0, []string{"bbolt", "lmdb"}, "--budget 0s: want a positive time", "fewer drivers"},
		{time.Second, []string{"lmdb"}, "too small", "fewer drivers"},
		{time.Second, []string{"bbolt", "lmdb"}, "give at least", "\x00"},
		{time.Second, []string{"bbolt", "lmdb"}, ", or fewer drivers", "\x00"},
	} {
		_, err := Build(Spec{Workload: Mix{Spec: preset.DefaultMixSpec()}, Keep: KeepNone, Budget: tt.budget, Workers: 2, Drivers: tt.drivers}, all.Registry())
		if err == nil || !strings.Contains(err.Error(), tt.want) || strings.Contains(err.Error(), tt.not) {
			t.Errorf("--budget %v, drivers %v: %v, want %q and not %q", tt.budget, tt.drivers, err, tt.want, tt.not)
		}
	}
}
