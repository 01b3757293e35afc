package judge

import (
	"testing"

	"github.com/gobench/gobench/pkg/result"
)

// A worker that ran no data op (a replay's idle worker, a captured
// connection without a statement) asked for nothing: fairness and the
// longest gap are over the workers that ran ops, the idle ones counted
// apart.
func TestFairnessLeavesOutIdleWorkers(t *testing.T) {
	busy := func(id int) result.Worker {
		return result.Worker{ID: id, Ops: 100, OpsPerSec: 100, Seconds: 1, Finished: true, MaxGapMicros: 2000, MaxMicros: 500}
	}
	ph := &result.Phase{Workers: []result.Worker{busy(0), busy(1),
		{ID: 2, Finished: true, Seconds: 1, MaxGapMicros: 1e6}, // idle: the whole phase without a completion
		{ID: 3, Finished: true}}}
	f, ok := FairnessOf(ph)
	if !ok || f.Workers != 2 || f.Idle != 2 || f.Index != 1 || f.MaxGapMicros != 2000 || f.Worst.Ops == 0 {
		t.Errorf("fairness %+v (ok %v), want index 1 over the 2 workers that ran, their 2 ms gap, 2 idle", f, ok)
	}
	ph.Workers = ph.Workers[1:]
	if f, ok := FairnessOf(ph); ok || f.Idle != 2 {
		t.Errorf("one worker that ran and two idle: %+v (ok %v), want no fairness", f, ok)
	}
}
