// Package bytesize parses and prints byte counts and rates with explicit,
// correct units: dd-style sizes on input (k = KiB = 1024, kB = 1000), and
// binary (KiB, MiB/s) or SI (kB, MB/s) on output, never a mix.
package bytesize

import (
	"fmt"
	"strconv"
	"strings"
)

// Parse reads a byte count the way dd does: a plain number is bytes;
// k, K, KiB are 1024; M, MiB 1024²; G, GiB 1024³; kB, MB, GB are powers of
// 1000.
func Parse(s string) (int64, error) {
	t := strings.TrimSpace(s)
	units := []struct {
		suffix string
		mult   int64
	}{
		{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30},
		{"kB", 1000}, {"KB", 1000}, {"MB", 1000 * 1000}, {"GB", 1000 * 1000 * 1000},
		{"k", 1 << 10}, {"K", 1 << 10}, {"m", 1 << 20}, {"M", 1 << 20}, {"g", 1 << 30}, {"G", 1 << 30},
		{"B", 1},
	}
	mult := int64(1)
	for _, u := range units {
		if v, ok := strings.CutSuffix(t, u.suffix); ok {
			t, mult = v, u.mult
			break
		}
	}
	n, err := strconv.ParseInt(strings.TrimSpace(t), 10, 64)
	if err != nil || n <= 0 {
		return 0, fmt.Errorf("%q is not a positive size such as 4096, 4k (KiB), 100kB (1000s) or 10M (MiB)", s)
	}
	if n > (1<<62)/mult {
		return 0, fmt.Errorf("%q is too large", s)
	}
	return n * mult, nil
}

// Units says how rates and sizes are printed: binary (KiB, MiB/s) by
// default, or SI (kB, MB/s).
type Units struct{ SI bool }

// PerSec converts bytes per second to the unit RateUnit names.
func (u Units) PerSec(bytesPerSec float64) float64 {
	if u.SI {
		return bytesPerSec / 1e6
	}
	return bytesPerSec / (1 << 20)
}

// RateUnit names the rate unit: MiB/s or MB/s.
func (u Units) RateUnit() string {
	if u.SI {
		return "MB/s"
	}
	return "MiB/s"
}

// Size formats a byte count in the largest unit it reaches, to at most
// three decimals: 4 KiB, 100 kB, 4.096 kB, 1.5 MiB, 512 B.
func (u Units) Size(n int64) string {
	v, unit := u.scale(n)
	s := strconv.FormatFloat(v, 'f', 3, 64)
	s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	return s + " " + unit
}

// scale expresses n in the largest unit it reaches.
func (u Units) scale(n int64) (float64, string) {
	base, names := int64(1024), []string{"B", "KiB", "MiB", "GiB", "TiB"}
	if u.SI {
		base, names = 1000, []string{"B", "kB", "MB", "GB", "TB"}
	}
	v := float64(n)
	i := 0
	for v >= float64(base) && i < len(names)-1 {
		v /= float64(base)
		i++
	}
	return v, names[i]
}

// Round formats a byte count in the largest unit it reaches, to three
// significant digits, for tables: 20.9 MiB, 512 B, 4 KiB.
func (u Units) Round(n int64) string {
	v, unit := u.scale(n)
	decimals := 0
	switch {
	case unit == "B":
	case v < 10:
		decimals = 2
	case v < 100:
		decimals = 1
	}
	s := strconv.FormatFloat(v, 'f', decimals, 64)
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	return s + " " + unit
}

// Header names the unit of rates, for a table header.
func (u Units) Header() string {
	if u.SI {
		return "MB/s (10^6 bytes per second)"
	}
	return "MiB/s (2^20 bytes per second)"
}

// ParseList reads a comma-separated list of sizes, such as the block
// sizes "4k,100k,1m,10m".
func ParseList(s string) ([]int64, error) {
	var out []int64
	for _, f := range strings.Split(s, ",") {
		n, err := Parse(f)
		if err != nil {
			return nil, err
		}
		out = append(out, n)
	}
	return out, nil
}
