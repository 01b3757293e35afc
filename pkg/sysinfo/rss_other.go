//go:build !linux && !darwin

package sysinfo

// MaxRSS returns 0 where the peak resident set size cannot be read.
func MaxRSS() int64 { return 0 }
