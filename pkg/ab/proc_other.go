//go:build !unix

package ab

import (
	"os"
	"os/exec"
)

// Without process groups the leader alone is interrupted and killed.
func ownGroup(*exec.Cmd)                 {}
func interruptGroup(p *os.Process) error { return p.Signal(os.Interrupt) }
func killGroup(p *os.Process)            { _ = p.Kill() }
