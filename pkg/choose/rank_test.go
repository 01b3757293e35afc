package choose

import (
	"strings"
	"testing"
	"time"

	"github.com/gobench/gobench/pkg/preset"
	"github.com/gobench/gobench/pkg/result"
	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/workload"
)

// run is a hand-built run of plan p: its total ops/s and engine version.
func run(p *workload.Plan, ops float64, version string) *result.Result {
	r := &result.Result{Plan: *p, Complete: true}
	r.Phases = []result.Phase{{Total: result.OpStats{Kind: "total", OpsPerSec: ops}}}
	r.Environment.Store = []store.Fact{{Name: store.FactEngine, Value: "SQLite " + version}, {Name: "sqlite_version", Value: version}}
	return r
}

// cut is a hand-built power-cut run of plan p: states cuts, lossy of them
// losing lost writes at most.
func cut(p *workload.Plan, states, lossy int, lost int64) *result.Result {
	r := run(p, 1, "3.53.4")
	r.Durability = &result.Durability{States: states, Lossy: lossy, MaxLost: lost}
	return r
}

// rankPlan is a plan of three hand-named candidates, as Build would give.
func rankPlan(keep string) *Plan {
	p := &Plan{Spec: Spec{Workload: Mix{Spec: preset.DefaultMixSpec()}, Keep: keep, Budget: time.Minute}, Size: Sizing{Repeats: 5, Cuts: 10}}
	for _, d := range []string{"a", "b", "c"} {
		p.Candidates = append(p.Candidates, Candidate{Driver: d, Flags: []Flag{{"sync", "full"}}})
		pl := workload.DefaultPlan()
		pl.Driver = d
		pl.Store.Settings = []store.Setting{{Name: "sync", Value: "full"}}
		cr := pl
		p.Speed, p.Crash = append(p.Speed, &pl), append(p.Crash, &cr)
	}
	base := workload.DefaultPlan()
	base.Driver = BaselineDriver
	p.Baseline = &base
	return p
}

// The rows that kept the promise are ranked by median ops/s; the fastest
// of all lost a write at a power cut and is listed unranked with what it
// lost; the winner's margin over the runner-up comes with the interval
// of the ratio, significant where the runs lie apart.
func TestRank(t *testing.T) {
	t.Parallel()
	p := rankPlan(KeepAcked)
	a, b, c := p.Speed[0], p.Speed[1], p.Speed[2]
	var speed []*result.Result
	for i := range 5 {
		f := float64(i)
		speed = append(speed, run(a, 1000+f, "3.53.4"), run(b, 2000+f, "3.54.1"), run(c, 9000+f, "3.53.4"))
	}
	crash := []*result.Result{cut(p.Crash[2], 10, 2, 7), cut(p.Crash[0], 10, 0, 0), cut(p.Crash[1], 10, 0, 0)}
	ch := Rank(p, Measured{Speed: speed, Crash: crash})
	var got []string
	for _, r := range ch.Rows {
		got = append(got, r.Driver+":"+string(rune('0'+r.Rank)))
	}
	if strings.Join(got, " ") != "b:1 a:2 c:0" {
		t.Errorf("rows %v", got)
	}
	if ch.Winner != "b sync=full" || ch.Margin == nil || ch.Margin.RunnerUp != "a sync=full" || !ch.Margin.Significant || ch.Margin.Ratio < 1.9 {
		t.Errorf("winner %q margin %+v", ch.Winner, ch.Margin)
	}
	lost := ch.Rows[2]
	if lost.Rank != 0 || lost.Lossy != 2 || lost.Lost != 7 || !strings.Contains(lost.Why, "lost acknowledged writes in 2 of 10 power cuts (at most 7 in one)") {
		t.Errorf("the row that lost writes: %+v", lost)
	}
	if ch.Rows[0].Confidence == 0 || ch.Rows[0].Low > ch.Rows[0].OpsPerSec || ch.Rows[0].High < ch.Rows[0].OpsPerSec {
		t.Errorf("the winner's interval: %+v", ch.Rows[0])
	}
	if len(ch.Notes) != 1 || !strings.Contains(ch.Notes[0], "drivers carry different SQLite versions: a 3.53.4, b 3.54.1, c 3.53.4") {
		t.Errorf("notes %q", ch.Notes)
	}
}

// A row with no power-cut run is not ranked under KeepAcked, and says
// so; under a promise that is not about power cuts nothing is cut and
// every row with speed runs is ranked; a lone ranked row wins with no
// margin.
func TestRankUncut(t *testing.T) {
	t.Parallel()
	p := rankPlan(KeepAcked)
	speed := []*result.Result{run(p.Speed[0], 10, "1"), run(p.Speed[1], 20, "1")}
	ch := Rank(p, Measured{Speed: speed, Crash: []*result.Result{cut(p.Crash[0], 10, 0, 0)}, Failed: map[string]string{"c sync=full": "busy"}})
	if ch.Winner != "a sync=full" || ch.Margin != nil || ch.Rows[1].Why != "no power-cut run" || ch.Rows[2].Why != "no complete speed run: busy" {
		t.Errorf("winner %q margin %v rows %+v", ch.Winner, ch.Margin, ch.Rows)
	}
	p = rankPlan(KeepNone)
	ch = Rank(p, Measured{Speed: speed})
	if ch.Winner != "b sync=full" || ch.Rows[0].CutNote != "not cut (none)" || ch.Rows[2].Why != "no complete speed run" {
		t.Errorf("none: winner %q rows %+v", ch.Winner, ch.Rows)
	}
	if ch.Margin == nil || ch.Margin.Significant || ch.Margin.Confidence != 0 {
		t.Errorf("one run a side: margin %+v, want a ratio with no interval", ch.Margin)
	}
}

// An answer with power-cut runs but no speed run (interrupted among the
// cuts) names the build and machine the cuts ran on: the header read
// "took 3s · " with no tool.
func TestRankNoSpeedRun(t *testing.T) {
	t.Parallel()
	p := rankPlan(KeepAcked)
	c := cut(p.Crash[0], 10, 0, 0)
	c.Tool, c.Environment.CPUModel = result.Tool{Name: "gobench", Version: "v1.2.3"}, "a CPU"
	ch := Rank(p, Measured{Crash: []*result.Result{c}})
	if ch.Tool.Name != "gobench" || ch.Tool.Version != "v1.2.3" || ch.Machine != "a CPU" {
		t.Errorf("tool %+v machine %q", ch.Tool, ch.Machine)
	}
	if ch.Winner != "" || ch.Rows[0].Rank != 0 {
		t.Errorf("winner %q rows %+v", ch.Winner, ch.Rows)
	}
}
