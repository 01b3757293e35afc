// Package units formats the numbers gobench reports: latencies in
// microseconds with their unit, rates in ops/s, figures to three
// significant digits. It depends on nothing, so that the judging and the
// rendering packages print one figure the same way.
package units

import "fmt"

// Micros formats a latency given in microseconds with its unit: ns below
// 1 µs, then µs, ms and s, to three significant digits.
func Micros(us float64) string {
	switch {
	case us == 0:
		return "0"
	case us < 1:
		return Fixed(us*1e3, 0) + "ns"
	case us < 1e3:
		return Sig3(us) + "µs"
	case us < 1e6:
		return Sig3(us/1e3) + "ms"
	default:
		return Sig3(us/1e6) + "s"
	}
}

// Rate formats a throughput in ops/s: whole numbers from 100 up, one
// decimal below.
func Rate(r float64) string {
	if r >= 100 || r == 0 {
		return Fixed(r, 0)
	}
	return Fixed(r, 1)
}

// Sig3 prints three significant digits for values from 1 to 999 (two
// decimals below 10, one below 100, none above).
func Sig3(v float64) string {
	switch {
	case v < 10:
		return Fixed(v, 2)
	case v < 100:
		return Fixed(v, 1)
	}
	return Fixed(v, 0)
}

// Ratio prints a factor: as Sig3 from 0.095 up, and below it to two
// significant digits, so a factor of a hundredth reads 0.013, not 0.01
// (or 0.00).
func Ratio(v float64) string {
	if v <= 0 || v >= 0.095 {
		return Sig3(v)
	}
	d := 2
	for x := v; x < 0.1 && d < 12; x *= 10 {
		d++
	}
	return Fixed(v, d)
}

// Fixed prints v with the given number of decimals.
func Fixed(v float64, decimals int) string { return fmt.Sprintf("%.*f", decimals, v) }

// Percent prints a fraction as a percentage without exponent or trailing
// zeros, to a thousandth of a percent: 0.1 as "10", 10 as "1000", 0.00001
// as "0.001".
func Percent(fraction float64) string {
	s := fmt.Sprintf("%.3f", 100*fraction)
	for s[len(s)-1] == '0' {
		s = s[:len(s)-1]
	}
	if s[len(s)-1] == '.' {
		s = s[:len(s)-1]
	}
	return s
}
