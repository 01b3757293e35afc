//go:build unix

package ab

import (
	"os"
	"os/exec"
	"syscall"
)

// ownGroup puts cmd in a process group of its own, the leader stopped
// by the kernel when ab dies where the system can (dieWithAB).
func ownGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	dieWithAB(cmd.SysProcAttr)
}

// interruptGroup interrupts the process group p leads.
func interruptGroup(p *os.Process) error { return syscall.Kill(-p.Pid, syscall.SIGINT) }

// killGroup kills whatever is left of the process group p led.
func killGroup(p *os.Process) { _ = syscall.Kill(-p.Pid, syscall.SIGKILL) }
