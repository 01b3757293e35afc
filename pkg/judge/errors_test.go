package judge

import (
	"slices"
	"testing"

	"github.com/gobench/gobench/pkg/result"
)

// Failed ops are figures gates read: 'busy errors == 0' fails every cell
// whose runs each had busy errors, and passes the one that had none. The
// fixture is a journal × sync matrix at 6 processes with a 30 ms busy
// timeout: every cell but wal,normal failed ops.
func TestErrorFigures(t *testing.T) {
	s := loadSuiteFixture(t, "matrix-errors.json")
	for _, c := range s.Cells {
		if e := result.CellErrors(c); (e.Busy == 0) != (c.Settings.String() == "journal=wal,sync=normal") || e.Busy != e.Total {
			t.Fatalf("fixture: %s failed %+v; want busy errors in every cell but wal,normal", c.Settings, e)
		}
	}
	for _, expr := range []string{"busy errors == 0", "errors == 0", "error rate < 0.01%"} {
		e, err := ParseExpectation(expr)
		if err != nil {
			t.Fatalf("%s: %v", expr, err)
		}
		gates, err := Evaluate(s, []Expectation{e})
		if err != nil {
			t.Fatal(err)
		}
		for _, g := range gates {
			want := result.OutcomeFail
			if g.Cell == "journal=wal,sync=normal" {
				want = result.OutcomePass
			}
			if g.Outcome != want {
				t.Errorf("%s on %s: %s (%s), want %s", expr, g.Cell, g.Outcome, g.Verdict, want)
			}
		}
	}
	// The suite's default figures list them, since runs failed ops; a
	// suite without failures does not.
	names := func(ms []Metric) []string {
		var out []string
		for _, m := range ms {
			out = append(out, m.String())
		}
		return out
	}
	if got := names(DefaultMetrics(s)); !slices.Contains(got, "errors") || !slices.Contains(got, "busy errors") || !slices.Contains(got, "error rate") {
		t.Errorf("default metrics of a suite with failed ops: %v", got)
	}
	if got := names(DefaultMetrics(loadSuiteFixture(t, "matrix.json"))); slices.Contains(got, "errors") {
		t.Errorf("default metrics of a suite without failed ops list errors: %v", got)
	}
	// A failed op is lower-better and read per run.
	m, _ := ParseMetric("busy errors")
	if m.HigherIsBetter() || m.Unit() != "ops failed busy" {
		t.Errorf("busy errors: higher %v, unit %q", m.HigherIsBetter(), m.Unit())
	}
	rate, _ := ParseMetric("error rate")
	r := s.Cells[0].Runs[0]
	v, ok := rate.Value(r)
	tot := r.Phases[0].Total
	if want := 100 * float64(tot.Errors.Total) / float64(tot.Count); !ok || !near(v, want) || v <= 0 {
		t.Errorf("error rate %v, %v; want %v", v, ok, want)
	}
}

// A figure a run has no value of says why, and never reads as zero: a
// run without --crash has no lost writes, a run whose I/O was not traced
// no syncs per commit.
func TestMissingFigures(t *testing.T) {
	s := loadSuiteFixture(t, "matrix.json")
	r := s.Cells[0].Runs[0]
	for name, want := range map[string]string{
		"lost acked writes":   "no --crash",
		"commits fsync%":      "the disk's fsync rate was not measured (--ceiling)",
		"scan p99":            "no scan op ran",
		"worker rss":          "the workers' memory was not measured",
		"space amplification": "the database's space and live data were not measured",
		"db differences":      "not a replayed trace",
	} {
		m, err := ParseMetric(name)
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := m.Value(r); ok {
			t.Errorf("%s: read a value from a run that has none", name)
		}
		if got := m.Missing(r); got != want {
			t.Errorf("%s missing: %q, want %q", name, got, want)
		}
	}
	// The share of the fsync rate has no better direction: its factors
	// name no winner.
	fs, _ := ParseMetric("commits fsync%")
	f := compareStats(fs, StatsOf([]float64{10, 10, 10}), StatsOf([]float64{5, 5, 5}))
	if f.Better || f.Short() != "×0.50" {
		t.Errorf("commits fsync%% factor %+v reads %q, want no direction", f, f.Short())
	}
}

// Busy errors are one figure, whoever reads it: ops that failed busy or
// locked (the lock was not had), gated by a suite's --expect and by a
// scenario's gates alike, and listed among a scenario's default figures
// even where no op failed (its gates read it), elsewhere only where one
// did.
func TestBusyErrorsOneFigure(t *testing.T) {
	seen := map[string]bool{}
	for _, f := range Figures {
		for _, n := range append([]string{f.Name}, f.Aliases...) {
			if seen[n] {
				t.Errorf("figure %q is in the table twice", n)
			}
			seen[n] = true
		}
	}
	s := loadSuiteFixture(t, "matrix.json")
	r := *s.Cells[0].Runs[0]
	ph := slices.Clone(r.Phases)
	r.Phases = ph
	r.Phases[0].Total.Errors.Busy, r.Phases[0].Total.Errors.Locked = 2, 3
	m, err := ParseMetric("busy errors")
	if err != nil {
		t.Fatal(err)
	}
	if v, ok := m.Value(&r); !ok || v != 5 {
		t.Errorf("busy errors of a run with 2 busy and 3 locked: %v, %v; want 5", v, ok)
	}
	f := m.Figure()
	clean := s.Cells[0].Runs[0]
	if clean.Phases[0].Total.Errors.Total != 0 {
		t.Fatalf("fixture: %+v failed ops", clean.Phases[0].Total.Errors)
	}
	if f.Summary(clean) {
		t.Errorf("busy errors listed for a run that failed nothing, outside a scenario")
	}
	if !f.Summary(&r) {
		t.Errorf("busy errors not listed for a run that failed busy")
	}
	sc := *clean
	sc.Plan.Scenario = "deferred-begin"
	if !f.Summary(&sc) {
		t.Errorf("busy errors not listed for a scenario's run")
	}
}

// Space amplification is stated only above MinSpaceLiveBytes of live
// data: below, the engine's fixed files make the figure (pebble's empty
// store is 4.4 MiB), and the run says so in place of a value.
func TestSpaceAmplificationNeedsData(t *testing.T) {
	m, err := ParseMetric("space amplification")
	if err != nil {
		t.Fatal(err)
	}
	r := loadSuiteFixture(t, "matrix.json").Cells[0].Runs[0]
	for _, tc := range []struct {
		live, alloc int64
		want        float64 // 0: none
		why         string
	}{
		{720_000, 9_252_864, 0, "the live data (703 KiB) is below 64 MiB, where the engines' fixed files (up to 4.4 MiB, pebble's) outweigh it"},
		{MinSpaceLiveBytes, 2 * MinSpaceLiveBytes, 2, ""},
	} {
		r.Space = &result.Space{AllocatedBytes: tc.alloc, LiveBytes: tc.live, Amplification: float64(tc.alloc) / float64(tc.live)}
		v, ok := m.Value(r)
		if ok != (tc.want > 0) || (ok && v != tc.want) {
			t.Errorf("%d live: %v, %v; want %v", tc.live, v, ok, tc.want)
		}
		if !ok && m.Missing(r) != tc.why {
			t.Errorf("%d live: missing %q, want %q", tc.live, m.Missing(r), tc.why)
		}
	}
}
