package report

import (
	"fmt"

	"github.com/gobench/gobench/pkg/result"
	"github.com/gobench/gobench/pkg/store"
)

// modelText says what a crash model beyond lost unsynced data did to
// the run's states: under recovery-crash, " · 5 of 6 states cut again
// inside their reopen's recovery" (the others' reopens wrote nothing).
func modelText(d *result.Durability) string {
	if d.Model == store.CrashFsyncFail {
		return fsyncFailText(d)
	}
	if d.Model == store.CrashRecovery {
		return fmt.Sprintf(" · %d of %d %s cut again inside their reopen's recovery", d.RecoveryCut, d.States, plural(d.States, "state", "states"))
	}
	return ""
}

// fsyncFailText says, under fsync-fail, whether a sync failed, whether
// the failure reached the committing call, and whether the states lost
// writes acknowledged after it: " · sync #6 failed (EIO) in 1 place ·
// the error reached the committer: 1 op failed with an I/O error · 0
// states lost writes acknowledged after the failed sync".
func fsyncFailText(d *result.Durability) string {
	if d.FailedSyncs == 0 {
		return fmt.Sprintf(" · no sync failed: the run synced the store's files fewer than the %d times before its sync #%d fails", d.FailSync, d.FailSync)
	}
	s := fmt.Sprintf(" · sync #%d failed (EIO) %d %s", d.FailSync, d.FailedSyncs, plural(d.FailedSyncs, "time", "times"))
	if d.FailedOps > 0 {
		s += fmt.Sprintf(" · the error reached the committer: %d %s failed with an I/O error", d.FailedOps, plural(int(d.FailedOps), "op", "ops"))
	} else {
		s += " · the error did NOT reach the committer: no op failed with an I/O error"
	}
	s += fmt.Sprintf(" · %d of %d %s lost writes acknowledged after the failed sync", d.LossyAfterFail, d.States, plural(d.States, "state", "states"))
	if d.LossyAfterFail > 0 {
		s += fmt.Sprintf(", up to %d in one", d.MaxLostAfterFail)
	}
	return s
}
