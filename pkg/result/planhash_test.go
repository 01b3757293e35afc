package result

import (
	"testing"
	"time"
)

// PlanHash keys a results history's series: the cells of one matrix
// (other settings, other paths) share it, and runs of another workload
// or command do not.
func TestPlanHash(t *testing.T) {
	t.Parallel()
	base := fakeRun(t, "wal", "full", 1, 10, time.Microsecond)
	other := func(f func(r *Result)) *Result {
		r := fakeRun(t, "wal", "full", 1, 10, time.Microsecond)
		f(r)
		return r
	}
	cases := []struct {
		name string
		r    *Result
		same bool
	}{
		{"another cell of the matrix", fakeRun(t, "rollback", "normal", 4, 10, time.Millisecond), true},
		{"another database path", other(func(r *Result) { r.Plan.Store.Path = "/elsewhere/db" }), true},
		{"another seed", other(func(r *Result) { r.Plan.Seed = 9 }), false},
		{"another command", other(func(r *Result) { r.Command = "crud" }), false},
	}
	for _, c := range cases {
		if got := PlanHash(c.r) == PlanHash(base); got != c.same {
			t.Errorf("%s: same plan hash %v, want %v", c.name, got, c.same)
		}
	}
	if len(PlanHash(base)) != 64 {
		t.Errorf("plan hash %q is not a SHA-256 in hex", PlanHash(base))
	}
}
