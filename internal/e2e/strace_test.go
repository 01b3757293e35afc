package e2e

import (
	"os"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/gobench/gobench/pkg/store"
)

// stracecheck TRACE RESULT asserts that the syncs gobench counted (the
// store's setup, and the run: every phase and what the processes did
// outside them) are, within 1%, the fsync and fdatasync calls strace saw
// in TRACE (strace -f -e trace=fsync,fdatasync,execve): those before the
// first worker process started are the setup's, the others the run's.
// Both must have some.
func straceCheck(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: stracecheck TRACE RESULT")
	}
	b, err := os.ReadFile(ts.MkAbs(args[0]))
	ts.Check(err)
	var setup, run int64
	started := false
	for line := range strings.SplitSeq(string(b), "\n") {
		switch {
		case strings.Contains(line, "execve(") && strings.Contains(line, `"worker"]`):
			started = true
		case (strings.Contains(line, " fsync(") || strings.Contains(line, " fdatasync(")) && !strings.Contains(line, "resumed>"):
			if started {
				run++
			} else {
				setup++
			}
		}
	}
	if !started {
		ts.Fatalf("%s shows no worker process starting", args[0])
	}
	r := readResult(ts, args[1])
	syncs := func(io *store.IOCounts) int64 {
		if io == nil {
			return 0
		}
		return io.Syncs()
	}
	var counted int64
	for _, ph := range r.Phases {
		if ph.IO == nil {
			ts.Fatalf("phase %s has no I/O counts", ph.Name)
		}
		counted += ph.IO.Files.Syncs()
	}
	counted += syncs(r.IOOutside)
	ts.Logf("syncs: strace %d in setup, %d in the run; gobench %d in setup, %d in the run", setup, run, syncs(r.IOSetup), counted)
	within := func(got, want int64) bool { d := got - want; return want > 0 && d*d*10000 <= want*want }
	if !within(counted, run) || !within(syncs(r.IOSetup), setup) {
		ts.Fatalf("gobench counted %d syncs in setup and %d in the run; strace saw %d and %d", syncs(r.IOSetup), counted, setup, run)
	}
}
