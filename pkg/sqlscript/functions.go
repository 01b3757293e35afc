package sqlscript

import (
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
)

// State is one worker's variables and random generator. The same seed
// and worker give the same sequence of values, whatever runs the SQL.
// Variables live in slots, found by name once per command (see Script).
type State struct {
	slots map[string]int // each variable's place in vals
	vals  []Value
	isSet []bool
	stack []Value // function arguments under evaluation
	rng   *rand.Rand
	seed  uint64 // :default_seed, for hash and permute
}

// Predefined variables, set in every State.
const (
	VarClientID    = "client_id"    // the worker's id
	VarScale       = "scale"        // --scale
	VarDefaultSeed = "default_seed" // the seed hash and permute use by default
)

// NewState returns the state of a worker: its own generator, from seed and
// the worker's id, and the predefined variables.
func NewState(seed uint64, worker int, scale int64) *State {
	s := &State{
		slots: map[string]int{},
		rng:   rand.New(rand.NewPCG(mix64(seed), mix64(seed^mix64(uint64(worker)+1)))),
		seed:  mix64(seed ^ 0x5eed),
	}
	s.Set(VarClientID, IntValue(int64(worker)))
	s.Set(VarScale, IntValue(scale))
	s.Set(VarDefaultSeed, IntValue(int64(s.seed)))
	return s
}

// slot returns the place of the variable name, making one for a name not
// seen yet (unset).
func (s *State) slot(name string) int {
	i, ok := s.slots[name]
	if !ok {
		i = len(s.vals)
		s.slots[name] = i
		s.vals = append(s.vals, Value{})
		s.isSet = append(s.isSet, false)
	}
	return i
}

// Get returns a variable's value.
func (s *State) Get(name string) (Value, bool) {
	i, ok := s.slots[name]
	if !ok || !s.isSet[i] {
		return Value{}, false
	}
	return s.vals[i], true
}

// Set sets a variable.
func (s *State) Set(name string, v Value) {
	i := s.slot(name)
	s.vals[i], s.isSet[i] = v, true
}

// at returns the value in slot i, and whether it was set.
func (s *State) at(i int) (Value, bool) { return s.vals[i], s.isSet[i] }

