package deal

import (
	"math"
	"slices"
	"testing"
	"time"

	"github.com/gobench/gobench/pkg/workload"
)

func openPlan(workers int, rate float64) *workload.Plan {
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
	dues := func(p *workload.Plan, worker, n int) []int64 {
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
	p.Arrival = workload.ArrivalPoisson
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
