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
	if d.Model == store.CrashRecovery {
		return fmt.Sprintf(" · %d of %d %s cut again inside their reopen's recovery", d.RecoveryCut, d.States, plural(d.States, "state", "states"))
	}
	return ""
}
