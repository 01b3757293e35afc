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

// ownGroup puts the recording file system's helper in its own process
// group, out of reach of a terminal's Ctrl-C: it must outlive the
// workers that use its mount, and it ends when the coordinator closes
// its stdin (or dies).
func ownGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}
