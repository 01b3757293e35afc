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
