package coord

import (
	"os/exec"
	"syscall"
)

// dieWithParent asks the kernel to kill the worker if the coordinator
// dies, so no worker outlives a crashed or killed gobench.
func dieWithParent(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
