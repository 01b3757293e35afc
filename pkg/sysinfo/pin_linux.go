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
// thread it starts later (a new thread takes its creator's CPU set).
func PinProcess(cpu int) error {
	var set unix.CPUSet
	set.Set(cpu)
	tasks, err := os.ReadDir("/proc/self/task")
	if err != nil {
		return fmt.Errorf("pinning to CPU %d: %w", cpu, err)
	}
	for _, t := range tasks {
		tid, err := strconv.Atoi(t.Name())
		if err != nil {
			continue
		}
		if err := unix.SchedSetaffinity(tid, &set); err != nil && err != unix.ESRCH {
			return fmt.Errorf("pinning to CPU %d: %w", cpu, err)
		}
	}
	return nil
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
