package coord

import (
	"context"
	"testing"
	"time"

	hdr "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/gobench/gobench/pkg/result"
	"github.com/gobench/gobench/pkg/store/all"
	"github.com/gobench/gobench/pkg/workload"
)

// The slowread engine stalls its stallAt-th read for stall.
const (
	stallAt = 300
	stall   = 200 * time.Millisecond
)

// atLeast counts a histogram's values at or above v nanoseconds.
func atLeast(t *testing.T, l result.Latency, v int64) int64 {
	t.Helper()
	h, err := hdr.Decode([]byte(l.Histogram))
	if err != nil {
		t.Fatal(err)
	}
	var n int64
	for _, b := range h.Distribution() {
		if b.From >= v {
			n += b.Count
		}
	}
	return n
}

// One 200 ms stall, in a worker process reading at 1000 ops/s open loop:
// every op due during the stall waits for it, through the real process,
// pipe and coordinator path. The exact figures are pkg/workload's test on
// a virtual clock; here a busy machine can only delay more ops, never
// fewer, so the checks are the bounds the stall sets whatever the load:
// at least the 100 ops due in the stall's first half, and the stalled op,
// wait 100 ms or more from their due time (so the p99 from the due time
// is over 100 ms), the stalled op's own service time is that long too,
// and the longest lag is most of the stall. Closed loop, the stalled op
// is recorded and the run has no open-loop views.
func TestOpenLoopCountsStalls(t *testing.T) {
	t.Parallel()
	plan := func(rate float64) *workload.Plan {
		p := nullPlan(1, 1, 1000)
		p.Driver = "faulty"
		p.Keys.Count, p.Preload = 1000, 0
		p.Phases[0].Mix = workload.Mix{{Op: workload.OpRead, Percent: 100}}
		p.Rate = rate
		return p
	}
	reg := all.Registry()
	reg.Register(faulty("slowread"))
	runSlow := func(p *workload.Plan) result.OpStats {
		res, err := Run(context.Background(), Config{Plan: p, Registry: reg, Command: helper("slowread"), ReadyTimeout: 30 * time.Second})
		if err != nil {
			t.Fatal(err)
		}
		read, ok := res.Phases[0].Op("read")
		if !ok || read.Count != 1000 {
			t.Fatalf("read %+v", read)
		}
		return read
	}
	const affected = int64(stall/time.Millisecond) / 2 // ops due in the stall's first half, at 1 op/ms
	half, slow := int64(stall/2), int64(2*time.Millisecond)

	open := runSlow(plan(1000))
	if open.Service == nil || open.Lag == nil {
		t.Fatal("an open-loop run without service time or lag")
	}
	corrected := atLeast(t, latencyOf(open), half)
	t.Logf("open loop: %d ops ≥ 100 ms and %d ≥ 2 ms from their due time; p99 %.0f µs from the due time, %.1f µs of service; max lag %.0f µs",
		corrected, atLeast(t, latencyOf(open), slow), open.P99Micros, open.Service.P99Micros, open.Lag.MaxMicros)
	if corrected < affected+1 {
		t.Errorf("open loop: %d ops took 100 ms or more from their due time, want at least %d", corrected, affected+1)
	}
	if n := atLeast(t, *open.Service, half); n < 1 {
		t.Errorf("open loop: no op took 100 ms or more of service time: the stalled one is missing")
	}
	if open.P99Micros < 100_000 {
		t.Errorf("open loop: corrected p99 %v µs, want over the 100 ms that more than 1%% of the ops waited", open.P99Micros)
	}
	if open.MaxMicros < 200_000 || open.Lag.MaxMicros < 150_000 {
		t.Errorf("open loop: max %v µs, lag max %v µs", open.MaxMicros, open.Lag.MaxMicros)
	}

	closed := runSlow(plan(0))
	if closed.Service != nil || closed.Lag != nil {
		t.Fatal("a closed-loop run with open-loop views")
	}
	t.Logf("closed loop: p99 %.1f µs, max %.0f µs", closed.P99Micros, closed.MaxMicros)
	if closed.MaxMicros < 200_000 {
		t.Errorf("closed loop: max %v µs, want the stalled op's 200 ms", closed.MaxMicros)
	}
}

func latencyOf(o result.OpStats) result.Latency {
	return result.Latency{Count: o.Count, Histogram: o.Histogram}
}
