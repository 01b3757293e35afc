// Package generator holds the random generators YCSB's core workload
// draws from, as its Java source (site.ycsb.generator) defines them:
// zipfian, scrambled zipfian, hotspot, the lengths of fields and scans,
// its key names and values, and its acknowledged insert counter, shared
// by a run's worker processes through memory they map. Each draws from an
// explicit *rand.Rand instead of ThreadLocalRandom: the same
// distributions, not the same numbers. Keys are YCSB's keynums, int64 as
// Java's long. It imports nothing of gobench's.
package generator

import (
	"math"
	"math/rand/v2"
	"strconv"
)

// FNVHash64 is YCSB's Utils.FNVHash64: FNV-1 over the 8 bytes of val, low
// byte first (Java's arithmetic shift), then Math.abs, which leaves
// math.MinInt64 negative as Java's does.
func FNVHash64(val int64) int64 {
	h := int64(-3750763034362895579) // 0xCBF29CE484222325, FNV's 64-bit offset basis
	for range 8 {
		octet := val & 0xff
		val >>= 8
		h ^= octet
		h *= 1099511628211 // FNV's 64-bit prime
	}
	if h < 0 {
		h = -h
	}
	return h
}

// AppendKeyName appends YCSB's CoreWorkload.buildKeyName: "user", then
// the keynum (hashed with FNVHash64 unless ordered) in decimal, left
// padded with zeros to zeroPadding digits.
func AppendKeyName(dst []byte, keynum int64, zeroPadding int, ordered bool) []byte {
	if !ordered {
		keynum = FNVHash64(keynum)
	}
	var digits [24]byte
	v := strconv.AppendInt(digits[:0], keynum, 10)
	dst = append(dst, "user"...)
	for range zeroPadding - len(v) {
		dst = append(dst, '0')
	}
	return append(dst, v...)
}

// Zipf is YCSB's ZipfianGenerator: Gray et al.'s algorithm over items
// values from base, whose zeta grows incrementally when it is asked for
// more items than it was computed for (nextLong), as the latest
// distribution asks while records are inserted. As in YCSB, eta keeps
// the item count the generator was built with. A Zipf is one
// worker's: clone a shared one (its zeta costs O(items) to compute).
type Zipf struct {
	items, base                int64
	theta, alpha, zeta2, zetan float64
	eta, halfPowTheta          float64
	countForZeta               int64
}

// Zeta is YCSB's ZipfianGenerator.zetastatic: initial plus the sum
// of 1/(i+1)^theta for i from st to n-1.
func Zeta(st, n int64, theta, initial float64) float64 {
	sum := initial
	for i := st; i < n; i++ {
		sum += 1 / math.Pow(float64(i+1), theta)
	}
	return sum
}

// NewZipf returns ZipfianGenerator(min, max, theta): zeta computed
// over the max-min+1 items.
func NewZipf(min, max int64, theta float64) *Zipf {
	return NewZipfZeta(min, max, theta, Zeta(0, max-min+1, theta, 0))
}

// NewZipfZeta returns ZipfianGenerator(min, max, theta, zetan), with
// zeta given (ScrambledZipfianGenerator's precomputed constant).
func NewZipfZeta(min, max int64, theta, zetan float64) *Zipf {
	z := &Zipf{items: max - min + 1, base: min, theta: theta, alpha: 1 / (1 - theta), zetan: zetan}
	z.zeta2 = Zeta(0, 2, theta, 0)
	z.countForZeta = z.items
	z.halfPowTheta = 1 + math.Pow(0.5, theta)
	z.eta = (1 - math.Pow(2/float64(z.items), 1-theta)) / (1 - z.zeta2/z.zetan)
	return z
}

// Clone returns a copy for one worker.
func (z *Zipf) Clone() *Zipf { c := *z; return &c }

// NextLong is ZipfianGenerator.NextLong(itemcount) for the uniform
// variate u in [0, 1): zeta extended first when itemcount grew (a smaller
// count keeps the zeta computed, as YCSB does unless told otherwise).
func (z *Zipf) NextLong(itemcount int64, u float64) int64 {
	if itemcount > z.countForZeta {
		z.zetan = Zeta(z.countForZeta, itemcount, z.theta, z.zetan)
		z.countForZeta = itemcount
		z.eta = (1 - math.Pow(2/float64(z.items), 1-z.theta)) / (1 - z.zeta2/z.zetan)
	}
	uz := u * z.zetan
	if uz < 1 {
		return z.base
	}
	if uz < z.halfPowTheta {
		return z.base + 1
	}
	return z.base + int64(float64(itemcount)*math.Pow(z.eta*u-z.eta+1, z.alpha))
}

