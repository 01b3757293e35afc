package result

import (
	"strings"
	"testing"

	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/workload"
)

// Under recovery-crash every state is listed with where its second cut
// fell, and those whose reopen wrote (and so were cut inside it) are
// counted.
func TestDurabilityRecoveryCut(t *testing.T) {
	d := NewDurability(&workload.Crash{States: 3, Model: store.CrashRecovery})
	states := []struct {
		r    workload.CrashResult
		want string
	}{
		{workload.CrashResult{Checked: 4, Recovery: &workload.RecoveryCut{}}, "its reopen wrote nothing (no second cut): kept all 4 acknowledged writes"},
		{workload.CrashResult{Checked: 5, Lost: 1, Recovery: &workload.RecoveryCut{Events: 7, Cut: 3, First: "kept all 5 acknowledged writes"}},
			"cut again after event 3 of the 7 its reopen recorded: lost 1 of 5 acknowledged writes (the reopen left to finish: kept all 5 acknowledged writes)"},
		{workload.CrashResult{Corrupt: true, NoOpen: true, Why: "does not open: gone", Recovery: &workload.RecoveryCut{Events: 2, Cut: 1, First: "nothing acknowledged yet"}},
			"cut again after event 1 of the 2 its reopen recorded: did not open: gone (the reopen left to finish: nothing acknowledged yet)"},
	}
	for i, s := range states {
		d.Add(store.CrashState{Index: i}, s.r)
	}
	if d.RecoveryCut != 2 || d.Lossy != 1 || d.Corrupt != 1 {
		t.Errorf("recovery cut %d, lossy %d, corrupt %d; want 2, 1, 1", d.RecoveryCut, d.Lossy, d.Corrupt)
	}
	if len(d.Points) != len(states) {
		t.Fatalf("%d points, want %d", len(d.Points), len(states))
	}
	for i, s := range states {
		if !strings.HasSuffix(d.Points[i], "): "+s.want) {
			t.Errorf("point %d: %q, want it ending %q", i, d.Points[i], s.want)
		}
	}
}
