package capacity_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/gobench/gobench/pkg/bench"
	"github.com/gobench/gobench/pkg/capacity"
	"github.com/gobench/gobench/pkg/result"
	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/store/mapstore"
	"github.com/gobench/gobench/pkg/store/storetest"
	"github.com/gobench/gobench/pkg/workload"
)

// throttle serves one op per gap, in arrival order, whatever the number
// of connections: a capacity of 1/gap ops/s. An op takes service once its
// turn comes; offered more, ops queue for their turn. With slow set, every
// op takes slowFor instead (an engine whose latency leaps at a rate).
type throttle struct {
	mu      sync.Mutex
	next    time.Time
	gap     time.Duration
	service time.Duration
	slow    bool
	slowFor time.Duration
}

func (t *throttle) wait() {
	t.mu.Lock()
	now := time.Now()
	turn := t.next
	if turn.Before(now) {
		turn = now
	}
	t.next = turn.Add(t.gap)
	d := t.service
	if t.slow {
		d = t.slowFor
	}
	t.mu.Unlock()
	time.Sleep(time.Until(turn.Add(d)))
}

// throttled is a map store connection behind the throttle.
type throttled struct {
	store.Conn
	t *throttle
}

func (c throttled) Get(k uint64, dst []byte) ([]byte, error) { c.t.wait(); return c.Conn.Get(k, dst) }
func (c throttled) Put(k uint64, v []byte) error             { c.t.wait(); return c.Conn.Put(k, v) }

// runner runs each step as a library run on goroutine workers against the
// throttled engine; before a step, script sets the engine up for its rate.
func runner(t *throttle, script func(rate float64)) capacity.RunFunc {
	drv := storetest.Wrap("throttled", mapstore.Driver{}, func(c store.Conn) store.Conn { return throttled{c, t} })
	return func(ctx context.Context, rate float64, length time.Duration) (*result.Result, error) {
		p := workload.DefaultPlan()
		p.Mode, p.Procs, p.Goroutines = workload.ModeGoroutine, 1, 16
		p.Keys.Count, p.Preload = 1000, 0 // reads of keys not there: the throttle is the whole cost
		p.Phases[0].Mix = workload.Mix{{Op: workload.OpRead, Percent: 100}}
		p.Phases[0].Ops, p.Phases[0].Duration = 0, workload.Duration(length)
		p.Rate = rate
		t.mu.Lock()
		t.next = time.Time{} // each step starts with no queue, as a fresh run would
		t.mu.Unlock()
		if script != nil {
			script(rate)
		}
		return bench.Run(ctx, p, drv)
	}
}

// An engine that serves 400 ops/s (an op every 2.5 ms, 1 ms each) is
// found within the tolerance: not above its capacity by more than a
// short step's backlog can hide, and not far below it. The objective
// (p99 <= 100 ms) is 40 queue places deep, so scheduling noise of a loaded
// machine (milliseconds) cannot move the verdict; only the rate can.
func TestFindsKnownCapacity(t *testing.T) {
	if testing.Short() {
		t.Skip("runs about 15 s of open-loop steps")
	}
	const capacityRate = 400
	th := &throttle{gap: time.Second / capacityRate, service: time.Millisecond}
	obj, err := capacity.ParseObjectives("total p99 <= 100ms")
	if err != nil {
		t.Fatal(err)
	}
	c, err := capacity.Search{Objectives: obj, Step: time.Second, Run: runner(th, nil)}.Find(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	logCurve(t, c)
	if !c.Found || c.Rate < 0.8*capacityRate || c.Rate > 1.06*capacityRate {
		t.Fatalf("found %v at %.0f ops/s; want a rate within 80%%-106%% of the engine's %d ops/s", c.Found, c.Rate, capacityRate)
	}
}

// An engine whose every op takes 150 ms from 300 ops/s up (the objective
// is 100 ms) is found below 300 ops/s, and above half of it. The step
// past the jump runs long (its ops arrive faster than 16 workers at 150 ms
// each complete them), so the maximum keeps the search to one such step.
func TestFindsLatencyJump(t *testing.T) {
	if testing.Short() {
		t.Skip("runs about 15 s of open-loop steps")
	}
	const jump = 300
	th := &throttle{gap: time.Second / 2000, service: time.Millisecond, slowFor: 150 * time.Millisecond}
	obj, err := capacity.ParseObjectives("total p99 <= 100ms")
	if err != nil {
		t.Fatal(err)
	}
	s := capacity.Search{Objectives: obj, Step: time.Second, RateMax: 1200, Run: runner(th, func(rate float64) { th.slow = rate >= jump })}
	c, err := s.Find(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	logCurve(t, c)
	if !c.Found || c.Rate >= jump || c.Rate < jump/2 {
		t.Fatalf("found %v at %.0f ops/s; want a rate below the jump at %d ops/s, above half of it", c.Found, c.Rate, jump)
	}
	for _, st := range c.Steps {
		if st.Offered >= jump && st.Met {
			t.Fatalf("a step at %.0f ops/s, past the jump, was met: %+v", st.Offered, st)
		}
	}
}

func logCurve(t *testing.T, c result.CapacityCurve) {
	t.Helper()
	t.Logf("ceiling %.0f ops/s", c.Ceiling)
	for _, st := range c.Steps {
		t.Logf("offered %.0f achieved %.0f p99 %.1fms met %v confirmation %v", st.Offered, st.Achieved, st.P99Micros/1e3, st.Met, st.Confirmation)
	}
}
