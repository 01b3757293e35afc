//go:build !unix

package preload

import "os"

// signalOf names the signal that killed a process: none here.
func signalOf(ps *os.ProcessState) (string, int) { return "", ps.ExitCode() }
