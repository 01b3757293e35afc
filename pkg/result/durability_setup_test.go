package result

import (
	"strings"
	"testing"

	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/workload"
)

// A record that starts before the store's setup: a state cut in the
// setup that does not open is counted apart, not corrupt; one after it
// that does not open is corrupt; one without its preloaded rows lost
// acknowledged writes. Exhaustive states are each listed by their point.
func TestDurabilityFromSetup(t *testing.T) {
	d := NewDurability(&workload.Crash{Exhaustive: true, From: workload.CrashFromOpen, Model: store.CrashLose})
	states := []struct {
		label string
		r     workload.CrashResult
		want  string
	}{
		{"after fsync #1 of db", workload.CrashResult{InSetup: true, NoOpen: true, Why: "does not open: no such table"}, "did not open: no such table"},
		{"after fsync #2 of db", workload.CrashResult{InSetup: true, Preloaded: 100, PreloadHeld: 40}, "held 40 of 100 preloaded rows, not yet acknowledged"},
		{"after fsync #3 of db", workload.CrashResult{Preloaded: 100, PreloadHeld: 10, PreloadLost: 90}, "opened without its preloaded rows: 90 of 100"},
		{"after fsync #4 of db", workload.CrashResult{Corrupt: true, NoOpen: true, Why: "does not open: gone"}, "did not open: gone"},
		{"after fsync #5 of db", workload.CrashResult{Preloaded: 100, PreloadHeld: 100, Checked: 3}, "kept all 103 acknowledged writes"},
	}
	for i, s := range states {
		d.Add(store.CrashState{Index: i, Label: s.label}, s.r)
	}
	if d.From != workload.CrashFromOpen || !d.Exhaustive {
		t.Errorf("from %q, exhaustive %v", d.From, d.Exhaustive)
	}
	if d.InSetup != 2 || d.NoOpen != 2 || d.SetupNoOpen != 1 || d.Corrupt != 1 {
		t.Errorf("in setup %d, did not open %d (%d in the setup), corrupt %d; want 2, 2 (1), 1", d.InSetup, d.NoOpen, d.SetupNoOpen, d.Corrupt)
	}
	if d.Lossy != 1 || d.PreloadLossy != 1 || d.MaxPreloadLost != 90 || d.Preloaded != 100 || d.MaxLost != 0 {
		t.Errorf("lossy %d, preload lossy %d, most %d of %d, max lost %d; want 1, 1, 90 of 100, 0", d.Lossy, d.PreloadLossy, d.MaxPreloadLost, d.Preloaded, d.MaxLost)
	}
	if len(d.Points) != len(states) {
		t.Fatalf("%d points, want %d", len(d.Points), len(states))
	}
	for i, s := range states {
		p := d.Points[i]
		if !strings.Contains(p, "("+s.label+", ") || !strings.HasSuffix(p, "): "+s.want) {
			t.Errorf("point %d: %q, want it named %q and ending %q", i, p, s.label, s.want)
		}
	}
}

// A run recorded from its START says nothing of the setup.
func TestDurabilityFromStart(t *testing.T) {
	d := NewDurability(&workload.Crash{States: 3, From: workload.CrashFromStart, Model: store.CrashLose})
	d.Add(store.CrashState{}, workload.CrashResult{Checked: 1})
	if d.From != "" || d.Points != nil || d.InSetup != 0 {
		t.Errorf("from %q, points %v, in setup %d: want none", d.From, d.Points, d.InSetup)
	}
}
