package workload

import (
	"testing"
)

// BenchmarkLottery is the cost of dealing one op and its key.
func BenchmarkLottery(b *testing.B) {
	p := DefaultPlan()
	p.Driver = "null"
	l := NewLottery(&p, 0, 0)
	b.ReportAllocs()
	for b.Loop() {
		l.Next()
	}
}
