package workload_test

import (
	"strings"
	"testing"

	"github.com/gobench/gobench/pkg/store/all"
	"github.com/gobench/gobench/pkg/workload"
)

// An engine one process may open at a time runs in one worker process
// the coordinator hands the store over to, and only there: a second
// worker process, a --verify ledger or power cuts (which need the store
// open in the coordinator while the worker runs) are refused as before,
// and so is an engine whose data lives in the coordinator's memory.
func TestHandsOver(t *testing.T) {
	t.Parallel()
	reg := all.Registry()
	for _, tt := range []struct {
		name   string
		driver string
		procs  int
		verify bool
		crash  bool
		hands  bool
		err    string
	}{
		{"bbolt in one worker process", "bbolt", 1, false, false, true, ""},
		{"pebble in one worker process", "pebble", 1, false, false, true, ""},
		{"bbolt in two", "bbolt", 2, false, false, false, "allows one process at a time"},
		{"bbolt verified", "bbolt", 1, true, false, false, "allows one process at a time"},
		{"pebble cut", "pebble", 1, true, true, false, "allows one process at a time"},
		{"a Go map", "map", 1, false, false, false, "allows one process at a time"},
		{"SQLite shares processes", "mattn", 1, false, false, false, ""},
	} {
		drv, err := reg.Lookup(tt.driver)
		if err != nil {
			t.Fatal(err)
		}
		p := workload.DefaultPlan()
		p.Driver, p.Mode, p.Procs, p.Goroutines, p.Verify = tt.driver, workload.ModeProcess, tt.procs, 4, tt.verify
		if tt.crash {
			p.Crash = &workload.Crash{States: 3}
		}
		if got := workload.HandsOver(&p, drv); got != tt.hands {
			t.Errorf("%s: hands over %v, want %v", tt.name, got, tt.hands)
		}
		err = workload.CheckDriver(&p, drv)
		if (tt.err == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tt.err)) {
			t.Errorf("%s: %v, want %q", tt.name, err, tt.err)
		}
	}
}
