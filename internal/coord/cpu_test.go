package coord

import (
	"path/filepath"
	"testing"

	"github.com/gobench/gobench/pkg/result"
	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/store/sqlite"
	"github.com/gobench/gobench/pkg/workload"
)

// Every run records the CPU time its processes spent on the phase, and per
// op: in process mode the worker processes' own (each reports its
// getrusage over the phase) and the coordinator's beside it, in goroutine
// mode the one process's, marked as such. The null engine's CPU per op, gobench's own cost, is far below
// SQLite's: the figure measures the engine, not the harness. (CPU time,
// unlike wall time, does not grow with the machine's load.)
func TestCPUPerOp(t *testing.T) {
	for _, tc := range []struct {
		mode  string
		scope string
		procs int
	}{
		{workload.ModeProcess, result.CPUWorkers, 2},
		{workload.ModeGoroutine, result.CPUProcess, 1},
	} {
		t.Run(tc.mode, func(t *testing.T) {
			null := nullPlan(2, 1, 100_000)
			null.Mode = tc.mode
			db := nullPlan(2, 1, 5_000)
			db.Mode = tc.mode
			db.Driver = "modernc"
			o := sqlite.DefaultOptions()
			o.Journal, o.Sync = "wal", "normal"
			db.Store = store.Config{Path: filepath.Join(t.TempDir(), "cpu.db"), Options: o.Encode()}
			db.Keys.Count, db.Preload = 1000, 1000
			var perOp [2]float64
			for i, p := range []*workload.Plan{null, db} {
				res, err := run(t, p, "serve")
				if err != nil {
					t.Fatal(err)
				}
				ph := res.Phases[0]
				c := ph.CPU
				if c == nil {
					t.Fatalf("%s: no CPU time in the result", p.Driver)
				}
				t.Logf("%s: %+v over %d ops", p.Driver, *c, ph.Total.Count)
				if c.Scope != tc.scope || c.Processes != tc.procs || c.UserSeconds+c.SystemSeconds <= 0 || c.MicrosPerOp <= 0 {
					t.Errorf("%s: CPU %+v; want scope %q from %d processes, positive", p.Driver, *c, tc.scope, tc.procs)
				}
				if want := (c.UserSeconds + c.SystemSeconds) * 1e6 / float64(ph.Total.Count); c.MicrosPerOp != want {
					t.Errorf("%s: %v µs per op, want %v", p.Driver, c.MicrosPerOp, want)
				}
				switch co := c.Coordinator; {
				case tc.mode == workload.ModeGoroutine && co != nil:
					t.Errorf("%s: a coordinator's time %+v apart from the one process's", p.Driver, *co)
				case tc.mode == workload.ModeProcess && (co == nil || co.UserSeconds+co.SystemSeconds <= 0):
					t.Errorf("%s: coordinator's time %+v; want it measured", p.Driver, co)
				case co != nil && co.MicrosPerOp != (co.UserSeconds+co.SystemSeconds)*1e6/float64(ph.Total.Count):
					t.Errorf("%s: coordinator %v µs per op of %+v", p.Driver, co.MicrosPerOp, *co)
				}
				perOp[i] = c.MicrosPerOp
			}
			if perOp[0]*3 > perOp[1] {
				t.Errorf("null engine %.3f µs CPU per op, SQLite %.3f: want the harness far below the engine", perOp[0], perOp[1])
			}
		})
	}
}
