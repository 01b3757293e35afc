package sysinfo

import "os"

// AvailableMemory returns the bytes of memory the kernel estimates a new
// workload can take without swapping (MemAvailable in /proc/meminfo), and
// false where it cannot be read.
func AvailableMemory() (int64, bool) {
	b, err := os.ReadFile("/proc/meminfo")
	if err != nil {
		return 0, false
	}
	return parseMemAvailable(b)
}
