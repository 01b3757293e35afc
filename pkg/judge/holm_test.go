package judge

import (
	"math"
	"math/bits"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// Holm's step-down, computed by hand: the p-values sorted, the i-th
// smallest (from 0) held to alpha/(n-i), rejections up to the first that
// fails and none after it, whatever their size.
func TestHolm(t *testing.T) {
	for _, tt := range []struct {
		name   string
		ps     []float64
		alpha  float64
		reject []bool
		limit  []float64
	}{
		// 0.01 ≤ 0.05/4 = 0.0125; 0.015 ≤ 0.05/3 = 0.0167; 0.03 > 0.05/2
		// = 0.025 stops it, so 0.04 ≤ 0.05/1 is not rejected either.
		{"stops at the third", []float64{0.04, 0.01, 0.03, 0.015}, 0.05,
			[]bool{false, true, false, true}, []float64{0.05, 0.0125, 0.025, 0.05 / 3}},
		// Bonferroni would reject only 0.004 (≤ 0.05/3); Holm goes on:
		// 0.02 ≤ 0.025 and 0.05 ≤ 0.05.
		{"more than Bonferroni", []float64{0.05, 0.004, 0.02}, 0.05,
			[]bool{true, true, true}, []float64{0.05, 0.05 / 3, 0.025}},
		// The smallest fails its step: nothing is rejected.
		{"none", []float64{0.02, 0.3, 0.9}, 0.05,
			[]bool{false, false, false}, []float64{0.05 / 3, 0.025, 0.05}},
		// 12 rows of an A/A pair at 5 repeats a side, one of them with
		// every new repeat worse (one-sided p 1/252 ≈ 0.00397 ≤ 0.05/12 ≈
		// 0.00417), the others unremarkable; tied p-values take successive
		// ranks.
		{"one row of twelve apart", append([]float64{1.0 / 252}, slices.Repeat([]float64{0.5}, 11)...), 0.05,
			append([]bool{true}, make([]bool, 11)...), []float64{0.05 / 12, 0.05 / 11, 0.05 / 10, 0.05 / 9, 0.05 / 8, 0.05 / 7, 0.05 / 6, 0.05 / 5, 0.05 / 4, 0.05 / 3, 0.05 / 2, 0.05}},
		// 3 repeats a side: one-sided p at best 1/20 = 0.05; alone it is
		// rejected, as the 90% interval would; with a second row, not.
		{"three repeats, one row", []float64{0.05}, 0.05, []bool{true}, []float64{0.05}},
		{"three repeats, two rows", []float64{0.05, 0.05}, 0.05, []bool{false, false}, []float64{0.025, 0.05}},
		{"empty", nil, 0.05, []bool{}, []float64{}},
	} {
		reject, limit := Holm(tt.ps, tt.alpha)
		if !slices.Equal(reject, tt.reject) {
			t.Errorf("%s: reject %v, want %v", tt.name, reject, tt.reject)
		}
		if len(limit) != len(tt.limit) {
			t.Fatalf("%s: limits %v, want %v", tt.name, limit, tt.limit)
		}
		for i := range limit {
			if math.Abs(limit[i]-tt.limit[i]) > 1e-12 {
				t.Errorf("%s: limit %d = %v, want %v", tt.name, i, limit[i], tt.limit[i])
			}
		}
	}
}

// pWorse against the exact permutation distribution counted by hand: with
// 3 new and 3 old, the 20 ways to split six values put all three new
// above all three old once (1/20), and the two samples interleaved as
// observed below (U = 8 of 9 pairs worse) twice or less (2/20).
func TestPWorse(t *testing.T) {
	old := []float64{10, 11, 12}
	for _, tt := range []struct {
		name   string
		new    []float64
		bound  float64
		higher bool
		want   float64
	}{
		{"every new worse (lower is better)", []float64{13, 14, 15}, 1, false, 1.0 / 20},
		{"eight of nine pairs worse", []float64{11.5, 14, 15}, 1, false, 2.0 / 20},
		{"every new better", []float64{7, 8, 9}, 1, false, 1},
		{"every new worse (higher is better)", []float64{7, 8, 9}, 1, true, 1.0 / 20},
		// Against 1.1 × old (11, 12.1, 13.2): 12.5 beats two, 14 and 15
		// all three, U = 8 as above.
		{"worse than a 10% regression", []float64{12.5, 14, 15}, 1.1, false, 2.0 / 20},
	} {
		if got := pWorse(tt.new, old, tt.bound, tt.higher); math.Abs(got-tt.want) > 1e-12 {
			t.Errorf("%s: p = %v, want %v", tt.name, got, tt.want)
		}
	}
}

// A comparison of many rows holds the regressions their rules call to
// Holm over every row judged: 3 repeats a side call a 30% slowdown of
// one row a regression, as before, but of two rows each at one-sided p
// 1/20 neither survives Holm's first step (0.025), and both become
// inconclusive, saying so; 5 repeats a side (p 1/252) keep both.
func TestCompareHolm(t *testing.T) {
	ms := []Metric{tp, cpuM}
	for _, tt := range []struct {
		name    string
		repeats int
		metrics []Metric
		want    string
		held    int
	}{
		{"one row, 3 repeats", 3, ms[:1], OutcomeRegression, 1},
		{"two rows, 3 repeats", 3, ms, OutcomeInconclusive, 0},
		{"two rows, 5 repeats", 5, ms, OutcomeRegression, 2},
	} {
		c, err := Compare("old", fileOf(steady[:tt.repeats], 5, quiet), "new", fileOf(scaled(steady[:tt.repeats], 0.7), 6.6, quiet), tt.metrics, CompareOptions{MaxRegression: 0.1})
		if err != nil {
			t.Fatal(err)
		}
		h := c.Holm
		if h == nil || h.Rows != len(tt.metrics) || h.Called != len(tt.metrics) || h.Held != tt.held || c.Outcome != tt.want {
			t.Fatalf("%s: holm %+v, outcome %s", tt.name, h, c.Outcome)
		}
		for _, r := range c.Rows {
			if r.Outcome != tt.want {
				t.Errorf("%s: %s %s (%s)", tt.name, r.Metric, r.Outcome, r.Why)
			}
			if tt.want == OutcomeInconclusive && !strings.Contains(r.Why, "but Holm over 2 rows judged, at 5% family-wise, does not keep it: its one-sided p is 0.05, and Holm stopped at a p of 0.05 against a limit of 0.025") {
				t.Errorf("%s: why %q", tt.name, r.Why)
			}
		}
		if !strings.HasPrefix(h.String(), "Holm over ") {
			t.Errorf("%s: %s", tt.name, h)
		}
	}
}

// pWorse with ties against the exact permutation distribution with
// mid-ranks, counted by exhaustive enumeration of every split (Python's
// itertools.combinations, as fractions): where values tie, U takes
// half-integers, and a distribution without ties cannot give its tail.
// Samples of one value carry no evidence: p is 1, whatever their size.
func TestPWorseTies(t *testing.T) {
	for _, tt := range []struct {
		name     string
		new, old []float64
		want     float64
	}{
		// U = 20.5 of 25; 16 of the 252 splits reach it (the tail of U
		// without ties at 4 would say 12/252 = 0.047619).
		{"5+5, two ties across", []float64{3, 4, 5, 6, 7}, []float64{1, 2, 3, 4, 5}, 4.0 / 63},
		{"4+5, ties within and across", []float64{2, 2, 3, 3}, []float64{1, 1, 2, 2, 3}, 4.0 / 21},
		{"4+3, one value shared by four", []float64{5, 5, 5, 6}, []float64{4, 5, 5}, 2.0 / 7},
		{"3+3 all equal", []float64{30, 30, 30}, []float64{30, 30, 30}, 1},
		{"5+5 all equal", slices.Repeat([]float64{30}, 5), slices.Repeat([]float64{30}, 5), 1},
		{"6+6 all equal", slices.Repeat([]float64{30}, 6), slices.Repeat([]float64{30}, 6), 1},
		{"60+60 all equal (normal)", slices.Repeat([]float64{30}, 60), slices.Repeat([]float64{30}, 60), 1},
	} {
		if got := pWorse(tt.new, tt.old, 1, false); math.Abs(got-tt.want) > 1e-12 {
			t.Errorf("%s: p = %v, want %v", tt.name, got, tt.want)
		}
		// The same, of a higher-is-better figure: negated values.
		neg := func(v []float64) []float64 {
			out := make([]float64, len(v))
			for i := range v {
				out[i] = -v[i]
			}
			return out
		}
		if got := pWorse(neg(tt.new), neg(tt.old), 1, true); math.Abs(got-tt.want) > 1e-12 {
			t.Errorf("%s, higher is better: p = %v, want %v", tt.name, got, tt.want)
		}
	}
	// Above exactUTest pairs, the normal approximation with the tie
	// correction and half a pair of continuity: 60 new values and 50
	// old, in groups of three ties, U = 2031 of 3000 (Python's
	// math.erfc on the textbook formula).
	var big1, big2 []float64
	for i := range 60 {
		big1 = append(big1, float64(i/3+2))
	}
	for i := range 50 {
		big2 = append(big2, float64(i/3))
	}
	if got, want := pWorse(big1, big2, 1, false), 0.0007151596320982006; math.Abs(got-want) > 1e-12 {
		t.Errorf("60+50 with ties (normal): p = %v, want %v", got, want)
	}
}

// The exact tie-aware tail against exhaustive enumeration of every split
// of small samples drawn from few values (many ties), in the test itself.
func TestPWorseEnumerated(t *testing.T) {
	u := func(x, y []float64) float64 {
		s := 0.0
		for _, a := range x {
			for _, b := range y {
				switch {
				case a > b:
					s++
				case a == b:
					s += 0.5
				}
			}
		}
		return s
	}
	brute := func(x, y []float64) float64 {
		pool := append(slices.Clone(x), y...)
		n, n1, obs := len(pool), len(x), u(x, y)
		hit, all := 0, 0
		for mask := 0; mask < 1<<n; mask++ {
			if bits.OnesCount(uint(mask)) != n1 {
				continue
			}
			var a, b []float64
			for i, v := range pool {
				if mask&(1<<i) != 0 {
					a = append(a, v)
				} else {
					b = append(b, v)
				}
			}
			all++
			if u(a, b) >= obs {
				hit++
			}
		}
		return float64(hit) / float64(all)
	}
	rng := rand.New(rand.NewPCG(47, 6))
	for range 200 {
		n1, n2 := 1+rng.IntN(6), 1+rng.IntN(6)
		x, y := make([]float64, n1), make([]float64, n2)
		for i := range x {
			x[i] = float64(rng.IntN(4))
		}
		for i := range y {
			y[i] = float64(rng.IntN(4))
		}
		if got, want := pWorse(x, y, 1, false), brute(x, y); math.Abs(got-want) > 1e-12 {
			t.Errorf("new %v old %v: p = %v, enumeration %v", x, y, got, want)
		}
	}
}
