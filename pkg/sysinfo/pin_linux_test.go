package sysinfo

import (
	"os"
	"runtime"
	"strconv"
	"testing"

	"golang.org/x/sys/unix"
)

// unpinAll lets every thread of the test process run on every CPU again.
func unpinAll(t *testing.T) {
	t.Helper()
	var set unix.CPUSet
	for c := range runtime.NumCPU() {
		set.Set(c)
	}
	tasks, _ := os.ReadDir("/proc/self/task")
	for _, e := range tasks {
		if tid, err := strconv.Atoi(e.Name()); err == nil {
			_ = unix.SchedSetaffinity(tid, &set)
		}
	}
}
