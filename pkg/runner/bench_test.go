package runner

import (
	"context"
	"testing"
	"time"

	"github.com/gobench/gobench/pkg/store/nullstore"
	"github.com/gobench/gobench/pkg/workload"
)

type discard struct{}

func (discard) Record(workload.Sample) error { return nil }

func (discard) Done(workload.WorkerStats) error { return nil }

type discardCollector struct{}

func (discardCollector) Sink(int, int) workload.Sink { return discard{} }

// BenchmarkWorkerLoop is the worker's own cost per op with a store and a
// sink that do nothing: dealing the op and key, two clock reads, the call.
func BenchmarkWorkerLoop(b *testing.B) {
	p := workload.DefaultPlan()
	p.Driver = "null"
	p.Preload = 0
	p.Phases[0].Ops = int64(b.N)
	st, _ := nullstore.Driver{}.Open(context.Background(), p.Store)
	h := &Host{Plan: &p, Store: st, Workers: []int{0}, Collector: discardCollector{}}
	b.ReportAllocs()
	b.ResetTimer()
	if err := h.Run(context.Background()); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkWake is how late a sleeper wakes for a due time 50 µs or 200 µs
// away: on the Go runtime's timer, and with sleepUntil, which open-loop
// workers use. It reports the mean oversleep (late-ns/op): what every
// open-loop op would otherwise carry as schedule lag.
func BenchmarkWake(b *testing.B) {
	for _, d := range []time.Duration{50 * time.Microsecond, 200 * time.Microsecond} {
		b.Run("timer/"+d.String(), func(b *testing.B) {
			t := time.NewTimer(time.Hour)
			var late int64
			for b.Loop() {
				due := nanotime() + int64(d)
				t.Reset(d)
				<-t.C
				late += nanotime() - due
			}
			b.ReportMetric(float64(late)/float64(b.N), "late-ns/op")
		})
		b.Run("sleepUntil/"+d.String(), func(b *testing.B) {
			defer lockForSleep()()
			var late int64
			for b.Loop() {
				due := nanotime() + int64(d)
				sleepUntil(due)
				late += nanotime() - due
			}
			b.ReportMetric(float64(late)/float64(b.N), "late-ns/op")
		})
	}
}
