package result

import (
	"testing"
	"time"

	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/workload"
)

// Each worker's own figures: its acknowledged writes, its slowest op and
// when it began, and the longest it completed nothing, from the start to
// its first completion or between two; in a phase of a duration, to the
// phase's end too.
func TestWorkerOwnFigures(t *testing.T) {
	for _, timed := range []bool{false, true} {
		p := plan(2)
		if timed {
			p.Phases[0].Ops, p.Phases[0].Duration = 0, workload.Duration(time.Second)
		}
		b := NewBuilder(p)
		w0, w1 := b.Sink(0, 0), b.Sink(1, 0)
		// Worker 0: an upsert ending at 10ms, a read from 10ms to 300ms (its
		// slowest), a busy upsert ending at 310ms: gaps 10, 290, 10 ms.
		rec(t, w0, workload.OpUpsert, store.OK, 0, 10*time.Millisecond)
		rec(t, w0, workload.OpRead, store.OK, 10*time.Millisecond, 290*time.Millisecond)
		rec(t, w0, workload.OpUpsert, store.Busy, 300*time.Millisecond, 10*time.Millisecond)
		// Worker 1: first completion at 50ms, last at 1s (the phase's end).
		rec(t, w1, workload.OpRead, store.OK, 0, 50*time.Millisecond)
		rec(t, w1, workload.OpUpsert, store.OK, 900*time.Millisecond, 100*time.Millisecond)
		for w, s := range []workload.Sink{w0, w1} {
			if err := s.Done(workload.WorkerStats{Worker: w, Samples: []int64{3, 2}[w]}); err != nil {
				t.Fatal(err)
			}
		}
		ws := b.Result().Phases[0].Workers
		w := ws[0]
		wantGap := 290_000.0
		if timed {
			wantGap = 690_000 // from 310ms to the phase's end, at 1s
		}
		if w.AckedWrites != 1 || w.MaxMicros != 290_000 || w.SlowestStartMicros != 10_000 || w.MaxGapMicros != wantGap ||
			w.P99Micros < 290_000*0.99 || w.P99Micros > 290_000*1.01 {
			t.Errorf("timed %v: worker 0: %+v (want 1 acked write, slowest 290ms from 10ms, gap %vµs)", timed, w, wantGap)
		}
		if w := ws[1]; w.AckedWrites != 1 || w.MaxGapMicros != 950_000 {
			t.Errorf("timed %v: worker 1: %+v (want the gap of 950ms between its completions, at 50ms and 1s)", timed, w)
		}
	}
}
