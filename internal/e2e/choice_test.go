package e2e

import (
	"encoding/json"
	"os"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/gobench/gobench/pkg/result"
)

// choicerss FILE asserts that the memory of every measured row of
// choose's answer FILE is its own worker process's: a peak recorded, and
// below the coordinating process's peak over the runs (which hosted every
// power-cut run and holds every result: a row reading it would be
// gobench's, not the engine's); and that each row's engine memory is
// that peak less the null driver's baseline, which was measured.
func choiceRSS(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: choicerss FILE")
	}
	data, err := os.ReadFile(ts.MkAbs(args[0]))
	ts.Check(err)
	var c result.Choice
	ts.Check(json.Unmarshal(data, &c))
	mib := func(b int64) float64 { return float64(b) / (1 << 20) }
	ts.Logf("coordinator peak %.1f MiB, baseline worker %.1f MiB", mib(c.CoordinatorMaxRSSBytes), mib(c.BaselineRSSBytes))
	if c.CoordinatorMaxRSSBytes <= 0 || c.BaselineRSSBytes <= 0 {
		ts.Fatalf("coordinator peak %d, baseline %d: want both measured", c.CoordinatorMaxRSSBytes, c.BaselineRSSBytes)
	}
	measured := 0
	for _, r := range c.Rows {
		if r.Runs == 0 {
			continue
		}
		measured++
		ts.Logf("%s: worker peak %.1f MiB, engine %.1f MiB", r.Name(), mib(r.PeakRSSBytes), mib(r.EngineRSSBytes))
		switch {
		case r.PeakRSSBytes <= 0:
			ts.Fatalf("%s: no worker peak (%s)", r.Name(), r.MemoryNote)
		case r.PeakRSSBytes >= c.CoordinatorMaxRSSBytes:
			ts.Fatalf("%s: peak %d, no less than the coordinator's %d: not its own worker's", r.Name(), r.PeakRSSBytes, c.CoordinatorMaxRSSBytes)
		case r.EngineRSSBytes != r.PeakRSSBytes-c.BaselineRSSBytes:
			ts.Fatalf("%s: engine %d, want its peak %d less the baseline %d", r.Name(), r.EngineRSSBytes, r.PeakRSSBytes, c.BaselineRSSBytes)
		}
	}
	if measured < 2 {
		ts.Fatalf("%d measured rows: want 2 or more", measured)
	}
}
