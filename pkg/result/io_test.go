package result

import (
	"testing"

	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/workload"
)

// A replayed trace's I/O is per the transactions it committed: its
// statements are no write ops, and none of its kinds parses as one.
func TestPhaseIOReplay(t *testing.T) {
	io := store.IOCounts{Database: store.FileIO{Writes: 10, Bytes: 40960, Syncs: 6}, Journal: store.FileIO{Writes: 12, Bytes: 20480, Syncs: 6}}
	ph := &Phase{Ops: []OpStats{{Kind: "q7da7727c", Latency: Latency{Count: 3}}, {Kind: "qfd7ea31b", Latency: Latency{Count: 9}}}, Total: OpStats{Latency: Latency{Count: 12}, Commits: 3}}
	plan := &workload.Plan{Replay: &workload.Replay{}}
	pio := newPhaseIO(io, 1, ph, &workload.Phase{Batch: 1}, plan)
	if pio.Commits != 3 || pio.SyncsPerCommit != 4 || pio.BytesPerCommit != 20480 {
		t.Errorf("commits %d, syncs/commit %v, bytes/commit %v; want 3, 4, 20480", pio.Commits, pio.SyncsPerCommit, pio.BytesPerCommit)
	}
	plan.Replay = nil // the same kinds in another workload name no commit
	if pio := newPhaseIO(io, 1, ph, &workload.Phase{Batch: 1}, plan); pio.Commits != 0 {
		t.Errorf("not a replay: %d commits", pio.Commits)
	}
}
