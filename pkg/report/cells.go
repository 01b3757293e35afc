package report

import (
	"fmt"
	"math"
	"strings"

	"github.com/gobench/gobench/pkg/result"
	"github.com/gobench/gobench/pkg/workload"
)

// The words and numbers of one cell or one part of a sentence, which any
// format writes as they are: a count's noun, a count of failed ops by
// class, a number's sign, a long text cut short.

// plural is one where n is 1, else many: "1 proc", "2 procs".
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// countData counts the op kinds that are data, not markers.
func countData(ops []result.OpStats) int {
	n := 0
	for _, o := range ops {
		if !workload.IsMarkerKind(o.Kind) {
			n++
		}
	}
	return n
}

// errorText is "0", or the total and its classes: "7 (busy 5, io 2)";
// reads that found no key are noted after.
func errorText(o result.OpStats) string {
	e := o.Errors
	s := fmt.Sprint(e.Total)
	var parts []string
	for _, c := range result.ErrorClasses() {
		if n := e.Of(c); n > 0 {
			parts = append(parts, fmt.Sprintf("%s %d", strings.ReplaceAll(c.String(), "_", " "), n))
		}
	}
	if len(parts) > 0 {
		s += " (" + strings.Join(parts, ", ") + ")"
	}
	if o.NotFound > 0 {
		s += fmt.Sprintf(", %d not found", o.NotFound)
	}
	return s
}

// signed prefixes a number that is not negative with "+".
func signed(s string) string {
	if strings.HasPrefix(s, "-") {
		return s
	}
	return "+" + s
}

// shorten cuts s to n characters, marking the cut.
func shorten(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// roundTenth rounds to a tenth, so values print without float noise.
func roundTenth(v float64) float64 { return math.Round(v*10) / 10 }

// errorsShort is a count of failed ops with its classes, for a table
// cell: "0", "62 busy", "70: busy 62, locked 8".
func errorsShort(e result.Errors) string {
	var parts []string
	for _, c := range result.ErrorClasses() {
		if n := e.Of(c); n > 0 {
			parts = append(parts, fmt.Sprintf("%s %d", strings.ReplaceAll(c.String(), "_", " "), n))
		}
	}
	switch len(parts) {
	case 0:
		return fmt.Sprint(e.Total)
	case 1:
		name, _, _ := strings.Cut(parts[0], " ")
		return fmt.Sprintf("%d %s", e.Total, name)
	}
	return fmt.Sprintf("%d: %s", e.Total, strings.Join(parts, ", "))
}
