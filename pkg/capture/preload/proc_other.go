//go:build !linux

package preload

import (
	"os"
	"os/exec"
)

// startAttrs: capture runs on Linux alone (Run refuses elsewhere).
func startAttrs(*exec.Cmd) bool { return false }

// signalProgram sends sig to the program's process.
func signalProgram(p *os.Process, _ bool, sig os.Signal) error { return p.Signal(sig) }
