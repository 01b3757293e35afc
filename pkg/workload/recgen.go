package workload

import (
	"math"
	"math/rand/v2"
	"strconv"
)

// The generators of YCSB's core workload (site.ycsb.generator), as its
// Java source defines them, each drawing from an explicit *rand.Rand
// instead of ThreadLocalRandom: the same distributions, not the same
// numbers. Keys are YCSB's keynums, int64 as Java's long.

// fnvhash64 is YCSB's Utils.fnvhash64: FNV-1 over the 8 bytes of val, low
// byte first (Java's arithmetic shift), then Math.abs, which leaves
// math.MinInt64 negative as Java's does.
func fnvhash64(val int64) int64 {
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

// appendKeyName appends YCSB's CoreWorkload.buildKeyName: "user", then
// the keynum (hashed with fnvhash64 unless ordered) in decimal, left
// padded with zeros to zeroPadding digits.
func appendKeyName(dst []byte, keynum int64, zeroPadding int, ordered bool) []byte {
	if !ordered {
		keynum = fnvhash64(keynum)
	}
	var digits [24]byte
	v := strconv.AppendInt(digits[:0], keynum, 10)
	dst = append(dst, "user"...)
	for range zeroPadding - len(v) {
		dst = append(dst, '0')
	}
	return append(dst, v...)
}

// ycsbZipf is YCSB's ZipfianGenerator: Gray et al.'s algorithm over items
// values from base, whose zeta grows incrementally when it is asked for
// more items than it was computed for (nextLong), as the latest
// distribution asks while records are inserted. As in YCSB, eta keeps
// the item count the generator was built with. A ycsbZipf is one
// worker's: clone a shared one (its zeta costs O(items) to compute).
type ycsbZipf struct {
	items, base                int64
	theta, alpha, zeta2, zetan float64
	eta, halfPowTheta          float64
	countForZeta               int64
}

// zetaStatic is YCSB's ZipfianGenerator.zetastatic: initial plus the sum
// of 1/(i+1)^theta for i from st to n-1.
func zetaStatic(st, n int64, theta, initial float64) float64 {
	sum := initial
	for i := st; i < n; i++ {
		sum += 1 / math.Pow(float64(i+1), theta)
	}
	return sum
}

// newYCSBZipf returns ZipfianGenerator(min, max, theta): zeta computed
// over the max-min+1 items.
func newYCSBZipf(min, max int64, theta float64) *ycsbZipf {
	return newYCSBZipfZeta(min, max, theta, zetaStatic(0, max-min+1, theta, 0))
}

// newYCSBZipfZeta returns ZipfianGenerator(min, max, theta, zetan), with
// zeta given (ScrambledZipfianGenerator's precomputed constant).
func newYCSBZipfZeta(min, max int64, theta, zetan float64) *ycsbZipf {
	z := &ycsbZipf{items: max - min + 1, base: min, theta: theta, alpha: 1 / (1 - theta), zetan: zetan}
	z.zeta2 = zetaStatic(0, 2, theta, 0)
	z.countForZeta = z.items
	z.halfPowTheta = 1 + math.Pow(0.5, theta)
	z.eta = (1 - math.Pow(2/float64(z.items), 1-theta)) / (1 - z.zeta2/z.zetan)
	return z
}

// clone returns a copy for one worker.
func (z *ycsbZipf) clone() *ycsbZipf { c := *z; return &c }

// nextLong is ZipfianGenerator.nextLong(itemcount) for the uniform
// variate u in [0, 1): zeta extended first when itemcount grew (a smaller
// count keeps the zeta computed, as YCSB does unless told otherwise).
func (z *ycsbZipf) nextLong(itemcount int64, u float64) int64 {
	if itemcount > z.countForZeta {
		z.zetan = zetaStatic(z.countForZeta, itemcount, z.theta, z.zetan)
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

// next is ZipfianGenerator.nextValue: nextLong over its own item count.
func (z *ycsbZipf) next(r *rand.Rand) int64 { return z.nextLong(z.items, r.Float64()) }

// ScrambledZipfianGenerator's constants: a zipfian over ten billion items
// with zeta precomputed for the constant 0.99, scrambled into the range
// asked for.
const (
	scrambledItems = 10_000_000_000
	scrambledZetan = 26.46902820178302
	scrambledTheta = 0.99
)

// scrambledZipf is YCSB's ScrambledZipfianGenerator(min, max): a zipfian
// value over ten billion items, hashed (fnvhash64) into [min, max].
type scrambledZipf struct {
	min, itemcount int64
	gen            *ycsbZipf
}

func newScrambledZipf(min, max int64) *scrambledZipf {
	return &scrambledZipf{min: min, itemcount: max - min + 1, gen: newYCSBZipfZeta(0, scrambledItems, scrambledTheta, scrambledZetan)}
}

func (s *scrambledZipf) next(r *rand.Rand) int64 {
	return s.min + fnvhash64(s.gen.next(r))%s.itemcount
}

// hotspot is YCSB's HotspotIntegerGenerator(lb, ub, hotData, hotOps): a
// share hotOps of the draws falls uniformly on the first hotData of the
// range, the rest uniformly on the others.
type hotspot struct {
	lb, hot, cold int64
	hotOps        float64
}

func newHotspot(lb, ub int64, hotData, hotOps float64) hotspot {
	interval := ub - lb + 1
	hot := int64(float64(interval) * hotData)
	return hotspot{lb: lb, hot: hot, cold: interval - hot, hotOps: hotOps}
}

func (h hotspot) next(r *rand.Rand) int64 {
	if r.Float64() < h.hotOps {
		return h.lb + r.Int64N(h.hot)
	}
	return h.lb + h.hot + r.Int64N(h.cold)
}

// lengthGen draws a length (of a field, of a scan): constant, uniform
// between min and max, or zipfian from min (favouring short ones), as
// YCSB's ConstantIntegerGenerator, UniformLongGenerator and
// ZipfianGenerator(min, max).
type lengthGen struct {
	min, max int64
	zipf     *ycsbZipf // nil but for zipfian
	constant bool
}

// Length distributions.
const (
	LengthConstant = "constant"
	LengthUniform  = "uniform"
	LengthZipfian  = "zipfian"
)

func newLengthGen(dist string, min, max int64) lengthGen {
	switch dist {
	case LengthConstant:
		return lengthGen{min: max, max: max, constant: true}
	case LengthZipfian:
		return lengthGen{min: min, max: max, zipf: newYCSBZipf(min, max, scrambledTheta)}
	}
	return lengthGen{min: min, max: max}
}

// clone returns a copy for one worker.
func (g lengthGen) clone() lengthGen {
	if g.zipf != nil {
		g.zipf = g.zipf.clone()
	}
	return g
}

func (g lengthGen) next(r *rand.Rand) int64 {
	switch {
	case g.constant:
		return g.max
	case g.zipf != nil:
		return g.zipf.next(r)
	}
	return g.min + r.Int64N(g.max-g.min+1)
}

// fillYCSB fills b as YCSB's RandomByteIterator does: six printable
// characters from each 32-bit random number, from 32 (space) up, in
// ranges of 32, 64 or 96 by position.
func fillYCSB(b []byte, r *rand.Rand) {
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
