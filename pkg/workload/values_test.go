package workload

import (
	"testing"
)

func blobPlan(workers int) *Plan {
	p := testPlan(workers)
	p.Driver = "map"
	p.Mode = ModeGoroutine
	p.Keys.Count, p.Preload = 500, 500
	p.ValueSize, p.ValueVariance, p.RandomValues = 1000, 200, true
	p.Phases = []Phase{
		{Name: "read", Mix: Mix{{OpRead, 100}}, Access: AccessEach, Order: OrderRandom, Ops: 60, Batch: 1},
		{Name: "update", Mix: Mix{{OpUpdate, 100}}, Access: AccessEach, Order: OrderRandom, Batch: 1},
	}
	return p
}

func TestValueSizeOf(t *testing.T) {
	t.Parallel()
	p := blobPlan(1)
	lo, hi := p.ValueSize, p.ValueSize
	for k := range uint64(5000) {
		n := p.ValueSizeOf(k)
		if n != p.ValueSizeOf(k) {
			t.Fatal("ValueSizeOf is not a function of the key")
		}
		lo, hi = min(lo, n), max(hi, n)
	}
	if lo != 800 || hi != 1200 {
		t.Errorf("sizes span %d to %d, want 800 to 1200", lo, hi)
	}
	other := *p
	other.Seed++
	same := 0
	for k := range uint64(100) {
		if other.ValueSizeOf(k) == p.ValueSizeOf(k) {
			same++
		}
	}
	if same > 10 {
		t.Errorf("%d of 100 sizes unchanged by another seed", same)
	}
	p.ValueVariance = 0
	if p.ValueSizeOf(7) != p.ValueSize {
		t.Error("no variance, yet the size varies")
	}
}
