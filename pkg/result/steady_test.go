package result

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/workload"
)

// runShape feeds one closed-loop worker a phase of reads: first warm ops
// of latency cold, then steady ops of latency hot, back to back.
func runShape(t *testing.T, auto bool, warm int, cold time.Duration, steady int, hot time.Duration) Phase {
	t.Helper()
	p := plan(1)
	p.WarmupAuto = auto
	b := NewBuilder(p)
	s := b.Sink(0, 0)
	var at time.Duration
	for i := range warm + steady {
		lat := hot
		if i < warm {
			lat = cold
		}
		rec(t, s, workload.OpRead, store.OK, at, lat)
		at += lat
	}
	if err := s.Done(workload.WorkerStats{Samples: int64(warm + steady)}); err != nil {
		t.Fatal(err)
	}
	return b.Result().Phases[0]
}

// A run that starts slow (2 s of 1 ms reads) and then settles (8 s of
// 100 µs reads) is cut after its warm-up: what follows is measured alone.
func TestWarmupAutoCutsATransient(t *testing.T) {
	ph := runShape(t, true, 2000, time.Millisecond, 80_000, 100*time.Microsecond)
	c := ph.Steady
	if c == nil || !c.Found || c.Method != "MSER-5" {
		t.Fatalf("steady %+v, want a cut found", c)
	}
	// MSER-5 ends the warm-up where the slow reads end (2 s, to its 50 ms
	// batches); the measured part begins at the kept boundary nearest it
	// (segments of 0.512 s in a 10 s run).
	if c.ChosenSeconds < 1.95 || c.ChosenSeconds > 2.1 || math.Abs(c.Seconds-c.ChosenSeconds) > 0.256 {
		t.Errorf("cut chosen at %v s, measured from %v s: want about 2 s", c.ChosenSeconds, c.Seconds)
	}
	read, _ := ph.Op("read")
	if c.Ops+read.Count != 82_000 || c.Ops < 2000 {
		t.Errorf("%d ops cut and %d measured, want 82000 in all and the 2000 slow ones cut", c.Ops, read.Count)
	}
	if read.MaxMicros > 101 || read.P99Micros > 101 {
		t.Errorf("after the cut: p99 %vµs, max %vµs: slow reads left in", read.P99Micros, read.MaxMicros)
	}
	measured := ph.WallSeconds - c.Seconds
	if want := float64(read.Count) / measured; math.Abs(read.OpsPerSec-want) > 1e-6*want {
		t.Errorf("ops/s %v, want %v: the count over the time after the cut", read.OpsPerSec, want)
	}
	if ph.Total.Count != read.Count {
		t.Errorf("total %d, read %d", ph.Total.Count, read.Count)
	}
}

// A run at one speed throughout is not cut, or barely; without --warmup
// auto nothing is.
func TestWarmupAutoFlat(t *testing.T) {
	ph := runShape(t, true, 0, 0, 60_000, 100*time.Microsecond)
	if c := ph.Steady; c == nil || !c.Found || c.Seconds > 0.7 {
		t.Errorf("flat run: %+v, want steady from (about) its start", c)
	}
	if ph := runShape(t, false, 2000, time.Millisecond, 80_000, 100*time.Microsecond); ph.Steady != nil || ph.Total.Count != 82_000 {
		t.Errorf("without auto: steady %+v, %d ops", ph.Steady, ph.Total.Count)
	}
}

// A run that slows down to its end has no steady state: nothing is cut,
// and the trend is reported.
func TestWarmupAutoNoSteadyState(t *testing.T) {
	p := plan(1)
	p.WarmupAuto = true
	b := NewBuilder(p)
	s := b.Sink(0, 0)
	var at time.Duration
	n := 0
	for at < 6*time.Second {
		lat := 50*time.Microsecond + at/20_000 // 50 µs rising to 350 µs
		rec(t, s, workload.OpRead, store.OK, at, lat)
		at += lat
		n++
	}
	if err := s.Done(workload.WorkerStats{Samples: int64(n)}); err != nil {
		t.Fatal(err)
	}
	ph := b.Result().Phases[0]
	c := ph.Steady
	if c == nil || c.Found || c.Seconds != 0 || c.TrendPerSecond >= 0 || ph.Total.Count != int64(n) {
		t.Fatalf("slowing run: %+v, %d of %d ops: want no steady state, a falling trend, every op", c, ph.Total.Count, n)
	}
}

