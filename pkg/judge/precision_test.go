package judge

import (
	"math"
	"strings"
	"testing"
)

// The precision rule reads each cell's interval of the median (90% or
// more) from its order statistics: with 5 runs, their range (the median
// of 100, 102, 104, 106, 108 is 104, within -4 and +4: ±3.85%), which
// holds the median with probability 1 − 2/2⁵ = 93.75%, and the text says
// so; with fewer, none. With 7 runs the narrowest interval of 90% or more
// is the 1st to the 6th value (or the 2nd to the 7th): 1 − 1/2⁷ − 8/2⁷ =
// 92.97%, and cells of 7 and 5 runs are labelled "93–93.8%".
func TestPrecision(t *testing.T) {
	rule := Precision{Target: 0.05, Metrics: []Metric{{Kind: "total", Stat: "ops/s"}}}
	s := synthetic([]float64{100, 102, 104, 106, 108}, []float64{100, 150, 120}, 1000)
	rows := rule.Of(s)
	if len(rows) != 2 {
		t.Fatalf("rows %+v", rows)
	}
	if r := rows[0]; r.Runs != 5 || r.Median != 104 || math.Abs(r.HalfWidth-4.0/104) > 1e-12 || !r.Reached(0.05) || r.Need != 0 || math.Abs(r.Confidence-0.9375) > 1e-12 {
		t.Errorf("rollback: %+v, want ±3.85%% reached", r)
	}
	if r := rows[1]; r.Runs != 3 || !math.IsInf(r.HalfWidth, 1) || r.Reached(0.05) {
		t.Errorf("wal, 3 runs: %+v, want no interval", r)
	}
	if rule.Done(rows) {
		t.Error("done with a cell of no interval")
	}
	text := PrecisionText(0.05, 3, "--max-repeats 3", rows)
	if want := "precision ±5.00% (93.8% interval of the median): NOT reached after 3 repeats (--max-repeats 3): journal=wal total ops/s has no interval yet (3 runs; 5 needed)"; text != want {
		t.Errorf("text\n%s\nwant\n%s", text, want)
	}

	// Wider than the target: the runs the spread says it needs, by 1/√n.
	s = synthetic([]float64{90, 100, 110, 95, 105}, []float64{100, 102, 104, 106, 108}, 1000)
	rows = rule.Of(s)
	r := rows[0] // median 100, range 90–110: ±10%
	if math.Abs(r.HalfWidth-0.10) > 1e-12 || r.Need != 20 {
		t.Errorf("±10%% of 5 runs: %+v, want 20 runs to reach ±5%%", r)
	}
	if text := PrecisionText(0.05, 5, "--max-time 1m0s", rows); !strings.HasSuffix(text, "NOT reached after 5 repeats (--max-time 1m0s): journal=rollback total ops/s ±10.0%; at this spread about 20 repeats would reach it") {
		t.Errorf("text %s", text)
	}
	if text := PrecisionText(0.05, 5, "--max-time 1m0s", rows); !strings.HasPrefix(text, "precision ±5.00% (93.8% interval of the median)") {
		t.Errorf("5 runs a cell labelled %s", text)
	}
	s7 := synthetic([]float64{100, 101, 102, 103, 104, 105, 106}, []float64{100, 102, 104, 106, 108}, 1000)
	if text := PrecisionText(0.05, 7, "reached", rule.Of(s7)); !strings.HasPrefix(text, "precision ±5.00% (93–93.8% interval of the median)") {
		t.Errorf("7 and 5 runs labelled %s", text)
	}
	if r := rule.Of(s7)[0]; math.Abs(r.Confidence-119.0/128) > 1e-12 {
		t.Errorf("7 runs: %+v, want confidence 119/128", r)
	}
	rule.Target = 0.2
	if rows := rule.Of(s); !rule.Done(rows) || !strings.HasSuffix(PrecisionText(0.2, 5, "reached", rows), "reached after 5 repeats (widest: journal=rollback total ops/s ±10.0%)") {
		t.Errorf("±20%%: %+v %s", rows, PrecisionText(0.2, 5, "reached", rows))
	}
}
