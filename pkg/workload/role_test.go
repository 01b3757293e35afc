package workload

import (
	"strings"
	"testing"
)

func TestParseRole(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want string // the role's text form, or "" when refused
		err  string
	}{
		{in: "writer:3:append=100", want: "writer:3:append=100"},
		{in: "reader:2:read=90,upsert=10@500", want: "reader:2:read=90,upsert=10@500"},
		{in: "bg-job_1:1:upsert=50,read=50@0.5", want: "bg-job_1:1:read=50,upsert=50@0.5"},
		{in: "reader:1:latest=50,scan=50", want: "reader:1:scan=50,latest=50"},
		{in: "latest:1:latest=100", err: "an op kind's"},
		{in: "writer:3", err: "want NAME:COUNT:MIX"},
		{in: "writer", err: "want NAME:COUNT:MIX"},
		{in: ":3:read=100", err: "role name"},
		{in: "1st:3:read=100", err: "role name"},
		{in: "a b:3:read=100", err: "role name"},
		{in: "read:3:read=100", err: "an op kind's"},
		{in: "total:3:read=100", err: "an op kind's"},
		{in: "writer:x:read=100", err: "not a whole number"},
		{in: "writer:0:read=100", err: "out of range"},
		{in: "writer:-2:read=100", err: "out of range"},
		{in: "writer:2:read=90", err: "sums to 90"},
		{in: "writer:2:insert=100", err: "cannot be dealt by a role's mix"},
		{in: "writer:2:read=100@", err: "not a number"},
		{in: "writer:2:read=100@fast", err: "not a number"},
		{in: "writer:2:read=100@0", err: "not positive"},
		{in: "writer:2:read=100@-5", err: "not positive"},
		{in: "writer:2:read=100@1e20", err: "not a number"},
		{in: "writer:2:read=100@2000000000", err: "out of range"},
	} {
		r, err := ParseRole(tt.in)
		switch {
		case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)):
			t.Errorf("ParseRole(%q) = %v, %v; want an error with %q", tt.in, r, err, tt.err)
		case tt.err == "" && err != nil:
			t.Errorf("ParseRole(%q): %v", tt.in, err)
		case tt.err == "" && r.String() != tt.want:
			t.Errorf("ParseRole(%q) = %s, want %s", tt.in, r, tt.want)
		}
	}
}

// A plan's roles take consecutive worker ids, deal their own mixes and
// rates, and its phase holds their mix over all workers.
func TestRolesPlan(t *testing.T) {
	var rs Roles
	for _, s := range []string{"writer:3:append=100", "reader:1:read=90,upsert=10@200"} {
		if err := rs.Set(s); err != nil {
			t.Fatal(err)
		}
	}
	p := DefaultPlan()
	p.Driver, p.Procs, p.Roles = "null", rs.Workers(), rs
	p.Phases[0].Mix = RolesMix(rs)
	if err := p.Validate(); err != nil {
		t.Fatal(err)
	}
	if got, want := p.Phases[0].Mix.String(), "read=22.5,upsert=2.5,append=75"; got != want {
		t.Errorf("roles' mix %s, want %s", got, want)
	}
	for w, want := range []int{0, 0, 0, 1} {
		if got := p.RoleOf(w); got != want {
			t.Errorf("worker %d: role %d, want %d", w, got, want)
		}
	}
	if got := p.MixOf(&p.Phases[0], 3).String(); got != "read=90,upsert=10" {
		t.Errorf("worker 3 deals %s", got)
	}
	if p.RateOf(0) != 0 || p.RateOf(3) != 200 || !p.Timed() {
		t.Errorf("rates %v and %v, timed %v; want the writers closed loop, the reader at 200/s", p.RateOf(0), p.RateOf(3), p.Timed())
	}
	for _, tt := range []struct {
		name   string
		change func(*Plan)
		err    string
	}{
		{"workers differ", func(p *Plan) { p.Procs = 5 }, "the roles have 4 workers, the plan 5"},
		{"phase mix not the roles'", func(p *Plan) { p.Phases[0].Mix = DefaultMix() }, "not its roles' mix"},
		{"plan rate too", func(p *Plan) { p.Rate = 100 }, "give each role its own rate"},
		{"same name twice", func(p *Plan) { p.Roles = []Role{rs[0], rs[0]}; p.Procs = 6 }, "named twice"},
	} {
		q := p
		q.Roles = append([]Role(nil), p.Roles...)
		q.Phases = append([]Phase(nil), p.Phases...)
		tt.change(&q)
		if err := q.Validate(); err == nil || !strings.Contains(err.Error(), tt.err) {
			t.Errorf("%s: %v, want an error with %q", tt.name, err, tt.err)
		}
	}
}

// The roles' mix is exact where the shares allow, sums to 100 in steps
// of MixResolution and keeps every op a role deals.
func TestRolesMix(t *testing.T) {
	for _, tt := range []struct {
		roles []string
		want  string
	}{
		{[]string{"a:1:read=100", "b:1:upsert=100"}, "read=50,upsert=50"},
		{[]string{"a:2:read=100", "b:1:append=100"}, "read=66.6667,append=33.3333"},
		{[]string{"a:65535:read=100", "b:1:delete=0.0001,read=99.9999"}, "read=99.9999,delete=0.0001"},
	} {
		var rs Roles
		for _, s := range tt.roles {
			if err := rs.Set(s); err != nil {
				t.Fatal(err)
			}
		}
		m := RolesMix(rs)
		if m.String() != tt.want || m.Validate() != nil {
			t.Errorf("%v: %s (%v), want %s", tt.roles, m, m.Validate(), tt.want)
		}
	}
}

// A role that reads the latest appends needs a role that appends (its
// own or another's): the plan without one is refused in one line.
func TestLatestRoleNeedsAnAppender(t *testing.T) {
	for _, tt := range []struct {
		roles []string
		err   string
	}{
		{[]string{"writer:2:append=100", "reader:1:latest=50,scan=50"}, ""},
		{[]string{"both:1:append=10,latest=90"}, ""},
		{[]string{"writer:2:upsert=100", "reader:1:latest=100"}, "no phase of the plan appends"},
		{[]string{"reader:1:latest=50,read=50"}, "no phase of the plan appends"},
	} {
		var rs Roles
		for _, s := range tt.roles {
			if err := rs.Set(s); err != nil {
				t.Fatal(err)
			}
		}
		p := DefaultPlan()
		p.Driver, p.Procs, p.Roles = "null", rs.Workers(), rs
		p.Phases[0].Mix = RolesMix(rs)
		err := p.Validate()
		switch {
		case tt.err == "" && err != nil:
			t.Errorf("%v: %v", tt.roles, err)
		case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err) || strings.Contains(err.Error(), "\n")):
			t.Errorf("%v: %v, want one line with %q", tt.roles, err, tt.err)
		}
	}
}
