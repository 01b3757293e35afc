package coord

import (
	"os/exec"
	"syscall"
)

// dieWithParent puts the worker in its own process group, so a terminal's
// Ctrl-C reaches only the coordinator (which stops the workers itself), and
// asks the kernel to kill the worker if the coordinator dies, so no worker
// outlives a crashed or killed gobench.
func dieWithParent(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}

// ownGroup puts the recording file system's helper in its own process
// group, out of reach of a terminal's Ctrl-C: it must outlive the
// workers that use its mount, and it ends when the coordinator closes
// its stdin (or dies).
func ownGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}
