package sysinfo

import (
	"bufio"
	"bytes"
	"strconv"
	"strings"
)

// parseMemAvailable reads the MemAvailable line of /proc/meminfo's text
// ("MemAvailable:   12345678 kB"), in bytes; false when there is none.
func parseMemAvailable(b []byte) (int64, bool) {
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		rest, ok := strings.CutPrefix(sc.Text(), "MemAvailable:")
		if !ok {
			continue
		}
		f := strings.Fields(rest)
		if len(f) != 2 || f[1] != "kB" {
			return 0, false
		}
		n, err := strconv.ParseInt(f[0], 10, 64)
		if err != nil || n < 0 || n > 1<<53 {
			return 0, false
		}
		return n << 10, true
	}
	return 0, false
}
