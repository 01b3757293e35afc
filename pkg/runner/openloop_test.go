package runner

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/gobench/gobench/pkg/deal"
	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/store/nullstore"
	"github.com/gobench/gobench/pkg/store/storetest"
	"github.com/gobench/gobench/pkg/workload"
)

type captured struct {
	mu      sync.Mutex
	samples map[int][]workload.Sample
}

func (c *captured) Sink(w, _ int) workload.Sink { return &capSink{c: c, w: w} }

type capSink struct {
	c *captured
	w int
}

func (s *capSink) Record(smp workload.Sample) error {
	s.c.mu.Lock()
	defer s.c.mu.Unlock()
	s.c.samples[s.w] = append(s.c.samples[s.w], smp)
	return nil
}

func (s *capSink) Done(workload.WorkerStats) error { return nil }

// An open-loop run starts ops at their due times: each sample's start is
// its due offset (an op begun early would start before it, and fail
// this), its latency counts from there, and the op sequence is the closed
// loop's.
func TestOpenLoopRun(t *testing.T) {
	t.Parallel()
	p := openPlan(2, 2000)
	p.Phases[0].Ops = 200
	c := &captured{samples: map[int][]workload.Sample{}}
	if err := Run(context.Background(), p, nullstore.Driver{}, c); err != nil {
		t.Fatal(err)
	}
	for w := range 2 {
		s := deal.NewSchedule(p, 0, w)
		got := c.samples[w]
		want := dealOps(p, 0, w, 200)
		if len(got) != 200 {
			t.Fatalf("worker %d: %d samples", w, len(got))
		}
		for i, smp := range got {
			if due := time.Duration(s.Next()); smp.Start != due {
				t.Fatalf("worker %d op %d: start %v, want its due offset %v", w, i, smp.Start, due)
			}
			if smp.Op != want[i].op || smp.Lag < 0 || smp.Latency < smp.Lag {
				t.Fatalf("worker %d op %d: %+v", w, i, smp)
			}
		}
	}
}

// With a latency limit and SkipLate, ops that begin too late are skipped
// and counted; without SkipLate they run, flagged late.
func TestLateOps(t *testing.T) {
	t.Parallel()
	for _, skip := range []bool{false, true} {
		p := openPlan(1, 10000) // a 100 µs gap
		p.Phases[0].Ops = 300
		p.LatencyLimit = workload.Duration(5 * time.Millisecond)
		p.SkipLate = skip
		c := &captured{samples: map[int][]workload.Sample{}}
		drv := slowDriver{every: 100, pause: 20 * time.Millisecond}.driver()
		p.Driver = drv.Name()
		if err := Run(context.Background(), p, drv, c); err != nil {
			t.Fatal(err)
		}
		var late, skipped int
		for _, smp := range c.samples[0] {
			if smp.Flags&workload.FlagLate != 0 {
				late++
				if smp.Lag <= 5*time.Millisecond {
					t.Fatalf("flagged late with a lag of %v", smp.Lag)
				}
			}
			if smp.Flags&workload.FlagSkipped != 0 {
				skipped++
			}
		}
		if late == 0 || (skip && skipped != late) || (!skip && skipped != 0) {
			t.Errorf("skip=%v: %d late, %d skipped", skip, late, skipped)
		}
		if len(c.samples[0]) != 300 {
			t.Errorf("skip=%v: %d samples, want every op dealt, run or skipped", skip, len(c.samples[0]))
		}
	}
}

// slowDriver is the null store pausing every n-th read for pause, and
// failing the first busy attempts of every read with busy.
type slowDriver struct {
	every int
	pause time.Duration
	busy  int
}

func (d slowDriver) driver() store.Driver {
	return storetest.Wrap("slow", nullstore.Driver{}, func(c store.Conn) store.Conn { return &slowConn{Conn: c, d: d} })
}

type slowConn struct {
	store.Conn
	d            slowDriver
	reads, fails int
}

func (c *slowConn) Get(key uint64, dst []byte) ([]byte, error) {
	if c.d.busy > 0 {
		if c.fails < c.d.busy {
			c.fails++
			return dst, store.Wrap(store.Busy, errBusy)
		}
		c.fails = 0
	}
	if c.reads++; c.d.every > 0 && c.reads%c.d.every == 0 {
		time.Sleep(c.d.pause)
	}
	return c.Conn.Get(key, dst)
}

var errBusy = &busyError{}

type busyError struct{}

func (*busyError) Error() string { return "database is locked" }

// The retry policy runs a busy op again until it succeeds, recording the
// retries and the time from the first attempt to the last; a budget too
// short gives up with class busy.
func TestBusyRetry(t *testing.T) {
	t.Parallel()
	p := testPlan(1)
	p.Phases[0].Ops = 50
	p.Phases[0].Mix = workload.Mix{{Op: workload.OpRead, Percent: 100}}
	p.Busy, p.BusyBudget = workload.BusyRetry, workload.Duration(time.Second)
	c := &captured{samples: map[int][]workload.Sample{}}
	p.Driver = slowDriver{busy: 3}.driver().Name()
	if err := Run(context.Background(), p, slowDriver{busy: 3}.driver(), c); err != nil {
		t.Fatal(err)
	}
	for _, smp := range c.samples[0] {
		// 3 backoffs: 100 + 200 + 400 µs at least.
		if smp.Class != store.OK || smp.Retries != 3 || smp.Wait < 700*time.Microsecond || smp.Latency < smp.Wait {
			t.Fatalf("%+v", smp)
		}
	}
	p.BusyBudget = workload.Duration(150 * time.Microsecond)
	c = &captured{samples: map[int][]workload.Sample{}}
	p.Driver = slowDriver{busy: 3}.driver().Name()
	if err := Run(context.Background(), p, slowDriver{busy: 3}.driver(), c); err != nil {
		t.Fatal(err)
	}
	gaveUp := 0
	for _, smp := range c.samples[0] {
		if smp.Class == store.Busy && smp.Retries > 0 {
			gaveUp++
		}
	}
	if gaveUp == 0 {
		t.Error("no op gave up on a budget shorter than the retries need")
	}
	// The timeout policy leaves busy to the engine: one attempt each.
	p.Busy, p.BusyBudget = "", 0
	c = &captured{samples: map[int][]workload.Sample{}}
	p.Driver = slowDriver{busy: 1}.driver().Name()
	if err := Run(context.Background(), p, slowDriver{busy: 1}.driver(), c); err != nil {
		t.Fatal(err)
	}
	for _, smp := range c.samples[0] {
		if smp.Retries != 0 || smp.Wait != 0 {
			t.Fatalf("timeout policy: %+v", smp)
		}
	}
}

