package result

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/gobench/gobench/pkg/workload"
)

// BenchmarkRecord is the coordinator's cost of merging one sample.
func BenchmarkRecord(b *testing.B) {
	s := NewBuilder(plan(1)).Sink(0, 0)
	var start time.Duration
	b.ReportAllocs()
	for b.Loop() {
		start += 10 * time.Microsecond
		_ = s.Record(workload.Sample{Op: workload.OpRead, Start: start, Latency: 7 * time.Microsecond})
	}
}

// BenchmarkRecordWorkers is the same among 25 workers as the coordinator
// meets them running SQLite: frames of 256 samples from one worker after
// another, latencies spread from 2 µs to 4 ms, and between two frames the
// processor's caches filled by other work (the workers' SQLite), here an
// 8 MiB walk. record-ns/sample is the recording alone.
func BenchmarkRecordWorkers(b *testing.B) {
	const workers, frame = 25, 256
	p := plan(workers)
	bl := NewBuilder(p)
	sinks := make([]workload.Sink, workers)
	for w := range sinks {
		sinks[w] = bl.Sink(w, 0)
	}
	r := rand.New(rand.NewPCG(1, 2))
	samples := make([]workload.Sample, frame)
	start := make([]time.Duration, workers)
	other := make([]byte, 8<<20)
	var spent time.Duration
	n := 0
	for b.Loop() {
		if n%frame == 0 {
			w := n / frame % workers
			for i := range samples {
				lat := time.Duration(float64(int64(2000)<<r.IntN(11)) * (1 + r.Float64()))
				op := workload.OpRead
				if i%20 == 0 {
					op = workload.OpUpsert
				}
				start[w] += lat
				samples[i] = workload.Sample{Op: op, Start: start[w], Latency: lat}
			}
			for i := 0; i < len(other); i += 64 {
				other[i]++
			}
			t0 := time.Now()
			for _, s := range samples {
				_ = sinks[w].Record(s)
			}
			spent += time.Since(t0)
		}
		n++
	}
	b.ReportMetric(float64(spent.Nanoseconds())/float64(n), "record-ns/sample")
}
