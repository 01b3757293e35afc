//go:build !linux && !darwin

package sysinfo

// FreeBytes does not know the free space here.
func FreeBytes(string) (int64, bool) { return 0, false }
