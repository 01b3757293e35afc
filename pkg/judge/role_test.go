package judge

import (
	"strings"
	"testing"

	"github.com/gobench/gobench/pkg/result"
	"github.com/gobench/gobench/pkg/workload"
)

// A role's figure is "ROLE KIND STAT": it parses, reads the role's own
// ops from a run with roles, and is refused, naming the roles, where no
// run has that role or the role deals no such kind.
func TestRoleMetric(t *testing.T) {
	r, err := result.Read(openFixture(t, "mix-roles.json"))
	if err != nil {
		t.Fatal(err)
	}
	ph := &r.Phases[0]
	reader, _ := ph.Roles[1].Op("read")
	writers, _ := ph.Roles[0].Op("total")
	for _, tt := range []struct {
		name, kind string
		want       float64
	}{
		{"reader read p99", "reader read", reader.P99Micros},
		{"writer total ops/s", "writer total", writers.OpsPerSec},
	} {
		m, err := ParseMetric(tt.name)
		if err != nil || m.Kind != tt.kind || m.String() != tt.name {
			t.Fatalf("%s: %+v, %v", tt.name, m, err)
		}
		if v, ok := m.Value(r); !ok || v != tt.want || v == 0 {
			t.Errorf("%s = %v, %v; want %v", tt.name, v, ok, tt.want)
		}
	}
	suite := &result.Suite{Cells: []result.Cell{{Runs: []*result.Result{r}}}}
	for _, tt := range []struct{ gate, err string }{
		{"readr read p99 <= 5ms", `"readr" is no role of these runs (their roles: reader, writer)`},
	} {
		e, err := ParseExpectation(tt.gate)
		if err == nil {
			err = e.Metric.checkKind(suite)
		}
		if err == nil || !strings.Contains(err.Error(), tt.err) {
			t.Errorf("%s: %v, want %q", tt.gate, err, tt.err)
		}
	}
	e, err := ParseExpectation("reader read p90 <= 1s")
	if err != nil {
		t.Fatal(err)
	}
	if got := PlanSizes([]*workload.Plan{&r.Plan}, []Expectation{e}); len(got) != 1 || !strings.Contains(got[0], "the plan gives 360") {
		t.Errorf("plan sizes %q: want the reader's 90%% of its 400 ops", got)
	}
	if err := (Metric{Kind: "reader append", Stat: "p99"}).producedBy(&r.Plan, false); err == nil || !strings.Contains(err.Error(), "role reader deals no append") {
		t.Errorf("reader append: %v", err)
	}
}
