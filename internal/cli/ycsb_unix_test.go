//go:build unix

package cli

import (
	"path/filepath"
	"syscall"
	"testing"
)

// A FIFO is no property file: refused before it is opened, so that no
// writer is waited for.
func TestYCSBRefusesFIFO(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "workload")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	ycsbBad(t, "workload "+fifo+" is a FIFO, not a property file", "run", fifo)
}
