package coord

import (
	"path/filepath"
	"testing"

	"github.com/gobench/gobench/pkg/workload"
)

// An engine one process may open at a time runs in one worker process:
// the coordinator preloads the store, hands it over (the worker could not
// take its lock otherwise), opens it again after, and the result has every
// op, the worker's own peak memory and the database's size with the
// preloaded rows in it.
func TestHandOverOneProcessEngine(t *testing.T) {
	t.Parallel()
	for _, driver := range []string{"bbolt", "pebble"} {
		t.Run(driver, func(t *testing.T) {
			t.Parallel()
			p := nullPlan(1, 3, 300)
			p.Driver, p.Mode = driver, workload.ModeProcess
			p.Keys.Count, p.Preload = 500, 500
			p.Store.Path = filepath.Join(t.TempDir(), "db")
			res, err := run(t, p, "serve")
			if err != nil {
				t.Fatal(err)
			}
			if got := res.Phases[0].Total.Count; got != 900 {
				t.Errorf("%d ops, want 900", got)
			}
			if res.WorkerMaxRSSBytes <= 0 {
				t.Errorf("no worker peak memory")
			}
			if res.Space == nil || res.Space.LiveKeys < 500 {
				t.Errorf("space after the run %+v, want the 500 preloaded keys at least", res.Space)
			}
		})
	}
}
