package preset_test

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/gobench/gobench/pkg/judge"
	"github.com/gobench/gobench/pkg/preset"
	"github.com/gobench/gobench/pkg/result"
	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/workload"
)

// Every scenario of the catalog is whole: a pitfall and a fix, gates
// that parse, a finding whose figures are figures, a page of SQLite's
// documentation, and a name of its own.
func TestScenarioCatalog(t *testing.T) {
	scs := preset.Scenarios()
	if len(scs) < 7 {
		t.Fatalf("%d scenarios", len(scs))
	}
	figure := regexp.MustCompile(`\{([^{}@]+)@([^{}]+)\}`)
	seen := map[string]bool{}
	for _, sc := range scs {
		if seen[sc.Name] {
			t.Errorf("%s twice", sc.Name)
		}
		seen[sc.Name] = true
		if err := sc.Check(); err != nil {
			t.Error(err)
		}
		if _, err := sc.Gates(); err != nil {
			t.Error(err)
		}
		if !strings.HasPrefix(sc.Doc, "https://www.sqlite.org/") || sc.Title == "" || sc.About == "" || sc.Takes <= 0 {
			t.Errorf("%s: doc %q, title %q, takes %v", sc.Name, sc.Doc, sc.Title, sc.Takes)
		}
		ms := figure.FindAllStringSubmatch(sc.Finding, -1)
		if len(ms) == 0 {
			t.Errorf("%s: the finding names no figure", sc.Name)
		}
		for _, m := range ms {
			if _, err := judge.ParseMetric(m[1]); err != nil {
				t.Errorf("%s: finding: %v", sc.Name, err)
			}
		}
	}
}

// A scenario's cells are its cases over the matrix: each named as its
// variant, with its own settings and workload, the scenario's procs
// unless --procs is given; a flag a case sets itself is refused, and so
// are too few procs.
func TestScenarioPlans(t *testing.T) {
	sc, err := preset.ScenarioNamed("checkpoint-starvation")
	if err != nil {
		t.Fatal(err)
	}
	plans, err := preset.ScenarioSpec{Scenario: sc}.Plans(matrix(store.List{"mattn", "modernc"}, store.List{"25"}))
	if err != nil {
		t.Fatal(err)
	}
	if len(plans) != 4 {
		t.Fatalf("%d cells, want 2 cases × 2 drivers", len(plans))
	}
	for i, p := range plans {
		want := []string{"long-reads", "long-reads", "short-reads", "short-reads"}[i]
		if p.Variant != want || p.Scenario != sc.Name || p.Procs != sc.Procs {
			t.Errorf("cell %d: variant %q scenario %q procs %d", i, p.Variant, p.Scenario, p.Procs)
		}
		if j, _ := result.PlanSettings(p).Get("journal"); j != "wal" {
			t.Errorf("cell %d: journal %s", i, j)
		}
		if s, _ := result.PlanSettings(p).Get("sync"); s != "normal" {
			t.Errorf("cell %d: sync %s, want the scenario's default", i, s)
		}
		long := strings.Contains(p.SQL.Scripts[1].Text, "BEGIN")
		if long != (want == "long-reads") {
			t.Errorf("cell %d (%s): its report holds a transaction: %v", i, want, long)
		}
	}

	given := preset.ScenarioSpec{Scenario: sc, Engine: map[string]string{"sync": "full"}, Queries: 7}
	plans, err = given.Plans(matrix(store.List{"mattn"}, store.List{"3"}, "procs", "sync"))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range plans {
		if s, _ := result.PlanSettings(p).Get("sync"); s != "full" || p.Procs != 3 || p.Phases[0].Ops != 7 || p.Phases[0].Duration != 0 {
			t.Errorf("sync %s, procs %d, ops %d, duration %v: want what was given", s, p.Procs, p.Phases[0].Ops, p.Phases[0].Duration)
		}
	}

	for _, tt := range []struct {
		spec  preset.ScenarioSpec
		m     preset.Matrix
		error string
	}{
		{preset.ScenarioSpec{Scenario: sc, Engine: map[string]string{"journal": "rollback"}}, matrix(store.List{"mattn"}, nil, "journal"), "--journal: its cell long-reads sets it to wal itself"},
		{preset.ScenarioSpec{Scenario: sc}, matrix(store.List{"mattn"}, store.List{"1"}, "procs"), "--procs 1: scenario checkpoint-starvation needs 2 worker processes or more"},
	} {
		if _, err := tt.spec.Plans(tt.m); err == nil || !strings.Contains(err.Error(), tt.error) {
			t.Errorf("error %v, want %q", err, tt.error)
		}
	}
}

// Swapped, the pitfall's cells run the fix under the pitfall's names:
// what the test of each scenario's gates runs to see them fail.
func TestScenarioSwap(t *testing.T) {
	for _, sc := range preset.Scenarios() {
		plain, err := preset.ScenarioSpec{Scenario: sc}.Plans(matrix(store.List{"mattn"}, nil))
		if err != nil {
			t.Fatal(err)
		}
		swapped, err := preset.ScenarioSpec{Scenario: sc, Swap: true}.Plans(matrix(store.List{"mattn"}, nil))
		if err != nil {
			t.Fatal(err)
		}
		n := len(plain) / len(sc.Cases) // cells per case, in the order of the cases
		fix := 0
		for k, c := range sc.Cases {
			if c.Fix {
				fix = k
			}
		}
		for i, p := range swapped {
			c := sc.Cases[i/n]
			f := plain[fix*n+i%n]
			if p.Variant != c.Name {
				t.Errorf("%s: swapped cell %d is %s, want %s", sc.Name, i, p.Variant, c.Name)
			}
			same := slices.Equal(p.Store.Options, f.Store.Options) && sqlText(p) == sqlText(f) && p.Busy == f.Busy && p.ConnPerOp == f.ConnPerOp
			if c.Pitfall != same && !c.Fix {
				t.Errorf("%s: case %s (pitfall %v) runs the fix: %v", sc.Name, c.Name, c.Pitfall, same)
			}
		}
	}
}

func sqlText(p *workload.Plan) string {
	if p.SQL == nil {
		return ""
	}
	var b strings.Builder
	for _, s := range p.SQL.Scripts {
		b.WriteString(s.Text)
	}
	return b.String()
}

// The finding reads each figure from the cells its selector picks: the
// median of their runs, labelled by their other settings when there are
// several, n/a where there is none.
func TestScenarioFinding(t *testing.T) {
	sc := &preset.Scenario{Name: "t", Finding: `deferred {busy errors@deferred},
immediate {busy errors@immediate}, nothing {busy errors@journal=truncate}.`}
	run := func(variant, journal string, busy int64) *result.Result {
		r := &result.Result{Plan: workload.Plan{Scenario: "t", Variant: variant, Driver: "mattn",
			Store: store.Config{Settings: []store.Setting{{Name: "journal", Value: journal}}}, Phases: []workload.Phase{{Batch: 1}}}}
		r.Phases = []result.Phase{{Total: result.OpStats{Errors: result.Errors{Total: busy, Busy: busy}}}}
		return r
	}
	s, err := result.NewSuite("scenario", "interleaved", []*result.Result{
		run("deferred", "rollback", 600), run("deferred", "wal", 500), run("immediate", "rollback", 0), run("immediate", "wal", 0)}, "")
	if err != nil {
		t.Fatal(err)
	}
	want := "deferred 600 (rollback), 500 (wal), immediate 0 (rollback), 0 (wal), nothing n/a."
	if got := sc.FindingOf(s); got != want {
		t.Errorf("finding\n%s\nwant\n%s", got, want)
	}
}
