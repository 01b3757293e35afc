//go:build unix && !linux

package ab

import "syscall"

// dieWithAB does nothing where there is no parent-death signal (macOS):
// a run ab started ends on its own when ab dies.
func dieWithAB(*syscall.SysProcAttr) {}
