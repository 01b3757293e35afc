package result

import (
	"slices"
	"testing"
	"time"

	hdr "github.com/HdrHistogram/hdrhistogram-go"
)

// interval is one second of a timeline with n ops of each kind, all of
// latency lat, the second lasting span.
func interval(sec int64, span float64, lat time.Duration, n map[string]int64) Interval {
	iv := Interval{Second: Second{Second: sec}, Histograms: map[string]*hdr.Histogram{}}
	if span < 1 {
		iv.Second.Length = span
	}
	for k, c := range n {
		iv.Second.Ops = append(iv.Second.Ops, SecondOps{Kind: k, Count: c})
		h := newTimelineHistogram()
		h.RecordValues(int64(lat), c)
		iv.Histograms[k] = h
	}
	return iv
}

// A window's rates divide by the time its seconds cover, a partial
// second counting for its share, and its percentiles come from the
// merged histograms.
func TestWindow(t *testing.T) {
	t.Parallel()
	w := NewWindow()
	if w.Rate("read") != 0 {
		t.Fatal("an empty window has a rate")
	}
	if _, ok := w.Percentile("read", 99); ok {
		t.Fatal("an empty window has a percentile")
	}
	w.Add(interval(0, 1, 100*time.Microsecond, map[string]int64{"read": 990, "upsert": 10}))
	w.Add(interval(1, 0.5, 5*time.Millisecond, map[string]int64{"read": 510}))
	if w.Seconds() != 1.5 {
		t.Errorf("Seconds = %v, want 1.5", w.Seconds())
	}
	if got := w.Kinds(); !slices.Equal(got, []string{"read", "upsert"}) {
		t.Errorf("Kinds = %v", got)
	}
	if got := w.Rate("read"); got != 1000 {
		t.Errorf("read rate %v/s, want 1500 ops over 1.5 s = 1000/s", got)
	}
	// 990 reads at 100 µs, 510 at 5 ms: the 99th percentile (rank 1485)
	// is among the slow ones, the 50th (rank 750) among the fast.
	p99, _ := w.Percentile("read", 99)
	p50, _ := w.Percentile("read", 50)
	if p99 < 4900*time.Microsecond || p99 > 5100*time.Microsecond || p50 < 99*time.Microsecond || p50 > 101*time.Microsecond {
		t.Errorf("read p50 %v, p99 %v; want about 100µs and 5ms", p50, p99)
	}
}
