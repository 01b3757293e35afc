//go:build !linux && !darwin

package coord

import "os/exec"

// dieWithParent does nothing here: a worker stops when its stdin, the
// coordinator's pipe, closes.
func dieWithParent(*exec.Cmd) {}

// ownGroup does nothing here: no recording file system is mounted.
func ownGroup(*exec.Cmd) {}
