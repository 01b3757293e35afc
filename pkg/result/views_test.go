package result

import (
	"bytes"
	"testing"
	"time"

	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/workload"
)

// viewsResult builds a two-worker open-loop result under the retry busy
// policy: per worker 90 reads due every ms, 10 of them late by 50 ms, one
// more skipped, and 5 reads that retried twice after busy (one of which
// gave up).
func viewsResult(t *testing.T, shard *workload.Shard) *Result {
	t.Helper()
	p := plan(2)
	p.Rate, p.LatencyLimit, p.SkipLate = 2000, workload.Duration(10*time.Millisecond), true
	p.Busy, p.BusyBudget = workload.BusyRetry, workload.Duration(time.Second)
	p.Shard = shard
	b := NewBuilder(p)
	for _, w := range p.WorkerIDs() {
		s := b.Sink(w, 0)
		var n int64
		add := func(smp workload.Sample) {
			t.Helper()
			n++
			if err := s.Record(smp); err != nil {
				t.Fatal(err)
			}
		}
		for i := range 90 {
			lag := time.Duration(0)
			var f workload.SampleFlags
			if i < 10 {
				lag, f = 50*time.Millisecond, workload.FlagLate
			}
			add(workload.Sample{Op: workload.OpRead, Start: time.Duration(i) * time.Millisecond, Latency: lag + 20*time.Microsecond, Lag: lag, Flags: f})
		}
		add(workload.Sample{Op: workload.OpRead, Start: 95 * time.Millisecond, Lag: 60 * time.Millisecond, Flags: workload.FlagLate | workload.FlagSkipped})
		for i := range 5 {
			c := store.OK
			if i == 0 {
				c = store.Busy
			}
			add(workload.Sample{Op: workload.OpRead, Class: c, Start: time.Duration(100+i) * time.Millisecond, Latency: 3 * time.Millisecond, Wait: 2 * time.Millisecond, Retries: 2})
		}
		if err := s.Done(workload.WorkerStats{Worker: w, Samples: n, End: 200 * time.Millisecond}); err != nil {
			t.Fatal(err)
		}
	}
	return b.Result()
}

// The open-loop and lock-wait views count what they should, survive the
// JSON round trip, and merge shard by shard into the whole run's.
func TestOpenLoopAndLockWaitViews(t *testing.T) {
	t.Parallel()
	check := func(r *Result, workers int64) {
		t.Helper()
		read, _ := r.Phases[0].Op("read")
		if read.Count != 95*workers || read.Skipped != workers || read.Late != 11*workers {
			t.Fatalf("count %d skipped %d late %d", read.Count, read.Skipped, read.Late)
		}
		if read.Service == nil || read.Lag == nil || read.Service.Count != read.Count || read.Lag.Count != read.Count {
			t.Fatalf("open-loop views: %+v %+v", read.Service, read.Lag)
		}
		if read.P99Micros < 50_000 || read.Service.P99Micros > 5_000 || read.Lag.MaxMicros < 50_000 {
			t.Errorf("corrected p99 %v, service p99 %v, lag max %v (µs)", read.P99Micros, read.Service.P99Micros, read.Lag.MaxMicros)
		}
		w := read.LockWaits
		if w == nil || w.Retries != 10*workers || w.OpsRetried != 5*workers || w.GaveUp != workers || w.Wait.Count != 5*workers || w.Wait.P50Micros < 1_900 {
			t.Errorf("lock waits %+v", w)
		}
		if read.Errors.Busy != workers {
			t.Errorf("busy errors %d", read.Errors.Busy)
		}
		if r.Phases[0].Total.LockWaits == nil || r.Phases[0].Total.LockWaits.Retries != w.Retries {
			t.Errorf("total lock waits %+v", r.Phases[0].Total.LockWaits)
		}
	}
	r := viewsResult(t, nil)
	if !r.Complete {
		t.Fatalf("incomplete: %v", r.Problems)
	}
	check(r, 2)
	var buf bytes.Buffer
	if err := r.Write(&buf); err != nil {
		t.Fatal(err)
	}
	back, err := Read(&buf)
	if err != nil {
		t.Fatal(err)
	}
	check(back, 2)

	s1, s2 := viewsResult(t, &workload.Shard{Index: 0, Count: 2}), viewsResult(t, &workload.Shard{Index: 1, Count: 2})
	check(s1, 1)
	merged, err := MergeShards([]*Result{s1, s2})
	if err != nil {
		t.Fatal(err)
	}
	check(merged, 2)
}

