package replay

import (
	"strings"
	"testing"

	"github.com/gobench/gobench/pkg/workload"
)

// tracePlan returns a plan that replays a trace of two statement kinds
// on one worker, at speed, valid.
func tracePlan(speed float64) workload.Plan {
	p := workload.DefaultPlan()
	p.Driver, p.Preload = "sqlite", 0
	p.Phases = []workload.Phase{{Name: "replay", Batch: 1, Ops: 3, Mix: workload.Mix{{Op: workload.StatementOp(0), Percent: 1}, {Op: workload.StatementOp(1), Percent: 1}}}}
	p.Replay = &workload.Replay{
		Trace: "/t.trace", Database: "/a.db", Order: workload.ReplayRace, Speed: speed, Procs: 1,
		Kinds:   []workload.ReplayKind{{Op: workload.StatementOp(0), ID: "select t"}, {Op: workload.StatementOp(1), ID: "insert t"}},
		Workers: []workload.ReplayWorker{{Stream: 1, Statements: 3}},
	}
	return p
}

// TestPlanSource: a plan that replays a trace has this package's source
// (registered when it is linked) as its source: it deals the trace's
// statement kinds, named by their IDs, which are the run's data; its ops
// are the capture's; it has work around the run; it is timed at a speed,
// not back to back. A plan that replays nothing has none of these.
func TestPlanSource(t *testing.T) {
	p := tracePlan(2)
	if err := p.Validate(); err != nil {
		t.Fatalf("a replay's plan is refused: %v", err)
	}
	if got := p.Source(&p.Phases[0]).Name(); got != "trace" {
		t.Errorf("source %q, want the trace", got)
	}
	if names := p.OpNames(); names[workload.StatementOp(1)] != "insert t" {
		t.Errorf("statement#1 is named %q, want its kind's ID", names[workload.StatementOp(1)])
	}
	if !p.IsDataKind("insert t") || p.IsDataKind("update t") {
		t.Error("a replay's data kinds are not its statements' kinds")
	}
	if !p.Recorded() || p.Around() == nil || !p.Timed() {
		t.Errorf("recorded %v, work around the run %v, timed %v: want all", p.Recorded(), p.Around() != nil, p.Timed())
	}
	if !strings.Contains(p.Describe(false), "trace t.trace · database /a.db · 0 statements on 1 connection · speed 2x") {
		t.Errorf("described as %q", p.Describe(false))
	}
	if p := tracePlan(0); p.Timed() {
		t.Error("a replay back to back is timed")
	}
	mix := workload.DefaultPlan()
	if mix.Recorded() || mix.Around() != nil || mix.Source(&mix.Phases[0]).Name() != "lottery" {
		t.Error("a plan that replays nothing takes the replay's source")
	}
}

// TestPlanSourceChecks: Validate runs the replay's own checks, which
// refuse what a replay cannot run; a plan that replays nothing deals no
// statement.
func TestPlanSourceChecks(t *testing.T) {
	for _, tt := range []struct {
		change func(p *workload.Plan)
		want   string
	}{
		{func(p *workload.Plan) { p.Preload = 10 }, "runs the trace's statements alone"},
		{func(p *workload.Plan) { p.Replay.Order = "sideways" }, `unknown order "sideways"`},
		{func(p *workload.Plan) { p.Replay.Trace = "t.trace" }, "is not absolute"},
		{func(p *workload.Plan) { p.Phases[0].Mix[1].Op = workload.StatementOp(5) }, "not one of the replay's 2 statement kinds"},
		{func(p *workload.Plan) { p.Replay = nil }, "the plan replays no trace"},
	} {
		p := tracePlan(0)
		tt.change(&p)
		if err := p.Validate(); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%v, want %q", err, tt.want)
		}
	}
}
