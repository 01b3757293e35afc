package sqlscript

import (
	"errors"
	"math"
	"strings"
	"testing"
)

func eval(t *testing.T, src string, s *State) (Value, error) {
	t.Helper()
	e, err := ParseExpr(src)
	if err != nil {
		t.Fatalf("ParseExpr(%q): %v", src, err)
	}
	return e.eval(s)
}

func TestEval(t *testing.T) {
	t.Parallel()
	s := NewState(1, 3, 10)
	s.Set("x", IntValue(7))
	for _, tt := range []struct {
		src, want string
	}{
		{"1 + 2 * 3", "7"},
		{"(1 + 2) * 3", "9"},
		{"7 / 2", "3"},
		{"-7 / 2", "-3"},
		{"7 % 3", "1"},
		{"-7 % 3", "-1"},
		{"10 - 3 - 2", "5"},
		{"100 / 10 / 5", "2"},
		{"-:x", "-7"},
		{"- -3", "3"},
		{"7.0 / 2", "3.5"},
		{"1e3 + 1", "1001"},
		{":scale * 100000", "1000000"},
		{":client_id", "3"},
		{"abs(-4)", "4"},
		{"abs(-2.5)", "2.5"},
		{"int(2.9)", "2"},
		{"double(3)", "3"},
		{"sqrt(16)", "4"},
		{"greatest(1, :x, 3)", "7"},
		{"least(4, 2.5, 3)", "2.5"},
		{"mod(-7, 3)", "-1"},
		{"true + false", "1"},
		{"hash(10, 5432)", "-5817877081768721676"},
		{"hash_murmur2(-7, 0)", "-2376560325806870531"},
		{"hash_fnv1a(10, 5432)", "-7793829335365542153"},
		{"hash_fnv1a(-7, 0)", "-4637405028990054917"},
		{"-9223372036854775808", "-9223372036854775808"},
		{"-9223372036854775808 + 9223372036854775807", "-1"},
		{"9223372036854775807 - 1 + 1", "9223372036854775807"},
		{"-4611686018427387904 * 2", "-9223372036854775808"},
		{"int(-9223372036854775808.0)", "-9223372036854775808"},
		{"1e300 * 1e300", "+Inf"},
	} {
		v, err := eval(t, tt.src, s)
		if err != nil || v.String() != tt.want {
			t.Errorf("%s = %v, %v; want %s", tt.src, v, err, tt.want)
		}
	}
	if math.Abs(mustFloat(t, "pi()", s)-math.Pi) > 0 {
		t.Error("pi")
	}
}

func mustFloat(t *testing.T, src string, s *State) float64 {
	v, err := eval(t, src, s)
	if err != nil || v.Kind != Float {
		t.Fatalf("%s = %v, %v", src, v, err)
	}
	return v.F
}

// Run-time errors are ErrEval, a class of their own: an expression that
// fails on the values its variables hold. Integer arithmetic never wraps
// around: a result beyond 64 bits is pgbench's "bigint out of range".
func TestEvalErrors(t *testing.T) {
	t.Parallel()
	s := NewState(1, 0, 1)
	for name, v := range map[string]Value{
		"zero": IntValue(0), "one": IntValue(1), "five": IntValue(5), "minus": IntValue(-1),
		"max": IntValue(math.MaxInt64), "min": IntValue(math.MinInt64), "half": FloatValue(1.5),
		"big": FloatValue(1e19), "nan": FloatValue(math.NaN()), "t": TextValue("abc"),
	} {
		s.Set(name, v)
	}
	for _, tt := range []struct{ src, want string }{
		{"1 / :zero", "division by zero"},
		{"1 % :zero", "division by zero"},
		{":half / 0", "division by zero"},
		{"mod(3, :zero)", "division by zero"},
		{":min / :minus", "bigint out of range"},
		{":max + :one", "bigint out of range"},
		{":min - :one", "bigint out of range"},
		{":one - :min", "bigint out of range"},
		{":max * 2", "bigint out of range"},
		{":min * :minus", "bigint out of range"},
		{":minus * :min", "bigint out of range"},
		{"-:min", "bigint out of range"},
		{"abs(:min)", "out of range"},
		{"int(:big)", "double to int overflow"},
		{"int(-:big)", "double to int overflow"},
		{"int(:nan)", "double to int overflow"},
		{"random(:five, 1)", "empty range: 5 > 1"},
		{"random(:half, 3)", "not an integer"},
		{"random_exponential(1, 10, :zero)", "greater than 0"},
		{"random_gaussian(1, 10, :half)", "at least 2"},
		{"random_zipfian(1, 10, :one)", "in [1.001, 1000]"},
		{"permute(1, :zero)", "size must be greater than 0"},
		{"random_text(:minus)", "out of range"},
		{":t + 1", "is text"},
		{"sqrt(:minus)", "square root"},
	} {
		_, err := eval(t, tt.src, s)
		if err == nil || !errors.Is(err, ErrEval) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: %v, want ErrEval with %q", tt.src, err, tt.want)
		}
	}
}

