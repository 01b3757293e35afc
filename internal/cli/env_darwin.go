package cli

import "syscall"

// fder is an open file (an *os.File).
type fder interface{ Fd() uintptr }

// waitInReads makes a FIFO opened without waiting (O_NONBLOCK) wait in
// its reads again: Go cannot poll a FIFO with kqueue here, so a read with
// nothing to read yet would fail with EAGAIN.
func waitInReads(f fder) { _ = syscall.SetNonblock(int(f.Fd()), false) }

// waitInWrites makes a FIFO opened without waiting wait in its writes
// again (see waitInReads).
func waitInWrites(f fder) { _ = syscall.SetNonblock(int(f.Fd()), false) }
