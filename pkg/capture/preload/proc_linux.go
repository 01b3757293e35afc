package preload

import (
	"os"
	"os/exec"
	"syscall"

	"golang.org/x/sys/unix"
)

// startAttrs makes the program die with this process (SIGKILL once
// gobench is gone, however it went), and, unless this process runs in
// the foreground of a terminal, puts it in a process group of its own, so
// that a signal passed on reaches its child processes too. In a
// terminal's foreground it shares this process's group: it may read and
// set up the terminal, and the terminal's Ctrl-C reaches it already.
func startAttrs(cmd *exec.Cmd) (group bool) {
	group = !terminalForeground()
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: group, Pdeathsig: syscall.SIGKILL}
	return group
}

// terminalForeground reports whether this process has a controlling
// terminal and is in its foreground process group.
func terminalForeground() bool {
	f, err := os.Open("/dev/tty")
	if err != nil {
		return false
	}
	defer f.Close()
	pgrp, err := unix.IoctlGetInt(int(f.Fd()), unix.TIOCGPGRP)
	return err == nil && pgrp == unix.Getpgrp()
}

// signalProgram sends sig to the program: its process group, when it has
// one of its own, else its process.
func signalProgram(p *os.Process, group bool, sig os.Signal) error {
	s, ok := sig.(syscall.Signal)
	if !ok {
		return p.Signal(sig)
	}
	if group {
		if err := syscall.Kill(-p.Pid, s); err == nil {
			return nil
		}
	}
	return p.Signal(s)
}
