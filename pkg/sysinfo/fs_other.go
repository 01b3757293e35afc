//go:build !linux && !darwin

package sysinfo

// Filesystem returns "unknown" where gobench cannot read filesystem types.
func Filesystem(string) string { return "unknown" }
