package coord

import (
	"os/exec"
	"syscall"
)

// dieWithParent puts the worker in its own process group, so a terminal's
// Ctrl-C reaches only the coordinator. macOS has no parent-death signal: a
// worker stops when its stdin, the coordinator's pipe, closes.
func dieWithParent(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}