// An operation on constants that cannot be computed is refused when the
// expression is parsed, naming the operation: it has no branch that
// could avoid it, so every run of the script would fail on it.
func TestConstantErrors(t *testing.T) {
	for _, tt := range []struct{ src, want string }{
		{"1 / 0", `"1 / 0" cannot be computed: division by zero`},
		{"1.5 / 0", `"1.5 / 0" cannot be computed: division by zero`},
		{"10 % 0", `"10 % 0" cannot be computed: division by zero`},
		{":scale + 1 / 0", `"1 / 0" cannot be computed`},
		{"9223372036854775807 + 1", `"9223372036854775807 + 1" cannot be computed: bigint out of range`},
		{"(-9223372036854775807 - 1) / -1", "bigint out of range"},
		{"-9223372036854775808 * -1", "bigint out of range"},
		{"-(-9223372036854775808)", "bigint out of range"},
		{"3037000500 * 3037000500", "bigint out of range"},
		{"abs(-9223372036854775808)", "bigint out of range"},
		{"int(1e19)", "double to int overflow"},
		{"mod(3, 0)", `"mod(3, 0)" cannot be computed: mod(): division by zero`},
		{"random(5, 1)", "random(): empty range: 5 > 1"},
		{"random(1.5, 3)", "not an integer"},
		{"random_exponential(1, 10, 0)", "greater than 0"},
		{"random_gaussian(1, 10, 1.5)", "at least 2"},
		{"random_zipfian(1, 10, 1)", "in [1.001, 1000]"},
		{"permute(1, 0)", "size must be greater than 0"},
		{"random_text(-1)", "out of range"},
		{"sqrt(-1)", "square root"},
		{"9223372036854775808", "the integer \"9223372036854775808\" is out of range"},
		{"99999999999999999999 + :scale", "is out of range"},
		{"1 + 2 + 3 + 4 + 5 + 6 + 7 + 8 + 9 + 10 + 9223372036854775807", `"1 + 2 + 3 + 4 + 5 + 6 + 7 + 8 + 9 + 10 +"… cannot be computed`},
	} {
		_, err := ParseExpr(tt.src)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("ParseExpr(%q) = %v, want an error with %q", tt.src, err, tt.want)
		}
	}
	// What is refused on constants is computed once, at parse time, when
	// it can be: a pure operation on constants becomes its value.
	e, err := ParseExpr("greatest(1, 2.5) * 2 + :scale")
	if err != nil {
		t.Fatal(err)
	}
	if b, ok := e.(*binary); !ok || !isConst(b.l) || b.l.(*literal).v.String() != "5" {
		t.Errorf("greatest(1, 2.5) * 2 was not computed at parse time: %#v", e)
	}
	// A function that draws random values is tried, not replaced.
	if e, err := ParseExpr("random(1, 10)"); err != nil || isConst(e) {
		t.Errorf("random(1, 10) = %#v, %v: want a call", e, err)
	}
}