// mix64 is SplitMix64's finaliser: a bijective mix of 64 bits.
func mix64(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// function is one function of \set expressions.
type function struct {
	min, max int
	impl     func(s *State, args []Value) (Value, error)
}

func (f *function) arity() string {
	switch {
	case f.min == f.max:
		return plural(f.min, "argument")
	case f.max == math.MaxInt:
		return "at least " + plural(f.min, "argument")
	}
	return fmt.Sprintf("%d or %d arguments", f.min, f.max)
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return strconv.Itoa(n) + " " + what + "s"
}

// functions are pgbench's functions that scripts use, with pgbench's
// rules for their arguments, and random_text, which pgbench lacks.
var functions = map[string]*function{
	"abs":                {1, 1, fnAbs},
	"int":                {1, 1, func(_ *State, a []Value) (Value, error) { i, err := a[0].int(); return IntValue(i), err }},
	"double":             {1, 1, func(_ *State, a []Value) (Value, error) { f, err := a[0].float(); return FloatValue(f), err }},
	"sqrt":               {1, 1, fnSqrt},
	"pi":                 {0, 0, func(*State, []Value) (Value, error) { return FloatValue(math.Pi), nil }},
	"mod":                {2, 2, fnMod},
	"greatest":           {1, math.MaxInt, func(_ *State, a []Value) (Value, error) { return extreme(a, 1) }},
	"least":              {1, math.MaxInt, func(_ *State, a []Value) (Value, error) { return extreme(a, -1) }},
	"random":             {2, 2, fnRandom},
	"random_exponential": {3, 3, fnRandomExponential},
	"random_gaussian":    {3, 3, fnRandomGaussian},
	"random_zipfian":     {3, 3, fnRandomZipfian},
	"hash":               {1, 2, fnHashMurmur2},
	"hash_murmur2":       {1, 2, fnHashMurmur2},
	"hash_fnv1a":         {1, 2, fnHashFNV1a},
	"permute":            {2, 3, fnPermute},
	"random_text":        {1, 1, fnRandomText},
}

func functionNames() string {
	names := make([]string, 0, len(functions))
	for n := range functions {
		names = append(names, n)
	}
	slices.Sort(names)
	return strings.Join(names, ", ")
}

// ints reads the arguments as integers.
func ints(a []Value) ([]int64, error) {
	out := make([]int64, len(a))
	for i, v := range a {
		if v.Kind != Int {
			return nil, fmt.Errorf("argument %d is %s, not an integer", i+1, v)
		}
		out[i] = v.I
	}
	return out, nil
}

func fnAbs(_ *State, a []Value) (Value, error) {
	switch a[0].Kind {
	case Int:
		if a[0].I == math.MinInt64 {
			return Value{}, errRange
		}
		return IntValue(max(a[0].I, -a[0].I)), nil
	case Float:
		return FloatValue(math.Abs(a[0].F)), nil
	}
	return Value{}, fmt.Errorf("%s is text, not a number", a[0])
}

func fnSqrt(_ *State, a []Value) (Value, error) {
	f, err := a[0].float()
	if err == nil && f < 0 {
		err = fmt.Errorf("square root of %v", f)
	}
	return FloatValue(math.Sqrt(f)), err
}

func fnMod(_ *State, a []Value) (Value, error) {
	n, err := ints(a)
	if err != nil {
		return Value{}, err
	}
	return intOp('%', n[0], n[1])
}

// extreme returns the greatest (sign 1) or least (sign -1) argument: an
// integer when all are, else a double.
func extreme(a []Value, sign float64) (Value, error) {
	best, allInt := a[0], true
	for _, v := range a {
		f, err := v.float()
		if err != nil {
			return Value{}, err
		}
		bf, _ := best.float()
		if sign*f > sign*bf {
			best = v
		}
		allInt = allInt && v.Kind == Int
	}
	if !allInt {
		f, _ := best.float()
		return FloatValue(f), nil
	}
	return best, nil
}

// uniform returns an integer in [lo, hi], every one equally likely.
func (s *State) uniform(lo, hi int64) int64 {
	span := uint64(hi) - uint64(lo)
	if span == math.MaxUint64 {
		return int64(s.rng.Uint64())
	}
	return lo + int64(s.rng.Uint64N(span+1))
}

// bounds reads the first two arguments as an ordered integer range.
func bounds(a []Value) (lo, hi int64, err error) {
	for i, v := range a[:2] {
		if v.Kind != Int {
			return 0, 0, fmt.Errorf("argument %d is %s, not an integer", i+1, v)
		}
	}
	lo, hi = a[0].I, a[1].I
	if lo > hi {
		return 0, 0, fmt.Errorf("empty range: %d > %d", lo, hi)
	}
	return lo, hi, nil
}

func fnRandom(s *State, a []Value) (Value, error) {
	lo, hi, err := bounds(a)
	if err != nil {
		return Value{}, err
	}
	return IntValue(s.uniform(lo, hi)), nil
}

// scaled maps r in [0, 1) onto [lo, hi].
func scaled(lo, hi int64, r float64) int64 {
	return lo + int64(float64(uint64(hi)-uint64(lo)+1)*r)
}

// fnRandomExponential is pgbench's: a truncated exponential of the given
// parameter (> 0), lo the most frequent.
func fnRandomExponential(s *State, a []Value) (Value, error) {
	lo, hi, err := bounds(a)
	if err != nil {
		return Value{}, err
	}
	p, err := a[2].float()
	if err != nil || p <= 0 {
		return Value{}, fmt.Errorf("parameter must be greater than 0 (got %s)", a[2])
	}
	cut := math.Exp(-p)
	u := 1 - s.rng.Float64() // (0, 1]
	r := -math.Log(cut+(1-cut)*u) / p
	return IntValue(scaled(lo, hi, r)), nil
}

// minGaussian is the smallest parameter random_gaussian takes (pgbench's).
const minGaussian = 2.0

// fnRandomGaussian is pgbench's: a normal distribution truncated to ±
// parameter standard deviations (≥ 2), centred on the middle of the range.
func fnRandomGaussian(s *State, a []Value) (Value, error) {
	lo, hi, err := bounds(a)
	if err != nil {
		return Value{}, err
	}
	p, err := a[2].float()
	if err != nil || p < minGaussian {
		return Value{}, fmt.Errorf("parameter must be at least %v (got %s)", minGaussian, a[2])
	}
	var sd float64
	for {
		u1, u2 := 1-s.rng.Float64(), s.rng.Float64()
		sd = math.Sqrt(-2*math.Log(u1)) * math.Sin(2*math.Pi*u2)
		if sd >= -p && sd < p {
			break
		}
	}
	return IntValue(scaled(lo, hi, (sd+p)/(2*p))), nil
}

// Zipfian parameters pgbench accepts.
const (
	minZipf = 1.001
	maxZipf = 1000
)

// fnRandomZipfian is pgbench's: a Zipf distribution of parameter s in
// [1.001, 1000] over the range, lo the most frequent, drawn by rejection
// (Devroye's method, as pgbench).
func fnRandomZipfian(st *State, a []Value) (Value, error) {
	lo, hi, err := bounds(a)
	if err != nil {
		return Value{}, err
	}
	s, err := a[2].float()
	if err != nil || s < minZipf || s > maxZipf {
		return Value{}, fmt.Errorf("parameter must be in [%v, %v] (got %s)", minZipf, float64(maxZipf), a[2])
	}
	n := float64(uint64(hi)-uint64(lo)) + 1
	if n <= 1 {
		return IntValue(lo), nil
	}
	b := math.Pow(2, s-1)
	for {
		u, v := 1-st.rng.Float64(), st.rng.Float64()
		x := math.Floor(math.Pow(u, -1/(s-1)))
		t := math.Pow(1+1/x, s-1)
		if v*x*(t-1)/(b-1) <= t/b && x <= n {
			return IntValue(lo + int64(x) - 1), nil
		}
	}
}

// seedArg returns the optional seed argument, or the state's default.
func (s *State) seedArg(a []Value, i int) (uint64, error) {
	if len(a) <= i {
		return s.seed, nil
	}
	if a[i].Kind != Int {
		return 0, fmt.Errorf("seed %s is not an integer", a[i])
	}
	return uint64(a[i].I), nil
}

// fnHashMurmur2 is pgbench's hash_murmur2 of a 64-bit value.
func fnHashMurmur2(s *State, a []Value) (Value, error) {
	return hashed(s, a, func(v int64, seed uint64) uint64 {
		const mul, mulTimes8, rot = 0xc6a4a7935bd1e995, 0x35253c9ade8f4ca8, 47 // pgbench's MM2_ constants
		r := seed ^ mulTimes8
		k := uint64(v) * mul
		k ^= k >> rot
		k *= mul
		r ^= k
		r *= mul
		r ^= r >> rot
		r *= mul
		r ^= r >> rot
		return r
	})
}

// hashed reads a hash function's value and optional seed and applies h.
func hashed(s *State, a []Value, h func(v int64, seed uint64) uint64) (Value, error) {
	n, err := ints(a[:1])
	if err != nil {
		return Value{}, err
	}
	seed, err := s.seedArg(a, 1)
	if err != nil {
		return Value{}, err
	}
	return IntValue(int64(h(n[0], seed))), nil
}

// fnHashFNV1a is pgbench's hash_fnv1a of a 64-bit value.
func fnHashFNV1a(s *State, a []Value) (Value, error) {
	return hashed(s, a, func(v int64, seed uint64) uint64 {
		const prime, basis = 0x100000001b3, 0xcbf29ce484222325
		r, u := uint64(basis)^seed, uint64(v)
		for range 8 {
			r ^= u & 0xff
			r *= prime
			u >>= 8
		}
		return r
	})
}

// fnPermute returns the position of i (taken modulo size) in a
// pseudorandom permutation of [0, size) chosen by the seed: every value
// once, scattered. It keys a bijective mix of the smallest power of two
// that holds size and walks the cycle until it lands inside the range.
// (pgbench's permute is also a keyed bijection; its values differ.)
func fnPermute(s *State, a []Value) (Value, error) {
	n, err := ints(a[:2])
	if err != nil {
		return Value{}, err
	}
	i, size := n[0], n[1]
	if size <= 0 {
		return Value{}, fmt.Errorf("size must be greater than 0 (got %d)", size)
	}
	seed, err := s.seedArg(a, 2)
	if err != nil {
		return Value{}, err
	}
	i %= size
	if i < 0 {
		i += size
	}
	return IntValue(int64(permute(uint64(i), uint64(size), seed))), nil
}

// permute maps x in [0, size) to its image under the seed's permutation.
func permute(x, size, seed uint64) uint64 {
	if size == 1 {
		return 0
	}
	nbits := bits.Len64(size - 1)
	mask := uint64(1)<<nbits - 1
	k1, k2 := mix64(seed)|1, mix64(seed+1)
	for {
		for range 3 { // each step is a bijection of [0, 2^nbits)
			x = (x * k1) & mask
			x ^= x >> (nbits/2 + 1)
			x = (x + k2) & mask
		}
		if x < size {
			return x
		}
	}
}

// maxText is the longest random_text value.
const maxText = 1 << 20

// textAlphabet is what random_text draws from: letters and digits, so the
// text is printable and never needs quoting.
const textAlphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"

// fnRandomText returns a text of n random letters and digits. pgbench
// has no such function (its scripts build strings in SQL); a SQLite
// benchmark needs text values of a given size to bind, so gobench adds it
// under a name in pgbench's random_ family.
func fnRandomText(s *State, a []Value) (Value, error) {
	n, err := ints(a)
	if err != nil {
		return Value{}, err
	}
	if n[0] < 0 || n[0] > maxText {
		return Value{}, fmt.Errorf("length %d is out of range (want 0 to %d)", n[0], maxText)
	}
	b := make([]byte, n[0])
	for i := range b {
		b[i] = textAlphabet[s.rng.IntN(len(textAlphabet))]
	}
	return TextValue(string(b)), nil
}
