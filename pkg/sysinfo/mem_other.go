//go:build !linux

package sysinfo

// AvailableMemory does not know the memory available here: false.
func AvailableMemory() (int64, bool) { return 0, false }
