package percentile

import (
	"testing"

	hdr "github.com/HdrHistogram/hdrhistogram-go"
)

// values records 1, 2, …, n (exact at three significant digits up to
// 2048): the value at rank r is r.
func values(t *testing.T, n int64) *hdr.Histogram {
	t.Helper()
	h := hdr.New(1, 3_600_000_000_000, 3)
	for v := int64(1); v <= n; v++ {
		if err := h.RecordValue(v); err != nil {
			t.Fatal(err)
		}
	}
	return h
}

// Worked by hand: the p-th percentile of n values is the value at rank
// ceil(p/100·n). "lib" is what hdrhistogram-go's ValueAtQuantile says
// (rank rounded to nearest), where it differs.
func TestNearestRank(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		n    int64
		p    float64
		want int64
		lib  int64 // 0: the library agrees
	}{
		{"one value, p50", 1, 50, 1, 0},
		{"one value, p99.9", 1, 99.9, 1, 0},
		{"two values, p50 is the first", 2, 50, 1, 0},
		{"two values, p90 is the second", 2, 90, 2, 0},
		{"even n, p50: ceil(2) = 2", 4, 50, 2, 0},
		{"odd n, p50: ceil(2.5) = 3", 5, 50, 3, 0},
		{"p90 of 16: ceil(14.4) = 15", 16, 90, 15, 14},
		{"p99 of 100: 0.99·100 is not 99.00000000000001", 100, 99, 99, 0},
		{"p99 of 170: ceil(168.3) = 169", 170, 99, 169, 168},
		{"p99.9 of 800 is the max: ceil(799.2) = 800", 800, 99.9, 800, 799},
		{"p99.9 of 999: ceil(998.001) = 999", 999, 99.9, 999, 998},
		{"p99.9 of 1000: exactly 999", 1000, 99.9, 999, 0},
		{"p100 is the max", 37, 100, 37, 0},
		{"p0 is rank 1", 37, 0, 1, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := values(t, tt.n)
			if got := Rank(tt.p, tt.n); got != tt.want {
				t.Errorf("Rank(%v, %d) = %d, want %d", tt.p, tt.n, got, tt.want)
			}
			if got := Value(h, tt.p); got != tt.want {
				t.Errorf("Value(p%v of 1..%d) = %d, want %d", tt.p, tt.n, got, tt.want)
			}
			lib := tt.lib
			if lib == 0 {
				lib = tt.want
			}
			if got := h.ValueAtQuantile(tt.p); got != lib && tt.p > 0 {
				t.Errorf("hdrhistogram-go says %d (the table expects %d): the library changed its rule", got, lib)
			}
		})
	}
}

// At coarser precision the value is the highest equivalent of the value
// at the rank, as in the reference implementation; an empty histogram
// reads 0.
func TestValueEquivalence(t *testing.T) {
	t.Parallel()
	h := hdr.New(1, 3_600_000_000_000, 2)
	for _, v := range []int64{1000, 2000, 123456} {
		_ = h.RecordValue(v)
	}
	// Max is the highest equivalent of the largest value, not the value.
	if got, want := Value(h, 99), h.Max(); got != want || want == 123456 {
		t.Errorf("p99 of {1000, 2000, 123456} = %d, want %d", got, want)
	}
	if got := Value(hdr.New(1, 1000, 3), 99); got != 0 {
		t.Errorf("empty histogram: %d", got)
	}
	if Rank(50, 0) != 0 {
		t.Error("rank among no values")
	}
}
