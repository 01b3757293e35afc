package sysinfo

import (
	"fmt"
	"os"
	"strconv"

	"golang.org/x/sys/unix"
)

// CanPin reports whether PinProcess works on this OS.
func CanPin() bool { return true }

// PinProcess pins every thread of this process to cpu, and so every
// thread it starts later (a new thread takes its creator's CPU set). A
// thread can start while the others are being pinned, from one not pinned
// yet, so it goes over the threads again until a pass finds all of them
// pinned: from then on every new thread's creator is pinned.
func PinProcess(cpu int) error {
	var set unix.CPUSet
	set.Set(cpu)
	for pass := 0; pass < 100; pass++ {
		changed, err := pinThreads(&set)
		if err != nil {
			return fmt.Errorf("pinning to CPU %d: %w", cpu, err)
		}
		if !changed {
			return nil
		}
	}
	return fmt.Errorf("pinning to CPU %d: threads kept starting unpinned", cpu)
}

// pinThreads pins each thread of this process that is not pinned to set
// already, and reports whether any was not.
func pinThreads(set *unix.CPUSet) (changed bool, err error) {
	tasks, err := os.ReadDir("/proc/self/task")
	if err != nil {
		return false, err
	}
	for _, t := range tasks {
		tid, err := strconv.Atoi(t.Name())
		if err != nil {
			continue
		}
		var now unix.CPUSet
		if err := unix.SchedGetaffinity(tid, &now); err == nil && now == *set {
			continue
		}
		if err := unix.SchedSetaffinity(tid, set); err != nil && err != unix.ESRCH {
			return false, err
		}
		changed = true
	}
	return changed, nil
}

// PinnedCPU returns the CPU this thread may run on when it is pinned to
// exactly one, or -1.
func PinnedCPU() int {
	var set unix.CPUSet
	if unix.SchedGetaffinity(0, &set) != nil || set.Count() != 1 {
		return -1
	}
	for c := 0; c < len(set)*64; c++ {
		if set.IsSet(c) {
			return c
		}
	}
	return -1
}
