//go:build !linux && !darwin

package sysinfo

import "io/fs"

// allocatedBytes falls back to the apparent size where blocks are unknown.
func allocatedBytes(fi fs.FileInfo) int64 { return fi.Size() }