// The log timeline keeps each second's largest size and counts resets
// from the counter's increments, a counter that goes back starting anew.
func TestRecordLog(t *testing.T) {
	t.Parallel()
	b := NewBuilder(plan(1))
	for _, s := range []struct {
		sec, bytes int64
		seq        uint32
	}{{0, 100, 7}, {0, 300, 7}, {0, 200, 8}, {1, 50, 10}, {2, 4000, 2}, {2, 4100, 3}} {
		b.RecordWAL(0, s.sec, s.bytes, s.seq)
	}
	l := b.Result().Phases[0].WAL
	want := []WALSecond{{0, 300, 1}, {1, 50, 3}, {2, 4100, 4}}
	if l == nil || l.MaxBytes != 4100 || l.Resets != 4 || len(l.Seconds) != 3 {
		t.Fatalf("%+v", l)
	}
	for i, w := range want {
		if l.Seconds[i] != w {
			t.Errorf("second %d: %+v, want %+v", i, l.Seconds[i], w)
		}
	}
	if NewBuilder(plan(1)).Result().Phases[0].WAL != nil {
		t.Error("a log timeline without samples")
	}
}

// The timeline counts each second's busy retries, late samples included,
// and shards' retries add up in a merge.
func TestTimelineRetries(t *testing.T) {
	t.Parallel()
	b := NewBuilder(plan(2))
	w0, w1 := b.Sink(0, 0), b.Sink(1, 0)
	record := func(s workload.Sink, start time.Duration, retries uint16) {
		t.Helper()
		if err := s.Record(workload.Sample{Op: workload.OpUpsert, Start: start, Latency: time.Millisecond, Retries: retries}); err != nil {
			t.Fatal(err)
		}
	}
	record(w0, 0, 3)
	record(w0, 1500*time.Millisecond, 4) // second 1
	record(w1, 100*time.Millisecond, 5)
	record(w0, 200*time.Millisecond, 6) // late: worker 0 has moved on to second 1
	for w, s := range []workload.Sink{w0, w1} {
		if err := s.Done(workload.WorkerStats{Worker: w, Samples: int64(map[int]int{0: 3, 1: 1}[w])}); err != nil {
			t.Fatal(err)
		}
	}
	r := b.Result()
	got := map[int64]int64{}
	for _, s := range r.Phases[0].Timeline {
		for _, o := range s.Ops {
			got[s.Second] += o.Retries
		}
	}
	if got[0] != 3+5+6 || got[1] != 4 {
		t.Fatalf("retries by second %v, want 14 in second 0 and 4 in second 1", got)
	}
}

// Under the retry policy every op that failed busy or locked gave up,
// whether it retried (its budget ran out) or not (its first attempt spent
// the budget, or it failed inside a batch): gave_up equals the busy and
// locked errors. Under the timeout policy, where the engine counts its
// own busy handler, only the ops it waited for count.
func TestGaveUpCountsEveryBusyOp(t *testing.T) {
	samples := []workload.Sample{
		{Op: workload.OpUpsert, Class: store.Busy, Retries: 3, Wait: time.Millisecond}, // retried, then gave up
		{Op: workload.OpUpsert, Class: store.Busy},                                     // no retry at all
		{Op: workload.OpUpsert, Class: store.Locked},                                   // no retry at all
		{Op: workload.OpUpsert, Class: store.OK, Retries: 1, Wait: time.Millisecond},   // retried, then committed
		{Op: workload.OpUpsert, Class: store.OK},
	}
	for _, tt := range []struct {
		busy         string
		gaveUp, errs int64
	}{{workload.BusyRetry, 3, 3}, {workload.BusyTimeout, 1, 3}} {
		t.Run(tt.busy, func(t *testing.T) {
			p := plan(1)
			p.Busy = tt.busy
			if tt.busy == workload.BusyRetry {
				p.BusyBudget = workload.Duration(time.Second)
			}
			b := NewBuilder(p)
			s := b.Sink(0, 0)
			for i, smp := range samples {
				smp.Start, smp.Latency = time.Duration(i)*time.Millisecond, time.Millisecond
				if err := s.Record(smp); err != nil {
					t.Fatal(err)
				}
			}
			if err := s.Done(workload.WorkerStats{Samples: int64(len(samples)), End: 10 * time.Millisecond}); err != nil {
				t.Fatal(err)
			}
			up, _ := b.Result().Phases[0].Op("upsert")
			if busy := up.Errors.Busy + up.Errors.Locked; busy != tt.errs {
				t.Fatalf("busy and locked errors %d, want %d", busy, tt.errs)
			}
			if up.LockWaits == nil || up.LockWaits.GaveUp != tt.gaveUp || up.LockWaits.OpsRetried != 2 {
				t.Errorf("lock waits %+v, want %d given up of 2 retried", up.LockWaits, tt.gaveUp)
			}
		})
	}
}
