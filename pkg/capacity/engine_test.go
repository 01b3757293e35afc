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
// turn comes; offered more, ops queue for their turn. A late goroutine
// only widens the gaps: nothing can make it serve faster.
type throttle struct {
	mu      sync.Mutex
	next    time.Time
	gap     time.Duration
	service time.Duration
}

func (t *throttle) wait() {
	t.mu.Lock()
	now := time.Now()
	turn := t.next
	if turn.Before(now) {
		turn = now
	}
	t.next = turn.Add(t.gap)
	t.mu.Unlock()
	time.Sleep(time.Until(turn.Add(t.service)))
}

// throttled is a map store connection behind the throttle.
type throttled struct {
	store.Conn
	t *throttle
}

func (c throttled) Get(k uint64, dst []byte) ([]byte, error) { c.t.wait(); return c.Conn.Get(k, dst) }
func (c throttled) Put(k uint64, v []byte) error             { c.t.wait(); return c.Conn.Put(k, v) }

// runner runs each step as a library run on goroutine workers against the
// throttled engine.
func runner(t *throttle) capacity.RunFunc {
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
		return bench.Run(ctx, p, drv)
	}
}

// A real search, end to end (library runs of real goroutine workers in
// open loop, their results judged), against an engine that serves 400
// ops/s, bounded at four times that so that steps go past it. The search
// against a model (TestFind) checks where a search lands; here a loaded
// machine's stalls can only make steps slower and the rate found lower,
// so what is asserted is what load cannot move: no step offered more than
// the engine can complete is met (the achieved rate gives it away,
// whatever its latency); the rate found is no higher than a
// confirmation's backlog allows (at 6% over capacity, 3 s of steps queue
// 180 ms, past the 100 ms objective). A machine so loaded that no step
// reached the capacity, or no rate was met, cannot test either: the test
// skips, saying so, rather than pass.
func TestFindsKnownCapacity(t *testing.T) {
	if testing.Short() {
		t.Skip("runs about 15 s of open-loop steps")
	}
	t.Parallel()
	const capacityRate = 400
	th := &throttle{gap: time.Second / capacityRate, service: time.Millisecond}
	obj, err := capacity.ParseObjectives("total p99 <= 100ms")
	if err != nil {
		t.Fatal(err)
	}
	c, err := capacity.Search{Objectives: obj, Step: time.Second, RateMax: 4 * capacityRate, Run: runner(th)}.Find(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, st := range c.Steps {
		t.Logf("offered %.0f achieved %.0f p99 %.1fms met %v confirmation %v", st.Offered, st.Achieved, st.P99Micros/1e3, st.Met, st.Confirmation)
	}
	// One op at once, then one per gap: over a step of s seconds at most
	// capacity + 1/s ops/s.
	most, past := capacityRate+1.0, 0
	for _, st := range c.Steps {
		if st.Offered > most/capacity.DefaultMinAchieved {
			past++
			if st.Met {
				t.Errorf("a step at %.0f ops/s was met: the engine completes at most %.0f", st.Offered, most)
			}
		}
	}
	if c.Found && c.Rate > 1.06*capacityRate {
		t.Fatalf("found %.0f ops/s; want a rate no higher than 106%% of the engine's %d ops/s", c.Rate, capacityRate)
	}
	if past == 0 || !c.Found {
		// Stalls of this machine's other work held every step's latency
		// above the objective below the capacity: the search never met
		// the rates the checks above are about. Not a pass.
		t.Skipf("this machine was too loaded to test the search at capacity (steps past it: %d; found: %v)", past, c.Found)
	}
	t.Logf("found %.0f ops/s: %.0f%% of the engine's capacity", c.Rate, 100*c.Rate/capacityRate)
}
