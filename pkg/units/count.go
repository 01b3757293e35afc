package units

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// countSuffixes are the multiples a count or rate may carry: k, M (or m)
// and G in powers of 1000; Ki, Mi and Gi in powers of 1024.
var countSuffixes = []struct {
	suffix string
	mult   float64
}{
	{"Ki", 1 << 10}, {"Mi", 1 << 20}, {"Gi", 1 << 30},
	{"k", 1e3}, {"K", 1e3}, {"M", 1e6}, {"m", 1e6}, {"G", 1e9}, {"g", 1e9},
}

// parseScaled reads a number with an optional multiple suffix.
func parseScaled(s string) (float64, error) {
	t := strings.TrimSpace(s)
	mult := 1.0
	for _, c := range countSuffixes {
		if v, ok := strings.CutSuffix(t, c.suffix); ok {
			t, mult = v, c.mult
			break
		}
	}
	v, err := strconv.ParseFloat(t, 64)
	if err != nil || strings.ContainsAny(t, "pPxX_") || math.IsNaN(v) {
		return 0, fmt.Errorf("%q is not a number such as 1000, 10k, 1.5M or 4Ki", s)
	}
	return v * mult, nil
}

// ParseCount reads a count as people write it: 1000, 10k, 1.5M, 2G
// (powers of 1000; m is taken for M), 4Ki, 1Mi (powers of 1024). The
// count must be a whole number, not negative, and fit 63 bits.
func ParseCount(s string) (uint64, error) {
	v, err := parseScaled(s)
	if err != nil {
		return 0, err
	}
	if v < 0 || v != math.Trunc(v) || v >= 1<<63 {
		return 0, fmt.Errorf("%q is not a whole count such as 1000, 10k or 1.5M", s)
	}
	return uint64(v), nil
}

// ParseRate reads a rate as people write it, with the suffixes of
// ParseCount: 500, 2k, 1.5M. It must be finite and not negative.
func ParseRate(s string) (float64, error) {
	v, err := parseScaled(s)
	if err != nil {
		return 0, err
	}
	if v < 0 || math.IsInf(v, 0) {
		return 0, fmt.Errorf("%q is not a rate such as 500, 2k or 1.5M", s)
	}
	return v, nil
}

// ParseShare reads a share of a whole as a percentage, 5% or 0.5%, or as
// a fraction, 0.05: from 0 to 1.
func ParseShare(s string) (float64, error) {
	t, pct := strings.CutSuffix(strings.TrimSpace(s), "%")
	v, err := strconv.ParseFloat(t, 64)
	if err == nil && pct {
		v /= 100
	}
	if err != nil || strings.ContainsAny(t, "xX_") || !(v >= 0 && v <= 1) {
		return 0, fmt.Errorf("%q is not a share such as 5%% or 0.05", s)
	}
	return v, nil
}
