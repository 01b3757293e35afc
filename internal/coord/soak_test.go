package coord

import (
	"context"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gobench/gobench/pkg/store/all"
)

// openFDs counts this process's open file descriptors.
func openFDs(t *testing.T) int {
	entries, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Skipf("cannot count file descriptors here: %v", err)
	}
	return len(entries)
}

// children counts this process's live child processes.
func children(t *testing.T) int {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		t.Skipf("cannot list processes here: %v", err)
	}
	me := strconv.Itoa(os.Getpid())
	n := 0
	for _, e := range entries {
		stat, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		s := string(stat)
		if f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:]); len(f) > 1 && f[1] == me && f[0] != "Z" {
			n++
		}
	}
	return n
}

// Many short runs back to back, with workers that finish and workers that
// fail: file descriptors, goroutines, child processes and heap stay flat.
// GOBENCH_SOAK_RUNS sets the number of runs (make soak runs 500).
func TestSoak(t *testing.T) {
	runs := 25
	if v := os.Getenv("GOBENCH_SOAK_RUNS"); v != "" {
		runs, _ = strconv.Atoi(v)
	}
	run := func(i int) {
		p := nullPlan(3, 2, 300)
		mode := "serve"
		if i%5 == 4 {
			mode = "exit" // every fifth run, the workers fail
		}
		res, err := Run(context.Background(), Config{Plan: p, Registry: all.Registry(), Command: helper(mode), StopGrace: time.Second})
		if mode == "serve" && (err != nil || res.Phases[0].Total.Count != 1800) {
			t.Fatalf("run %d: %v", i, err)
		}
		if mode == "exit" && err == nil {
			t.Fatalf("run %d: failing workers went unnoticed", i)
		}
	}
	run(0) // warm up: lazily started runtime goroutines, caches
	runtime.GC()
	fds, gors := openFDs(t), runtime.NumGoroutine()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	heap := ms.HeapInuse
	// No collection during the runs: os.File finalizers would close leaked
	// descriptors and hide the leak.
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	for i := 1; i <= runs; i++ {
		run(i)
	}
	// The runs' goroutines and descriptors go away as their goroutines
	// end, a little after Run returns: wait until they are back to where
	// they were (a leak never is; the bound only ends the wait).
	for limit := time.Now().Add(10 * time.Second); time.Now().Before(limit); time.Sleep(10 * time.Millisecond) {
		if openFDs(t) <= fds && runtime.NumGoroutine() <= gors {
			break
		}
	}
	if n := openFDs(t); n > fds {
		t.Errorf("open file descriptors grew from %d to %d over %d runs", fds, n, runs)
	}
	runtime.GC()
	runtime.ReadMemStats(&ms)
	if n := runtime.NumGoroutine(); n > gors {
		t.Errorf("goroutines grew from %d to %d over %d runs", gors, n, runs)
	}
	if n := children(t); n != 0 {
		t.Errorf("%d child processes left after %d runs", n, runs)
	}
	if ms.HeapInuse > heap+8<<20 {
		t.Errorf("heap in use grew from %d to %d bytes over %d runs", heap, ms.HeapInuse, runs)
	}
	t.Logf("%d runs: %d fds, %d goroutines, heap %.1f MiB", runs, openFDs(t), runtime.NumGoroutine(), float64(ms.HeapInuse)/(1<<20))
}
