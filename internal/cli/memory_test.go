package cli

import (
	"strconv"
	"strings"
	"testing"

	"github.com/gobench/gobench/pkg/sysinfo"
)

// crud --storage memory with rows whose values alone take twice the
// memory this machine says is available is refused before anything runs
// (exit 2, one line giving the need and what is available): it was
// checked against the disk's room, accepted, and climbed until killed.
func TestStorageMemoryChecksMemory(t *testing.T) {
	avail, ok := sysinfo.AvailableMemory()
	if !ok {
		t.Skip("this OS does not say how much memory is available (MemAvailable in /proc/meminfo on Linux)")
	}
	rows := strconv.FormatInt(2*avail/1000+1, 10)
	for _, args := range [][]string{
		{"crud", "--rows", rows, "--value-size", "1000", "--storage", "memory"},
		{"crud", "--rows", rows, "--value-size", "1000", "--driver", "map"},
	} {
		code, errs := runOut(t, args...)
		if code != ExitUsage || !strings.Contains(errs, "kept in memory need at least") || !strings.Contains(errs, "of memory available") || strings.Count(strings.TrimSpace(errs), "\n") > 0 {
			t.Errorf("%v: exit %d: %s", args, code, errs)
		}
	}
}