// virtualClock is a Clock whose time passes only when something moves
// it: a wait jumps to its due time, a fake engine's op moves it by what
// the op took. With one worker reading it, what a run records follows
// from the plan and the engine alone, whatever the machine's load.
type virtualClock struct {
	mu sync.Mutex
	t  int64
}

func (c *virtualClock) Now() int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *virtualClock) SleepUntil(done <-chan struct{}, due int64) bool {
	select {
	case <-done:
		return false
	default:
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = max(c.t, due)
	return true
}

func (c *virtualClock) advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t += int64(d)
}

// stallConn is the null store on a virtual clock: every read takes no
// time but read number stallAt (from 1), which takes stall.
type stallConn struct {
	store.Conn
	clock          *virtualClock
	reads, stallAt int
	stall          time.Duration
}

func (c *stallConn) Get(key uint64, dst []byte) ([]byte, error) {
	if c.reads++; c.reads == c.stallAt {
		c.clock.advance(c.stall)
	}
	return c.Conn.Get(key, dst)
}

// runVirtual runs p's one worker on the null store on a virtual clock,
// stalling its stallAt-th read for stall, and returns its samples.
func runVirtual(t *testing.T, p *workload.Plan, stallAt int, stall time.Duration) []workload.Sample {
	t.Helper()
	clock := &virtualClock{t: int64(time.Hour)} // any origin: offsets count from START
	drv := storetest.Wrap("stalling", nullstore.Driver{}, func(c store.Conn) store.Conn {
		return &stallConn{Conn: c, clock: clock, stallAt: stallAt, stall: stall}
	})
	p.Driver = drv.Name()
	ctx := context.Background()
	st, err := OpenStore(ctx, p, drv, Setup{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	c := &captured{samples: map[int][]workload.Sample{}}
	h := &Host{Plan: p, Store: st, Workers: p.WorkerIDs(), Collector: c, Clock: clock}
	if err := h.Run(ctx); err != nil {
		t.Fatal(err)
	}
	return c.samples[0]
}

// One 200 ms stall of a worker reading at 1000 ops/s in open loop: every
// op due during the stall waits for it, and its latency counts from its
// due time. On a virtual clock the figures are exact: the stalled op
// takes 200 ms, the ops due 1, 2, ... 199 ms after it began start when it
// ends, 199, 198, ... 1 ms late, and all others start on time. So 101
// ops take 100 ms or more from their due time (the stalled one and the
// 100 due in the stall's first half), while one alone takes that long
// from its actual start (its service time). Closed loop, the same stall
// delays the one op: the worker sent nothing meanwhile.
func TestOpenLoopCountsStalls(t *testing.T) {
	t.Parallel()
	const (
		stallAt = 300
		stall   = 200 * time.Millisecond
	)
	plan := func(rate float64) *workload.Plan {
		p := openPlan(1, rate)
		p.Keys.Count, p.Preload = 1000, 0
		p.Phases[0].Ops = 1000
		p.Phases[0].Mix = workload.Mix{{Op: workload.OpRead, Percent: 100}}
		return p
	}
	p := plan(1000)
	got := runVirtual(t, p, stallAt, stall)
	if len(got) != 1000 {
		t.Fatalf("%d samples, want 1000", len(got))
	}
	s := deal.NewSchedule(p, 0, 0)
	var corrected, service int
	for i, smp := range got {
		due := time.Duration(s.Next())
		late := time.Duration(0)
		if i >= stallAt && i < stallAt+int(stall/time.Millisecond) {
			late = stall - time.Duration(i-stallAt+1)*time.Millisecond
		}
		want := late
		if i == stallAt-1 {
			want = stall
		}
		if smp.Start != due || smp.Lag != late || smp.Latency != want {
			t.Fatalf("op %d: start %v, lag %v, latency %v; want start %v (its due time), lag %v, latency %v", i, smp.Start, smp.Lag, smp.Latency, due, late, want)
		}
		if smp.Latency >= stall/2 {
			corrected++
		}
		if smp.Latency-smp.Lag >= stall/2 {
			service++
		}
	}
	if corrected != 101 || service != 1 {
		t.Errorf("%d ops took 100 ms or more from their due time (want 101), %d from their start (want 1)", corrected, service)
	}

	got = runVirtual(t, plan(0), stallAt, stall)
	for i, smp := range got {
		want := time.Duration(0)
		if i == stallAt-1 {
			want = stall
		}
		if smp.Latency != want || smp.Lag != 0 {
			t.Fatalf("closed loop, op %d: latency %v, lag %v; want %v, no lag", i, smp.Latency, smp.Lag, want)
		}
	}
}
