package steady

import (
	"math"
	"testing"
)

// series are synthetic runs with a known shape, and MSER-5's cut on each
// as an independent, naive computation gave it (Python, O(m²): for every
// d, the batch means' squared deviations after d over (m-d)²).
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
		{"transient", 30, true}, // 150 observations: the transient is < 1% of 10 after ~185
		{"flat", 0, true},
		{"ramp", 97, false},
	} {
		t.Run(tc.kind, func(t *testing.T) {
			c := MSER5(series(tc.kind))
			if c.Batches != 100 || c.Drop != tc.drop || c.Steady != tc.steady {
				t.Errorf("MSER5 = %+v, want 100 batches, drop %d, steady %v", c, tc.drop, tc.steady)
			}
		})
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
	if !c.Steady || c.Drop < 25 || c.Drop > 35 {
		t.Errorf("with empty intervals: %+v, want a cut near 30 batches", c)
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
