package deal

import (
	"testing"

	"github.com/gobench/gobench/pkg/workload"
)

// BenchmarkLottery is the cost of dealing one op and its key.
func BenchmarkLottery(b *testing.B) {
	p := workload.DefaultPlan()
	p.Driver = "null"
	l := NewLottery(&p, 0, 0)
	b.ReportAllocs()
	for b.Loop() {
		l.Next()
	}
}
