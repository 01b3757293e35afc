package judge

import (
	"math"
	"slices"
)

// uUpperTail returns P(U ≥ U observed) for the Mann-Whitney statistic U
// of x against y, the number of pairs (xᵢ, yⱼ) with xᵢ > yⱼ, a tie
// counting half, under the null that the n1+n2 values were split between
// x and y at random. Ties are handled exactly: the values take their
// mid-ranks, and the permutation distribution is that of the sum of n1
// mid-ranks drawn without replacement from the pooled ones (the
// conditional distribution given the ties, Lehmann, Nonparametrics,
// 1975, §1.4). It is counted exactly when n1·n2 ≤ exactUTest, by a
// recursion over the groups of tied values; above, U is taken as normal
// with the tie-corrected variance n1n2/12·(N+1 − Σ(t³−t)/(N(N−1))) and a
// continuity correction of half a pair. When every value is equal, U can
// take only its observed value, and the p is 1.
func uUpperTail(x, y []float64) float64 {
	n1, n2 := len(x), len(y)
	if n1 == 0 || n2 == 0 {
		return 1
	}
	n := n1 + n2
	sizes, ranks2, rx2 := tieGroups(x, y)
	if len(sizes) == 1 {
		return 1 // every value equal: U is pairs/2 in every split
	}
	if n1*n2 > exactUTest {
		// U = R_x − n1(n1+1)/2, so U ≥ u observed exactly when R_x ≥
		// its observed value.
		u := float64(rx2)/2 - float64(n1*(n1+1))/2
		return uNormalTail(u, n1, n2, sizes)
	}
	// Count the splits by the doubled rank sum of the smaller side: m
	// values drawn from the pool, its rank sum R_small. When x is the
	// smaller, the tail is R_x ≥ observed; when y is, R_y = N(N+1)/2 −
	// R_x, and the tail is R_y ≤ its observed value.
	m, upper, obs := n1, true, rx2
	if n2 < n1 {
		m, upper, obs = n2, false, n*(n+1)-rx2
	}
	var tail, total float64
	for s, w := range rankSumWays(sizes, ranks2, m, n) {
		total += w
		if upper && s >= obs || !upper && s <= obs {
			tail += w
		}
	}
	return tail / total
}

// tieGroups pools x and y in order and returns the groups of tied
// values: their sizes and their doubled mid-ranks (integers: the mid-rank
// of ranks i+1..j is (i+1+j)/2), and the doubled rank sum of x.
func tieGroups(x, y []float64) (sizes, ranks2 []int, rx2 int) {
	type tagged struct {
		v   float64
		inX bool
	}
	pool := make([]tagged, 0, len(x)+len(y))
	for _, v := range x {
		pool = append(pool, tagged{v, true})
	}
	for _, v := range y {
		pool = append(pool, tagged{v, false})
	}
	slices.SortFunc(pool, func(a, b tagged) int {
		switch {
		case a.v < b.v:
			return -1
		case a.v > b.v:
			return 1
		}
		return 0
	})
	n := len(pool)
	for i := 0; i < n; {
		j := i
		for j < n && pool[j].v == pool[i].v {
			j++
		}
		r2 := i + 1 + j
		for k := i; k < j; k++ {
			if pool[k].inX {
				rx2 += r2
			}
		}
		sizes, ranks2 = append(sizes, j-i), append(ranks2, r2)
		i = j
	}
	return sizes, ranks2, rx2
}

// uNormalTail is P(U ≥ u) with U taken as normal, with the tie-corrected
// variance n1n2/12·(N+1 − Σ(t³−t)/(N(N−1))) over the tie groups' sizes
// and a continuity correction of half a pair.
func uNormalTail(u float64, n1, n2 int, sizes []int) float64 {
	pairs := float64(n1 * n2)
	ties := 0.0
	for _, t := range sizes {
		ties += float64(t*t*t - t)
	}
	nf := float64(n1 + n2)
	sd := math.Sqrt(pairs / 12 * (nf + 1 - ties/(nf*(nf-1))))
	z := (u - 0.5 - pairs/2) / sd
	return 0.5 * math.Erfc(z/math.Sqrt2)
}

// rankSumWays returns, for each doubled rank sum s, the number of ways
// to draw m of the n pooled values (in tie groups of the given sizes and
// doubled mid-ranks) whose doubled rank sum is s; as float64, exact to
// 2⁵³ and within rounding beyond.
func rankSumWays(sizes, ranks2 []int, m, n int) []float64 {
	maxSum := 2 * m * n // a bound on a doubled rank sum of m values
	// ways[k][s]: the ways to draw k values whose doubled rank sum is s,
	// from the groups seen so far.
	ways := make([][]float64, m+1)
	for k := range ways {
		ways[k] = make([]float64, maxSum+1)
	}
	ways[0][0] = 1
	reach := make([]int, m+1) // reach[k]: the largest sum ways[k] holds yet
	for g, t := range sizes {
		r2 := ranks2[g]
		for k := m; k >= 1; k-- { // downwards: each group's draw counted once
			row := ways[k]
			for j := 1; j <= min(t, k); j++ {
				if reach[k-j] == 0 && k-j > 0 {
					continue // no draw of k-j values yet
				}
				c := binomial(t, j)
				from, shift := ways[k-j], j*r2
				for s := 0; s <= reach[k-j]; s++ {
					if from[s] != 0 {
						row[s+shift] += c * from[s]
					}
				}
				reach[k] = max(reach[k], reach[k-j]+shift)
			}
		}
	}
	return ways[m]
}

// binomial returns C(n, k) as a float64.
func binomial(n, k int) float64 {
	c := 1.0
	for i := 1; i <= k; i++ {
		c = c * float64(n-k+i) / float64(i)
	}
	return c
}
