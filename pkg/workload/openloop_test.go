package workload

import (
	"math"
	"slices"
	"strings"
	"testing"
	"time"
)

func openPlan(workers int, rate float64) *Plan {
	p := testPlan(workers)
	p.Rate = rate
	return p
}

// A schedule is a function of the plan, phase and worker: evenly spaced
// at workers/rate, each worker starting at its own offset within the
// first gap; Poisson gaps average the same.
func TestSchedule(t *testing.T) {
	t.Parallel()
	p := openPlan(4, 4000) // 1000 ops/s per worker: a 1 ms gap
	dues := func(p *Plan, worker, n int) []int64 {
		s := newSchedule(p, 0, worker)
		out := make([]int64, n)
		for i := range out {
			out[i] = s.Next()
		}
		return out
	}
	a := dues(p, 0, 1000)
	if !slices.Equal(a, dues(p, 0, 1000)) {
		t.Fatal("the schedule is not a function of the plan and worker")
	}
	if a[0] < 0 || a[0] >= int64(time.Millisecond) {
		t.Errorf("first due %d ns, want within the first 1 ms gap", a[0])
	}
	for i := 1; i < len(a); i++ {
		if g := a[i] - a[i-1]; g < int64(time.Millisecond)-1 || g > int64(time.Millisecond)+1 {
			t.Fatalf("gap %d = %d ns, want 1 ms", i, g)
		}
	}
	if b := dues(p, 1, 1); b[0] == a[0] {
		t.Error("two workers start at the same offset")
	}
	p.Arrival = ArrivalPoisson
	c := dues(p, 0, 20000)
	mean := float64(c[len(c)-1]-c[0]) / float64(len(c)-1)
	if math.Abs(mean-1e6)/1e6 > 0.03 {
		t.Errorf("Poisson mean gap %.0f ns, want 1 ms ± 3%%", mean)
	}
	var sq float64
	for i := 1; i < len(c); i++ {
		d := float64(c[i]-c[i-1]) - mean
		sq += d * d
	}
	if sd := math.Sqrt(sq / float64(len(c)-2)); math.Abs(sd-mean)/mean > 0.05 {
		t.Errorf("Poisson gaps: sd %.0f ns, want about the mean %.0f (exponential)", sd, mean)
	}
}

func TestOpenLoopValidate(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		mutate func(*Plan)
		want   string
	}{
		{func(p *Plan) { p.Rate = -1 }, "rate -1 is out of range"},
		{func(p *Plan) { p.Rate, p.Arrival = 100, "bursty" }, "unknown arrival process"},
		{func(p *Plan) { p.Arrival = ArrivalPoisson }, "set a rate"},
		{func(p *Plan) { p.Rate, p.SkipLate = 100, true }, "positive latency limit"},
		{func(p *Plan) { p.Rate = 100; p.Phases[0].Batch = 10 }, "want batch 1"},
		{func(p *Plan) { p.Rate = 100; p.Phases = CRUD(1, OrderRandom, 1, false) }, "open-loop rates apply to lottery phases"},
		{func(p *Plan) { p.Busy = "sometimes" }, "unknown busy policy"},
		{func(p *Plan) { p.Busy = BusyRetry }, "busy budget 0s is out of range"},
		{func(p *Plan) { p.BusyBudget = Duration(time.Second) }, "applies to the retry policy"},
	} {
		p := testPlan(1)
		tt.mutate(p)
		if err := p.Validate(); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%v, want %q", err, tt.want)
		}
	}
}
