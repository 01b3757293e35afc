package report

import (
	"fmt"
	"slices"
	"strings"

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

// suiteModel names a suite's crash model and its cuts per run, from a
// cell's durability d summed over its runs: "lose model, 6 power cuts
// per run", or "6 power cuts per run" where the cells span the models
// (a crash-model column then says each row's).
func suiteModel(s *result.Suite, d *result.Durability, runs int) string {
	if slices.Contains(s.Varied, "crash-model") {
		return fmt.Sprintf("%d power cuts per run", d.Requested/runs)
	}
	return fmt.Sprintf("%s model, %d power cuts per run", d.Model, d.Requested/runs)
}

// corruptCell is a durability row's corrupt column: "2", or "2 (1
// unopened)" where some of the corrupt states did not open.
func corruptCell(d *result.Durability) string {
	var of []string
	if d.NoOpen > 0 {
		of = append(of, fmt.Sprintf("%d unopened", d.NoOpen))
	}
	if d.NoPrefix > 0 {
		of = append(of, fmt.Sprintf("%d no prefix", d.NoPrefix))
	}
	if len(of) == 0 {
		return fmt.Sprint(d.Corrupt)
	}
	return fmt.Sprintf("%d (%s)", d.Corrupt, strings.Join(of, ", "))
}
