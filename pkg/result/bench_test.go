package result

import (
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
