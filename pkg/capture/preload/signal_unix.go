//go:build unix

package preload

import (
	"os"
	"syscall"
)

// signalOf names the signal that killed a process, and the exit status a
// shell reports for it (128 + its number).
func signalOf(ps *os.ProcessState) (string, int) {
	if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return ws.Signal().String(), 128 + int(ws.Signal())
	}
	return "", ps.ExitCode()
}
