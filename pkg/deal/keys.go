package deal

import (
	"math"
	"math/rand/v2"

	"github.com/gobench/gobench/pkg/workload"
)

// keyChooser draws keys with an explicit random source. A keyChooser is
// immutable once built, so the workers of one process share one (the
// zipfian constant costs O(Count) to compute).
type keyChooser interface {
	next(r *rand.Rand) uint64
}

func newKeyChooser(k workload.KeySpace) keyChooser {
	if k.Distribution == workload.Zipfian {
		return newZipf(k.Count, k.Theta)
	}
	return uniformKeys{n: k.Count}
}

type uniformKeys struct{ n uint64 }

func (u uniformKeys) next(r *rand.Rand) uint64 { return r.Uint64N(u.n) }

// zipf is Gray et al.'s zipfian generator, as in YCSB's ZipfianGenerator.
type zipf struct {
	n                  uint64
	theta, alpha, eta  float64
	zetaN, halfPowTeta float64
}

func newZipf(n uint64, theta float64) *zipf {
	z := &zipf{n: n, theta: theta, alpha: 1 / (1 - theta)}
	z.zetaN = zeta(n, theta)
	zeta2 := zeta(2, theta)
	z.halfPowTeta = 1 + math.Pow(0.5, theta)
	z.eta = (1 - math.Pow(2/float64(n), 1-theta)) / (1 - zeta2/z.zetaN)
	return z
}

func zeta(n uint64, theta float64) float64 {
	var sum float64
	for i := uint64(1); i <= n; i++ {
		sum += 1 / math.Pow(float64(i), theta)
	}
	return sum
}

func (z *zipf) next(r *rand.Rand) uint64 {
	u := r.Float64()
	uz := u * z.zetaN
	if uz < 1 {
		return 0
	}
	if uz < z.halfPowTeta && z.n > 1 {
		return 1
	}
	k := uint64(float64(z.n) * math.Pow(z.eta*u-z.eta+1, z.alpha))
	if k >= z.n {
		k = z.n - 1
	}
	return k
}
