package judge

import (
	"math"
	"strings"
	"testing"
)

// The precision rule reads each cell's 90% interval of the median from
// its order statistics: with 5 runs, their range (the median of 100, 102,
// 104, 106, 108 is 104, within -4 and +4: ±3.85%); with fewer, none.
func TestPrecision(t *testing.T) {
	rule := Precision{Target: 0.05, Metrics: []Metric{{Kind: "total", Stat: "ops/s"}}}
	s := synthetic([]float64{100, 102, 104, 106, 108}, []float64{100, 150, 120}, 1000)
	rows := rule.Of(s)
	if len(rows) != 2 {
		t.Fatalf("rows %+v", rows)
	}
	if r := rows[0]; r.Runs != 5 || r.Median != 104 || math.Abs(r.HalfWidth-4.0/104) > 1e-12 || !r.Reached(0.05) || r.Need != 0 {
		t.Errorf("rollback: %+v, want ±3.85%% reached", r)
	}
	if r := rows[1]; r.Runs != 3 || !math.IsInf(r.HalfWidth, 1) || r.Reached(0.05) {
		t.Errorf("wal, 3 runs: %+v, want no interval", r)
	}
	if rule.Done(rows) {
		t.Error("done with a cell of no interval")
	}
	text := PrecisionText(0.05, 3, "--max-repeats 3", rows)
	if want := "precision ±5.00% (90% interval of the median): NOT reached after 3 repeats (--max-repeats 3): journal=wal total ops/s has no interval yet (3 runs; 5 needed)"; text != want {
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
	rule.Target = 0.2
	if rows := rule.Of(s); !rule.Done(rows) || !strings.HasSuffix(PrecisionText(0.2, 5, "reached", rows), "reached after 5 repeats (widest: journal=rollback total ops/s ±10.0%)") {
		t.Errorf("±20%%: %+v %s", rows, PrecisionText(0.2, 5, "reached", rows))
	}
}
