package sysinfo

import (
	"os"
	"runtime"
	"strconv"
	"sync"
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

// PinProcess pins every thread, those that start while it runs among
// them: the kernel's affinity of each thread says so afterwards.
func TestPinProcessPinsThreadsStartedMeanwhile(t *testing.T) {
	var before unix.CPUSet
	if err := unix.SchedGetaffinity(0, &before); err != nil {
		t.Fatal(err)
	}
	cpu := -1
	for c := 0; c < len(before)*64; c++ {
		if before.IsSet(c) {
			cpu = c
		}
	}
	if cpu < 0 || before.Count() < 2 {
		t.Skip("pinning shows only with two CPUs to choose from")
	}
	// Threads start while the process is pinned: each goroutine locked
	// to its own thread makes the runtime start another for the rest.
	release := make(chan struct{})
	var started sync.WaitGroup
	for i := 0; i < 16; i++ {
		started.Add(1)
		go func() {
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			started.Done()
			<-release
		}()
	}
	defer func() {
		close(release)
		started.Wait()
		unpinAll(t)
	}()
	if err := PinProcess(cpu); err != nil {
		t.Fatal(err)
	}
	started.Wait()
	var want unix.CPUSet
	want.Set(cpu)
	tasks, err := os.ReadDir("/proc/self/task")
	if err != nil {
		t.Fatal(err)
	}
	for _, task := range tasks {
		tid, _ := strconv.Atoi(task.Name())
		var got unix.CPUSet
		if err := unix.SchedGetaffinity(tid, &got); err != nil {
			continue // a thread that ended
		}
		if got != want {
			t.Errorf("thread %d may run on %d CPUs after PinProcess(%d)", tid, got.Count(), cpu)
		}
	}
	if len(tasks) < 16 {
		t.Errorf("%d threads: the goroutines did not start theirs", len(tasks))
	}
}
