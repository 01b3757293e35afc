//go:build !linux

package sysinfo

// CanPin reports whether PinProcess works on this OS.
func CanPin() bool { return false }

// PinProcess is not supported here.
func PinProcess(int) error { return ErrPinUnsupported }

// PinnedCPU is -1: pinning is not supported here.
func PinnedCPU() int { return -1 }
