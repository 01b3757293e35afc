package steady

import (
	"math"
	"testing"
)

// series are synthetic runs with a known shape, and MSER-5's cut on each
// as an independent, naive computation gave it (Python, O(m²): for every
// d leaving 10 batches or more, the batch means' squared deviations after
// d over (m-d)²; then the first d within 3·√(2/(m-d*-1)) of the least,
// d* the least's). The strict minimum is at 30 for the transient and 90
// (the bound) for the ramp.
func series(kind string) []float64 {
	xs := make([]float64, 500)
	for i := range xs {
		f := float64(i)
		switch kind {
		case "transient": // a start 10 above the steady level, decaying
			xs[i] = 10*math.Exp(-f/40) + math.Sin(f*1.7)
		case "flat":
			xs[i] = 5 + math.Sin(f*1.7) + 0.5*math.Cos(f*0.31)
		case "ramp": // still rising at the end
			xs[i] = f*0.05 + math.Sin(f*1.7)
		}
	}
	return xs
}

func TestMSER5(t *testing.T) {
	for _, tc := range []struct {
		kind   string
		drop   int
		steady bool
	}{
		{"transient", 21, true}, // 105 observations: the transient is 0.72 there, inside the noise (±1)
		{"flat", 0, true},
		{"ramp", 75, false},
	} {
		t.Run(tc.kind, func(t *testing.T) {
			c := MSER5(series(tc.kind))
			if c.Batches != 100 || c.Drop != tc.drop || c.Steady != tc.steady {
				t.Errorf("MSER5 = %+v, want 100 batches, drop %d, steady %v", c, tc.drop, tc.steady)
			}
		})
	}
}

// A noisy flat series whose last two batches happen to agree is steady: the
// textbook rule, which lets a cut leave two batches, chose that end (score
// 0) and called the series unsettled.
func TestMSER5NoisyTail(t *testing.T) {
	xs := make([]float64, 300)
	for i := range xs {
		xs[i] = 5 + math.Sin(float64(i)*1.7)*math.Cos(float64(i)*0.93)
		if i >= 290 {
			xs[i] = 5 // the last two batches: equal
		}
	}
	if c := MSER5(xs); !c.Steady || c.Drop > 5 {
		t.Errorf("flat noise, equal last batches: %+v, want steady from (about) the start", c)
	}
}

func TestMSER5Short(t *testing.T) {
	if c := MSER5(series("transient")[:49]); c.Steady || c.Batches != 9 {
		t.Errorf("49 observations: %+v, want 9 batches and no steady state", c)
	}
}

func TestMSER5Gaps(t *testing.T) {
	xs := series("transient")
	for i := 0; i < 12; i++ {
		xs[i] = math.NaN() // nothing completed in the first intervals
	}
	for i := 200; i < 210; i++ {
		xs[i] = math.NaN()
	}
	c := MSER5(xs)
	if !c.Steady || c.Drop < 18 || c.Drop > 35 {
		t.Errorf("with empty intervals: %+v, want a cut near 21 to 30 batches", c)
	}
	if c := MSER5([]float64{math.NaN(), math.NaN(), math.NaN(), math.NaN(), math.NaN()}); c.Batches != 0 || c.Steady {
		t.Errorf("nothing measured: %+v", c)
	}
}

func TestSlope(t *testing.T) {
	ys := []float64{100, 102, 104, 106, 108} // mean 104, +2 per step
	if got, want := Slope(ys), 2.0/104; math.Abs(got-want) > 1e-12 {
		t.Errorf("Slope = %v, want %v", got, want)
	}
	if got := Slope([]float64{3, 3, 3}); got != 0 {
		t.Errorf("flat: %v", got)
	}
	if got := Slope([]float64{1}); got != 0 {
		t.Errorf("one value: %v", got)
	}
}

func TestGroups(t *testing.T) {
	for _, tc := range []struct {
		counts []int64
		k      int64
		want   []int
	}{
		{[]int64{0, 0, 12, 0, 3, 9, 0}, 10, []int{0, 3, 6}}, // empty intervals join the next burst; a short tail is left out
		{[]int64{10, 10, 10}, 10, []int{0, 1, 2, 3}},
		{[]int64{0, 0, 5}, 10, nil},
		{nil, 10, nil},
	} {
		got := Groups(tc.counts, tc.k)
		if len(got) != len(tc.want) {
			t.Errorf("Groups(%v, %d) = %v, want %v", tc.counts, tc.k, got, tc.want)
			continue
		}
		for i := range got {
			if got[i] != tc.want[i] {
				t.Errorf("Groups(%v, %d) = %v, want %v", tc.counts, tc.k, got, tc.want)
				break
			}
		}
	}
}