// The same seed and worker give the same values; another worker others.
func TestDeterminism(t *testing.T) {
	t.Parallel()
	exprs := []string{"random(1, 1000000)", "random_zipfian(1, 1000, 1.2)", "random_exponential(1, 1000, 3)",
		"random_gaussian(1, 1000, 2.5)", "random_text(8)", "permute(:client_id, 1000)", "hash(:client_id)"}
	draw := func(seed uint64, worker int) string {
		s := NewState(seed, worker, 1)
		var out []string
		for range 50 {
			for _, e := range exprs {
				v, err := eval(t, e, s)
				if err != nil {
					t.Fatal(err)
				}
				out = append(out, v.String())
			}
		}
		return strings.Join(out, " ")
	}
	first, again := draw(42, 3), draw(42, 3)
	if first != again {
		t.Error("one seed and worker gave two sequences")
	}
	if first == draw(42, 4) || first == draw(43, 3) {
		t.Error("another worker or seed gave the same sequence")
	}
}

// Each random function stays in its range and has its shape: uniform
// flat, exponential and Zipfian with the low end most frequent, Gaussian
// centred.
func TestDistributions(t *testing.T) {
	t.Parallel()
	const n, lo, hi = 20000, 1, 100
	for _, tt := range []struct {
		expr  string
		check func(counts []int) string
	}{
		{"random(1, 100)", func(c []int) string {
			for i, k := range c[1:] {
				if k < n/100/2 || k > n/100*2 {
					return "uneven at " + itoa(i+1)
				}
			}
			return ""
		}},
		{"random_exponential(1, 100, 5)", func(c []int) string { return decreasing(c) }},
		{"random_zipfian(1, 100, 1.5)", func(c []int) string { return decreasing(c) }},
		{"random_gaussian(1, 100, 3)", func(c []int) string {
			if c[50]+c[51] < 5*(c[1]+c[2]+c[99]+c[100]) {
				return "not centred"
			}
			return ""
		}},
	} {
		s := NewState(7, 1, 1)
		counts := make([]int, hi+1)
		for range n {
			v, err := eval(t, tt.expr, s)
			if err != nil {
				t.Fatal(err)
			}
			if v.I < lo || v.I > hi {
				t.Fatalf("%s gave %d, outside [%d, %d]", tt.expr, v.I, lo, hi)
			}
			counts[v.I]++
		}
		if msg := tt.check(counts); msg != "" {
			t.Errorf("%s: %s: %v", tt.expr, msg, counts[1:11])
		}
	}
}

// decreasing checks the first values come in falling frequency.
func decreasing(c []int) string {
	for i := 1; i < 4; i++ {
		if c[i] <= c[i+1] {
			return "the low end is not the most frequent"
		}
	}
	return ""
}

func itoa(i int) string { return IntValue(int64(i)).String() }

// permute is a bijection of [0, size) for every size and seed, and not
// the identity.
func TestPermute(t *testing.T) {
	t.Parallel()
	for _, size := range []int64{1, 2, 3, 10, 97, 1000, 4096} {
		for _, seed := range []uint64{0, 1, 12345} {
			seen := make([]bool, size)
			moved := 0
			for i := range size {
				p := int64(permute(uint64(i), uint64(size), seed))
				if p < 0 || p >= size || seen[p] {
					t.Fatalf("size %d seed %d: %d → %d, out of range or twice", size, seed, i, p)
				}
				seen[p] = true
				if p != i {
					moved++
				}
			}
			if size >= 10 && moved < int(size)/2 {
				t.Errorf("size %d seed %d: only %d of %d moved", size, seed, moved, size)
			}
		}
	}
	// i is taken modulo size, negatives included.
	s := NewState(1, 0, 1)
	a, _ := eval(t, "permute(3, 10, 5)", s)
	b, _ := eval(t, "permute(-17, 10, 5)", s)
	if a.I != b.I {
		t.Errorf("permute(3) = %d, permute(-17) = %d: want the same (mod 10)", a.I, b.I)
	}
}

// FuzzExpr: no expression makes the parser or the evaluator panic.
func FuzzExpr(f *testing.F) {
	for _, s := range []string{"1 + 2 * 3", "random_zipfian(1, :scale, 1.5)", "-(-(1))", "permute(:client_id, 7, 2) % 3", "greatest(1, 2.5, -3)"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		e, err := ParseExpr(src)
		if err != nil {
			return
		}
		_, err = e.eval(NewState(1, 1, 1))
		if err != nil && !errors.Is(err, ErrEval) {
			t.Fatalf("%q: an error outside ErrEval: %v", src, err)
		}
	})
}
