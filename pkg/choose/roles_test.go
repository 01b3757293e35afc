package choose

import (
	"strings"
	"testing"

	"github.com/gobench/gobench/pkg/result"
	"github.com/gobench/gobench/pkg/workload"
)

// rolesPlan is rankPlan's three candidates running roles: three writers
// appending beside a reader.
func rolesPlan(t *testing.T, keep string, roles ...string) *Plan {
	t.Helper()
	p := rankPlan(keep)
	var rs []workload.Role
	for _, s := range roles {
		r, err := workload.ParseRole(s)
		if err != nil {
			t.Fatal(err)
		}
		rs = append(rs, r)
	}
	for _, pl := range append(p.Speed, p.Crash...) {
		pl.Roles = rs
	}
	return p
}

// roleRun is a hand-built speed run of plan p whose roles did ops/s and
// had the p99 (µs) given, by role, in the plan's order.
func roleRun(p *workload.Plan, ops, p99 []float64) *result.Result {
	total := 0.0
	for _, o := range ops {
		total += o
	}
	r := run(p, total, "3.53.4")
	for i, role := range p.Roles {
		st := result.OpStats{Kind: "total", OpsPerSec: ops[i]}
		st.Count, st.P99Micros = 1000, p99[i]
		r.Phases[0].Roles = append(r.Phases[0].Roles, result.Role{Name: role.Name, Total: st})
	}
	return r
}

// With roles, each row carries each role's ops/s (with its interval) and
// p99, and the rows and the winner's margin go by the ranking role's
// ops/s, not the total's: b's reader is the fastest of all, but a's
// writers lead, so a wins by writer ops/s; ranked by the reader, b wins.
func TestRankRoles(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		rankBy, wantKey, wantWhy, order, winner string
	}{
		{"", "writer", rankFirstWriter, "a:1 b:2 c:3", "a sync=full"},
		{"reader", "reader", rankGiven, "b:1 c:2 a:3", "b sync=full"},
	} {
		p := rolesPlan(t, KeepNone, "reader:1:read=100", "writer:3:append=100")
		key, why, err := rankKey(p.Speed[0], tt.rankBy)
		if err != nil {
			t.Fatal(err)
		}
		p.RankBy, p.RankWhy = key, why
		var speed []*result.Result
		for i := range 5 {
			f := float64(i)
			// reader, writer
			speed = append(speed, roleRun(p.Speed[0], []float64{1000 + f, 3000 + f}, []float64{50, 900}),
				roleRun(p.Speed[1], []float64{90000 + f, 1000 + f}, []float64{20, 4000}),
				roleRun(p.Speed[2], []float64{5000 + f, 500 + f}, []float64{30, 7000}))
		}
		ch := Rank(p, Measured{Speed: speed})
		var got []string
		for _, r := range ch.Rows {
			got = append(got, r.Driver+":"+string(rune('0'+r.Rank)))
		}
		if ch.RankBy != tt.wantKey || ch.RankWhy != tt.wantWhy || strings.Join(got, " ") != tt.order || ch.Winner != tt.winner {
			t.Errorf("--rank-by %q: ranked by %q (%s), rows %v, winner %q", tt.rankBy, ch.RankBy, ch.RankWhy, got, ch.Winner)
		}
		// The margin is the ratio of the ranking role's medians.
		w, _ := ch.Rows[0].Role(key)
		s, _ := ch.Rows[1].Role(key)
		if ch.Margin == nil || ch.Margin.Ratio != w.OpsPerSec/s.OpsPerSec || !ch.Margin.Significant {
			t.Errorf("--rank-by %q: margin %+v, want %v/%v", tt.rankBy, ch.Margin, w.OpsPerSec, s.OpsPerSec)
		}
		for _, r := range ch.Rows {
			rd, okR := r.Role("reader")
			wr, okW := r.Role("writer")
			if !okR || !okW || len(r.Roles) != 2 || r.Roles[0].Name != "reader" || rd.Confidence == 0 || rd.Low > rd.OpsPerSec || rd.High < rd.OpsPerSec ||
				rd.OpsPerSec+wr.OpsPerSec != r.OpsPerSec || rd.P99 == 0 || wr.P99 == 0 {
				t.Errorf("%s: roles %+v, total %v", r.Name(), r.Roles, r.OpsPerSec)
			}
		}
	}
}

// The ranking key: the role --rank-by names; by default the first role
// that writes in closed loop (a role held to a rate does what it is
// told), else the first closed-loop role, else the first; none without
// roles. A role the workload lacks,
// or --rank-by without roles, is refused naming the roles.
func TestRankKey(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		roles         []string
		given         string
		want, wantWhy string
		wantErr       string
	}{
		{roles: []string{"reader:1:read=100", "logger:1:append=100@50", "writer:2:upsert=50,read=50"}, want: "writer", wantWhy: rankFirstWriter},
		{roles: []string{"a:1:read=100", "b:1:append=100@10"}, want: "a", wantWhy: rankFirstClosed},
		{roles: []string{"b:1:append=100@10", "a:1:read=100"}, want: "a", wantWhy: rankFirstClosed},
		{roles: []string{"b:1:append=100@10", "a:1:read=100@20"}, want: "b", wantWhy: rankFirstRole},
		{roles: []string{"reader:1:read=100", "writer:2:append=100"}, given: "reader", want: "reader", wantWhy: rankGiven},
		{},
		{roles: []string{"reader:1:read=100", "writer:2:append=100"}, given: "loader", wantErr: "--rank-by loader: no such role (the roles: reader, writer)"},
		{given: "writer", wantErr: "--rank-by writer: the workload has no roles"},
	} {
		p := rolesPlan(t, KeepNone, tt.roles...)
		got, why, err := rankKey(p.Speed[0], tt.given)
		switch {
		case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
			t.Errorf("%v --rank-by %q: error %v, want %q", tt.roles, tt.given, err, tt.wantErr)
		case tt.wantErr == "" && (err != nil || got != tt.want || why != tt.wantWhy):
			t.Errorf("%v --rank-by %q: %q (%s), %v; want %q (%s)", tt.roles, tt.given, got, why, err, tt.want, tt.wantWhy)
		}
	}
}
