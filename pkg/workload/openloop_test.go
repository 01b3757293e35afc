package workload

import (
	"context"
	"math"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/store/nullstore"
	"github.com/gobench/gobench/pkg/store/storetest"
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
			out[i] = s.next()
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

type captured struct {
	mu      sync.Mutex
	samples map[int][]Sample
}

func (c *captured) Sink(w, _ int) Sink { return &capSink{c: c, w: w} }

type capSink struct {
	c *captured
	w int
}

func (s *capSink) Record(smp Sample) error {
	s.c.mu.Lock()
	defer s.c.mu.Unlock()
	s.c.samples[s.w] = append(s.c.samples[s.w], smp)
	return nil
}
func (s *capSink) Done(WorkerStats) error { return nil }

// An open-loop run starts ops at their due times: each sample's start is
// its due offset (an op begun early would start before it, and fail
// this), its latency counts from there, and the op sequence is the closed
// loop's.
func TestOpenLoopRun(t *testing.T) {
	t.Parallel()
	p := openPlan(2, 2000)
	p.Phases[0].Ops = 200
	c := &captured{samples: map[int][]Sample{}}
	if err := Run(context.Background(), p, nullstore.Driver{}, c); err != nil {
		t.Fatal(err)
	}
	for w := range 2 {
		s := newSchedule(p, 0, w)
		got := c.samples[w]
		want := deal(p, 0, w, 200)
		if len(got) != 200 {
			t.Fatalf("worker %d: %d samples", w, len(got))
		}
		for i, smp := range got {
			if due := time.Duration(s.next()); smp.Start != due {
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
		p.LatencyLimit = Duration(5 * time.Millisecond)
		p.SkipLate = skip
		c := &captured{samples: map[int][]Sample{}}
		drv := slowDriver{every: 100, pause: 20 * time.Millisecond}.driver()
		p.Driver = drv.Name()
		if err := Run(context.Background(), p, drv, c); err != nil {
			t.Fatal(err)
		}
		var late, skipped int
		for _, smp := range c.samples[0] {
			if smp.Flags&FlagLate != 0 {
				late++
				if smp.Lag <= 5*time.Millisecond {
					t.Fatalf("flagged late with a lag of %v", smp.Lag)
				}
			}
			if smp.Flags&FlagSkipped != 0 {
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
	p.Phases[0].Mix = Mix{{OpRead, 100}}
	p.Busy, p.BusyBudget = BusyRetry, Duration(time.Second)
	c := &captured{samples: map[int][]Sample{}}
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
	p.BusyBudget = Duration(150 * time.Microsecond)
	c = &captured{samples: map[int][]Sample{}}
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
	c = &captured{samples: map[int][]Sample{}}
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
func runVirtual(t *testing.T, p *Plan, stallAt int, stall time.Duration) []Sample {
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
	c := &captured{samples: map[int][]Sample{}}
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
	plan := func(rate float64) *Plan {
		p := openPlan(1, rate)
		p.Keys.Count, p.Preload = 1000, 0
		p.Phases[0].Ops = 1000
		p.Phases[0].Mix = Mix{{Op: OpRead, Percent: 100}}
		return p
	}
	p := plan(1000)
	got := runVirtual(t, p, stallAt, stall)
	if len(got) != 1000 {
		t.Fatalf("%d samples, want 1000", len(got))
	}
	s := newSchedule(p, 0, 0)
	var corrected, service int
	for i, smp := range got {
		due := time.Duration(s.next())
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