// Next is ZipfianGenerator.nextValue: NextLong over its own item count.
func (z *Zipf) Next(r *rand.Rand) int64 { return z.NextLong(z.items, r.Float64()) }

// ScrambledZipfianGenerator's constants: a zipfian over ten billion items
// with zeta precomputed for the constant 0.99, scrambled into the range
// asked for.
const (
	ScrambledItems = 10_000_000_000
	ScrambledZetan = 26.46902820178302
	ScrambledTheta = 0.99
)

// ScrambledZipf is YCSB's ScrambledZipfianGenerator(min, max): a zipfian
// value over ten billion items, hashed (FNVHash64) into [min, max].
type ScrambledZipf struct {
	min, itemcount int64
	gen            *Zipf
}

// NewScrambledZipf returns ScrambledZipfianGenerator(min, max).
func NewScrambledZipf(min, max int64) *ScrambledZipf {
	return &ScrambledZipf{min: min, itemcount: max - min + 1, gen: NewZipfZeta(0, ScrambledItems, ScrambledTheta, ScrambledZetan)}
}

// Next draws a keynum: a zipfian draw over ten billion items, hashed
// into the range.
func (s *ScrambledZipf) Next(r *rand.Rand) int64 {
	return s.min + FNVHash64(s.gen.Next(r))%s.itemcount
}

// Hotspot is YCSB's HotspotIntegerGenerator(lb, ub, hotData, hotOps): a
// share hotOps of the draws falls uniformly on the first hotData of the
// range, the rest uniformly on the others.
type Hotspot struct {
	lb, hot, cold int64
	hotOps        float64
}

// NewHotspot returns HotspotIntegerGenerator(lb, ub, hotData, hotOps).
func NewHotspot(lb, ub int64, hotData, hotOps float64) Hotspot {
	interval := ub - lb + 1
	hot := int64(float64(interval) * hotData)
	return Hotspot{lb: lb, hot: hot, cold: interval - hot, hotOps: hotOps}
}

// Sets returns how many keys the hot set and the cold set hold.
func (h Hotspot) Sets() (hot, cold int64) { return h.hot, h.cold }

// Next draws a keynum: from the hot set with probability hotOps.
func (h Hotspot) Next(r *rand.Rand) int64 {
	if r.Float64() < h.hotOps {
		return h.lb + r.Int64N(h.hot)
	}
	return h.lb + h.hot + r.Int64N(h.cold)
}

// Length draws a length (of a field, of a scan): constant, uniform
// between min and max, or zipfian from min (favouring short ones), as
// YCSB's ConstantIntegerGenerator, UniformLongGenerator and
// ZipfianGenerator(min, max).
type Length struct {
	min, max int64
	zipf     *Zipf // nil but for zipfian
	constant bool
}

// Length distributions.
const (
	LengthConstant = "constant"
	LengthUniform  = "uniform"
	LengthZipfian  = "zipfian"
)

// NewLength returns the length generator of distribution dist
// (LengthConstant, LengthUniform or LengthZipfian) from min to max; a
// constant length is max.
func NewLength(dist string, min, max int64) Length {
	switch dist {
	case LengthConstant:
		return Length{min: max, max: max, constant: true}
	case LengthZipfian:
		return Length{min: min, max: max, zipf: NewZipf(min, max, ScrambledTheta)}
	}
	return Length{min: min, max: max}
}

// Clone returns a copy for one worker.
func (g Length) Clone() Length {
	if g.zipf != nil {
		g.zipf = g.zipf.Clone()
	}
	return g
}

// Next draws a length.
func (g Length) Next(r *rand.Rand) int64 {
	switch {
	case g.constant:
		return g.max
	case g.zipf != nil:
		return g.zipf.Next(r)
	}
	return g.min + r.Int64N(g.max-g.min+1)
}

// FillValue fills b as YCSB's RandomByteIterator does: six printable
// characters from each 32-bit random number, from 32 (space) up, in
// ranges of 32, 64 or 96 by position.
func FillValue(b []byte, r *rand.Rand) {
	for i := 0; i < len(b); i += 6 {
		x := int32(r.Uint32())
		c := b[i:min(i+6, len(b))]
		switch len(c) {
		case 6:
			c[5] = byte((x>>25)&95) + ' '
			fallthrough
		case 5:
			c[4] = byte((x>>20)&63) + ' '
			fallthrough
		case 4:
			c[3] = byte((x>>15)&31) + ' '
			fallthrough
		case 3:
			c[2] = byte((x>>10)&95) + ' '
			fallthrough
		case 2:
			c[1] = byte((x>>5)&63) + ' '
			fallthrough
		case 1:
			c[0] = byte(x&31) + ' '
		}
	}
}
