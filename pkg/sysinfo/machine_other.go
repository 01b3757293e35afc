//go:build !linux && !darwin

package sysinfo

// ReadMachine returns what is known everywhere: nothing beyond Go's own
// runtime facts, which results record separately.
func ReadMachine() Machine { return Machine{} }

// MountOptions returns "" where gobench cannot read mount options.
func MountOptions(string) string { return "" }

// Mounts does not know the mounts here.
func Mounts() ([]Mount, error) { return nil, nil }