// Memory stays bounded however long the run: intervals and segments fold.
func TestWarmupAutoBounded(t *testing.T) {
	p := plan(1)
	p.WarmupAuto = true
	b := NewBuilder(p)
	s := b.Sink(0, 0)
	n := 0
	for at := time.Duration(0); at < time.Hour; at += 50 * time.Millisecond {
		rec(t, s, workload.OpRead, store.OK, at, 50*time.Millisecond)
		n++
	}
	_ = s.Done(workload.WorkerStats{Samples: int64(n)})
	st := b.phases[0].steady
	if len(st.segs) > steadySegments || len(st.series[workload.OpRead].n) > steadyBins {
		t.Errorf("an hour: %d segments, %d intervals", len(st.segs), len(st.series[workload.OpRead].n))
	}
	if ph := b.Result().Phases[0]; ph.Steady == nil || ph.Total.Count+ph.Steady.Ops != int64(n) {
		t.Errorf("an hour: %+v", ph.Steady)
	}
}

// burstyRun feeds workers closed-loop workers that run in bursts, as
// worker processes do on a loaded machine with fewer cores than processes:
// each runs for 1–4 ms, then waits 10–80 ms for a CPU (the op under way
// then takes that much longer), so most 16 ms intervals hold no op at all.
// Reads take cold for the first transient, hot after. The gaps come from a
// fixed seed: the series is the same every run.
func burstyRun(t *testing.T, workers int, transient, cold, hot, length time.Duration) Phase {
	t.Helper()
	p := plan(workers)
	p.WarmupAuto = true
	b := NewBuilder(p)
	rng := rand.New(rand.NewPCG(47, 8))
	between := func(lo, hi time.Duration) time.Duration { return lo + time.Duration(rng.Int64N(int64(hi-lo))) }
	for w := range workers {
		s := b.Sink(w, 0)
		var at time.Duration
		n := 0
		slice := between(time.Millisecond, 4*time.Millisecond)
		for at < length {
			lat := hot
			if at < transient {
				lat = cold
			}
			if slice -= lat; slice < 0 { // descheduled during this op
				lat += between(10*time.Millisecond, 80*time.Millisecond)
				slice = between(time.Millisecond, 4*time.Millisecond)
			}
			rec(t, s, workload.OpRead, store.OK, at, lat)
			at += lat
			n++
		}
		if err := s.Done(workload.WorkerStats{Worker: w, Samples: int64(n)}); err != nil {
			t.Fatal(err)
		}
	}
	return b.Result().Phases[0]
}

// A bursty run with a planted 2 s transient is cut within 20% of the
// transient's end; a bursty run at one speed is found steady. Batching by
// time failed both: batches of empty intervals, padded with the last mean,
// made flat tails MSER-5 chose near the run's end.
func TestWarmupAutoBursty(t *testing.T) {
	for _, tc := range []struct {
		name      string
		workers   int
		transient time.Duration
		length    time.Duration
	}{
		{"transient 2s of 10s, 2 workers", 2, 2 * time.Second, 10 * time.Second},
		{"transient 2s of 20s, 4 workers", 4, 2 * time.Second, 20 * time.Second},
		{"transient 2s of 6s, 1 worker", 1, 2 * time.Second, 6 * time.Second},
		{"flat 10s, 2 workers", 2, 0, 10 * time.Second},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ph := burstyRun(t, tc.workers, tc.transient, time.Millisecond, 100*time.Microsecond, tc.length)
			c := ph.Steady
			if c == nil || !c.Found {
				t.Fatalf("steady %+v: want a steady state found", c)
			}
			want := tc.transient.Seconds()
			if want == 0 {
				if c.ChosenSeconds > 0.1*tc.length.Seconds() {
					t.Errorf("flat run cut at %v s (by %s), want about its start", c.ChosenSeconds, c.Series)
				}
				return
			}
			if math.Abs(c.ChosenSeconds-want) > 0.2*want {
				t.Errorf("cut at %v s (by %s), want within 20%% of %v s", c.ChosenSeconds, c.Series, want)
			}
		})
	}
}

// A run whose workers wait between ops more and more (for a CPU the
// machine gave to others) while every op takes as long as ever is found
// steady: the rate that did not settle is named, with its trend, and its
// cut is not the phase's.
func TestWarmupAutoThroughputAlone(t *testing.T) {
	p := plan(1)
	p.WarmupAuto = true
	b := NewBuilder(p)
	s := b.Sink(0, 0)
	var at time.Duration
	n := 0
	for at < 10*time.Second {
		lat := 100 * time.Microsecond
		rec(t, s, workload.OpRead, store.OK, at, lat)
		at += lat + at/10_000 // idle between ops: 0 rising to 1 ms
		n++
	}
	if err := s.Done(workload.WorkerStats{Samples: int64(n)}); err != nil {
		t.Fatal(err)
	}
	c := b.Result().Phases[0].Steady
	if c == nil || !c.Found || c.Unsettled != "throughput" || c.TrendPerSecond >= 0 || c.Seconds > 1 {
		t.Fatalf("steady latencies, falling rate: %+v: want steady from about the start, throughput named unsettled with a falling trend", c)
	}
}
