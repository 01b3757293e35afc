//go:build !linux

package coord

import "os/exec"

// dieWithParent does nothing where the kernel has no parent-death signal:
// a worker still stops when its stdin, the coordinator's pipe, closes.
func dieWithParent(*exec.Cmd) {}
