package judge

import (
	"math"
	"testing"

	hdr "github.com/HdrHistogram/hdrhistogram-go"
)

// The ranks bounding a quantile, against exact binomial sums computed
// apart (Python's math.comb over rationals: the largest lo with
// P(B ≤ lo-1) ≤ 5%, the smallest hi with P(B ≤ hi-1) ≥ 95%).
func TestQuantileRanks(t *testing.T) {
	for _, tt := range []struct {
		n      int64
		q      float64
		lo, hi int64
	}{
		{570, 0.99, 560, 569},
		{100, 0.5, 42, 59},
		{1000, 0.999, 997, 1001}, // no value bounds the p99.9 of 1,000 from above
		{20, 0.5, 6, 15},
		{50, 0.9, 41, 49},
		{1500, 0.99, 1478, 1492},
		{10, 0.99, 9, 11},
		{200, 0.95, 185, 196},
	} {
		lo, hi := QuantileRanks(tt.n, tt.q, 0.9)
		if lo != tt.lo || hi != tt.hi {
			t.Errorf("n=%d q=%v: ranks %d, %d; want %d, %d", tt.n, tt.q, lo, hi, tt.lo, tt.hi)
		}
	}
}

// The interval reads the order statistics from the histogram, widened
// to its buckets; with 570 latencies the upper end of the p99's is the
// second largest, and a limit above every latency decides the gate while
// one inside the interval would take more ops.
func TestQuantileInterval(t *testing.T) {
	h := hdr.New(1, 3_600_000_000_000, 3)
	for i := 1; i <= 570; i++ {
		if err := h.RecordValue(int64(i) * 1000); err != nil { // i µs
			t.Fatal(err)
		}
	}
	iv := QuantileInterval(h, 0.99, 0.9)
	if iv.Lo > 560 || iv.Lo < 560*0.999 || iv.Hi < 569 || iv.Hi > 569*1.001 {
		t.Errorf("p99 of 1..570µs: [%v, %v], want [560, 569] to the histogram's 0.1%%", iv.Lo, iv.Hi)
	}
	if n := opsToDecide(h, 0.99, 0.9, 10e6); n > 570 {
		t.Errorf("a limit of 10 s is decided already: %d ops, want at most 570", n)
	}
	n := opsToDecide(h, 0.99, 0.9, 564.5)
	if n <= 570 || n == math.MaxInt64 {
		t.Errorf("a limit inside the interval: %d ops to decide, want more than 570", n)
	}
	lo, hi := QuantileRanks(n, 0.99, 0.9)
	if share := 564.0 / 570; !(float64(hi) <= share*float64(n) || float64(lo) > share*float64(n)) {
		t.Errorf("%d ops do not decide it: ranks %d, %d around %v", n, lo, hi, share*float64(n))
	}
	empty := QuantileInterval(hdr.New(1, 1000, 3), 0.5, 0.9)
	if empty.Lo != 0 || !math.IsInf(empty.Hi, 1) {
		t.Errorf("no values bound nothing: %+v", empty)
	}
}

// Jain's index, worked by hand: equal shares 1, one share of n 1/n,
// shares 1, 2, 3: 6² / (3·14) = 36/42.
func TestJainIndex(t *testing.T) {
	for _, tt := range []struct {
		xs   []float64
		want float64
	}{
		{[]float64{5, 5, 5, 5}, 1},
		{[]float64{1, 0, 0, 0}, 0.25},
		{[]float64{1, 2, 3}, 36.0 / 42},
		{[]float64{0, 0}, 1},
	} {
		if got := JainIndex(tt.xs); math.Abs(got-tt.want) > 1e-12 {
			t.Errorf("JainIndex(%v) = %v, want %v", tt.xs, got, tt.want)
		}
	}
	if !math.IsNaN(JainIndex(nil)) {
		t.Error("no shares have an index")
	}
}
