//go:build !linux && !darwin

package coord

import "os/exec"

// dieWithParent does nothing here: a worker stops when its stdin, the
// coordinator's pipe, closes.
func dieWithParent(*exec.Cmd) {}
