package history

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// noisy returns n values around level, each within ±spread of it
// (seeded).
func noisy(rng *rand.Rand, n int, level, spread float64) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = level * (1 + spread*(2*rng.Float64()-1))
	}
	return out
}

func TestDetectorFind(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	withOutlier := noisy(rng, 16, 100, 0.02)
	withOutlier[8] = 400
	lastOutlier := noisy(rng, 12, 100, 0.02)
	lastOutlier[11] = 300
	cases := []struct {
		name string
		x    []float64
		want []int // indexes of the first point after each change
	}{
		{"a step of 30%", slices.Concat(noisy(rng, 6, 100, 0.02), noisy(rng, 6, 130, 0.02)), []int{6}},
		{"a step down of 25%", slices.Concat(noisy(rng, 9, 100, 0.02), noisy(rng, 7, 75, 0.02)), []int{9}},
		{"no step", noisy(rng, 12, 100, 0.02), nil},
		{"no step, noisier", noisy(rng, 30, 100, 0.04), nil},
		{"a single outlier", withOutlier, nil},
		{"a single outlier at the end", lastOutlier, nil},
		{"two steps", slices.Concat(noisy(rng, 8, 100, 0.02), noisy(rng, 8, 140, 0.02), noisy(rng, 8, 100, 0.02)), []int{8, 16}},
		{"a short excursion", slices.Concat(noisy(rng, 8, 100, 0.02), noisy(rng, 4, 140, 0.02), noisy(rng, 8, 100, 0.02)), []int{8, 12}},
		{"a step smaller than MinStep", slices.Concat(noisy(rng, 10, 100, 0.001), noisy(rng, 10, 103, 0.001)), nil},
		{"constant", slices.Repeat([]float64{5}, 10), nil},
		{"too short", []float64{1, 2, 3}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := DefaultDetector.Find(c.x)
			var at []int
			for _, s := range got {
				at = append(at, s.Index)
				if !(s.P > 0 && s.P <= DefaultDetector.Alpha) {
					t.Errorf("split at %d has p %g, want (0, %g]", s.Index, s.P, DefaultDetector.Alpha)
				}
			}
			if !slices.Equal(at, c.want) {
				t.Errorf("change points at %v, want %v (series %.4g)", at, c.want, c.x)
			}
			if again := DefaultDetector.Find(c.x); !slices.Equal(again, got) {
				t.Errorf("a second search found %v, the first %v: not deterministic", again, got)
			}
		})
	}
}

// TestQHatMatchesPairwise: the Fenwick trees' Q̂ is the definition's,
// computed from every pair.
func TestQHatMatchesPairwise(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	for _, n := range []int{2, 3, 5, 17, 40} {
		y := noisy(rng, n, 50, 0.5)
		y = append(y, y[0]) // a tie
		got := qHat(y, ranksOf(y), 1)
		for tau := 1; tau < len(y); tau++ {
			want := pairwiseQ(y, tau)
			if math.Abs(got[tau]-want) > 1e-9*math.Max(1, math.Abs(want)) {
				t.Errorf("n %d τ %d: Q̂ %g, pairwise %g", len(y), tau, got[tau], want)
			}
		}
	}
}

// pairwiseQ is Q̂(τ) of y from its definition.
func pairwiseQ(y []float64, tau int) float64 {
	l, r := y[:tau], y[tau:]
	a, b := float64(len(l)), float64(len(r))
	cross, inL, inR := 0.0, 0.0, 0.0
	for _, x := range l {
		for _, z := range r {
			cross += math.Abs(x - z)
		}
	}
	for i := range l {
		for j := i + 1; j < len(l); j++ {
			inL += math.Abs(l[i] - l[j])
		}
	}
	for i := range r {
		for j := i + 1; j < len(r); j++ {
			inR += math.Abs(r[i] - r[j])
		}
	}
	e := 2 * cross / (a * b)
	if len(l) > 1 {
		e -= inL / (a * (a - 1) / 2)
	}
	if len(r) > 1 {
		e -= inR / (b * (b - 1) / 2)
	}
	return a * b / (a + b) * e
}
