package report

import (
	"bytes"
	"strings"
	"testing"
	"time"

	hdr "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/gobench/gobench/pkg/result"
	"github.com/gobench/gobench/pkg/workload"
)

// second is one second of a phase's timeline with n ops of kind, the
// second lasting span.
func second(phase int, start time.Time, sec int64, span float64, kind string, n int64) result.Interval {
	h := hdr.New(result.HistogramMin, result.HistogramMax, 2)
	h.RecordValues(int64(time.Millisecond), n)
	iv := result.Interval{Phase: phase, Start: start, Second: result.Second{Second: sec, Ops: []result.SecondOps{{Kind: kind, Count: n}}},
		Histograms: map[string]*hdr.Histogram{kind: h}}
	if span < 1 {
		iv.Second.Length = span
	}
	return iv
}

// The interval log reads back with hdrhistogram-go's reader: the warm-up
// left out, each second timed from its own phase's START to the
// millisecond and as long as it lasted, tagged by phase and kind, the
// header based at the first measured START.
func TestIntervalLog(t *testing.T) {
	p := workload.DefaultPlan()
	p.Warmup = &workload.Phase{Name: "warm-up"}
	p.Phases = []workload.Phase{{Name: "load"}, {Name: "read mix"}}
	load := time.UnixMilli(1_700_000_000_250)
	mix := load.Add(3*time.Second + 125*time.Millisecond)
	var buf bytes.Buffer
	l := NewIntervalLog(&buf, &p, time.Time{})
	for _, iv := range []result.Interval{
		second(0, load.Add(-time.Second), 0, 1, "read", 7), // the warm-up
		second(1, load, 0, 1, "upsert", 100),
		second(1, load, 1, 1, "upsert", 200),
		second(2, mix, 0, 0.25, "read", 40),
	} {
		if err := l.Write(iv); err != nil {
			t.Fatal(err)
		}
	}
	if !strings.Contains(buf.String(), "#[StartTime: 1700000000.250 (seconds since epoch), 2023-11-14T22:13:20.250Z]") {
		t.Errorf("header not based at the first measured START:\n%s", buf.String())
	}
	type want struct {
		tag      string
		from, to int64 // ms
		count    int64
	}
	wants := []want{
		{"load:upsert", load.UnixMilli(), load.UnixMilli() + 1000, 100},
		{"load:upsert", load.UnixMilli() + 1000, load.UnixMilli() + 2000, 200},
		{"readmix:read", mix.UnixMilli(), mix.UnixMilli() + 250, 40},
	}
	r := hdr.NewHistogramLogReader(&buf)
	for i := 0; ; i++ {
		h, err := r.NextIntervalHistogram()
		if err != nil {
			t.Fatal(err)
		}
		if h == nil {
			if i != len(wants) {
				t.Fatalf("%d intervals, want %d", i, len(wants))
			}
			break
		}
		if i >= len(wants) {
			t.Fatalf("an interval more than the %d measured: %s", len(wants), h.Tag())
		}
		w := wants[i]
		// The reader turns seconds into milliseconds by truncation: 1 ms.
		if h.Tag() != w.tag || h.TotalCount() != w.count || abs(h.StartTimeMs()-w.from) > 1 || abs(h.EndTimeMs()-w.to) > 1 {
			t.Errorf("interval %d: %s, %d ops, %d–%d ms; want %+v", i, h.Tag(), h.TotalCount(), h.StartTimeMs(), h.EndTimeMs(), w)
		}
	}
}

func abs(n int64) int64 { return max(n, -n) }
