//go:build !darwin

package cli

// fder is an open file (an *os.File).
type fder interface{ Fd() uintptr }

// waitInReads leaves a FIFO opened without waiting as it is: Go's poller
// waits in its reads, which a deadline can interrupt.
func waitInReads(fder) {}

// waitInWrites leaves a FIFO opened without waiting as it is (see
// waitInReads).
func waitInWrites(fder) {}
