package sysinfo

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// ErrPinUnsupported marks pinning to CPUs on an OS that has no way to do
// it here (all but Linux).
var ErrPinUnsupported = errors.New("pinning to CPUs is supported on Linux only")

// ParseCPUList reads a CPU list as taskset and the kernel write it:
// "0-3", "0,2,4", "0-1,6".
func ParseCPUList(s string) ([]int, error) {
	var out []int
	seen := map[int]bool{}
	for part := range strings.SplitSeq(s, ",") {
		lo, hi, isRange := strings.Cut(strings.TrimSpace(part), "-")
		a, err := strconv.Atoi(lo)
		b := a
		if err == nil && isRange {
			b, err = strconv.Atoi(hi)
		}
		if err != nil || a < 0 || b < a || b > 1<<16 {
			return nil, fmt.Errorf("%q is not a CPU list such as 0-3 or 0,2,4", s)
		}
		for c := a; c <= b; c++ {
			if seen[c] {
				return nil, fmt.Errorf("CPU %d is listed twice in %q", c, s)
			}
			seen[c] = true
			out = append(out, c)
		}
	}
	return out, nil
}
