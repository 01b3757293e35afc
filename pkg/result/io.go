package result

import (
	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/workload"
)

// PhaseIO is the file I/O of a phase as the engine counted it, the way
// the kernel received it (store.IOTracer: SQLite's tracing VFS), summed
// over the processes that ran the phase, and what it comes to per
// acknowledged commit. A phase of an engine that does not trace its I/O
// has none; its result says why (the store's io_trace fact).
type PhaseIO struct {
	Files store.IOCounts `json:"files"`
	// Processes is how many processes reported their counts.
	Processes int `json:"processes"`
	// Commits is the phase's acknowledged commits: its write ops that
	// succeeded when each op is its own transaction, its COMMITs that
	// succeeded when ops are batched, its scripts that succeeded in a sql
	// workload, those that may write (workload.SQLFile.ReadOnly: a script
	// of queries commits nothing to sync).
	Commits int64 `json:"commits"`
	// SyncsPerCommit counts every sync the kernel received, of the files
	// and of their directory; BytesPerCommit every byte written.
	SyncsPerCommit float64 `json:"syncs_per_commit"`
	BytesPerCommit float64 `json:"bytes_per_commit"`
	// ValueBytes is what the acknowledged writes asked to write: their
	// values, each of the plan's value size (the mean size, with a
	// variance); 0 where it is not known (a sql workload).
	// Amplification is the bytes written over ValueBytes.
	ValueBytes    int64   `json:"value_bytes,omitempty"`
	Amplification float64 `json:"write_amplification,omitempty"`
}

// AddIO adds one process's file I/O over run phase phase (see
// Plan.RunPhases), or, for phase -1, what a worker process did outside
// every phase (opening and closing its connections).
func (b *Builder) AddIO(phase int, io store.IOCounts) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if phase < 0 {
		if b.outside == nil {
			b.outside = &store.IOCounts{}
		}
		b.outside.Add(io)
		return
	}
	ps := b.phases[phase]
	if ps.io == nil {
		ps.io = &store.IOCounts{}
	}
	ps.io.Add(io)
	ps.ioProcs++
}

// SetSetupIO records the file I/O of the store's setup, before the
// first phase: its schema and preload.
func (b *Builder) SetSetupIO(io store.IOCounts) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.setup = &io
}

// newPhaseIO sums a phase's I/O up per acknowledged commit: a write op
// that succeeded, a batch's COMMIT, a script that may write, or a
// replayed statement that committed a transaction.
func newPhaseIO(io store.IOCounts, procs int, ph *Phase, spec *workload.Phase, plan *workload.Plan) *PhaseIO {
	pio := &PhaseIO{Files: io, Processes: procs}
	var values int64
	for _, o := range ph.Ops {
		op, err := workload.ParseOp(o.Kind)
		isScript := err != nil && isWritingScript(plan, o.Kind)
		ok := o.Count - o.Errors.Total - o.NotFound
		switch {
		case spec.Batch > 1 && o.Kind == workload.OpCommit.String():
			pio.Commits += o.Count - o.Errors.Total
		case spec.Batch <= 1 && err == nil && op.IsWrite():
			pio.Commits += ok
		case isScript:
			pio.Commits += ok
		}
		if err == nil && op.IsWrite() && op != workload.OpDelete {
			values += ok
		}
	}
	if plan.Recorded() { // a recording's ops (a replay's statements) are not the transactions: its commits are counted as they happened
		pio.Commits = ph.Total.Commits
	}
	if pio.Commits > 0 {
		pio.SyncsPerCommit = float64(io.Syncs()) / float64(pio.Commits)
		pio.BytesPerCommit = float64(io.Total().Bytes) / float64(pio.Commits)
	}
	if plan.SQL == nil && values > 0 {
		pio.ValueBytes = values * int64(plan.ValueSize)
		pio.Amplification = float64(io.Total().Bytes) / float64(pio.ValueBytes)
	}
	return pio
}

// isWritingScript reports whether kind names one of the plan's scripts (a
// statement's row, SCRIPT#LINE, is not one) that may write: one the plan
// does not record as read-only.
func isWritingScript(plan *workload.Plan, kind string) bool {
	if plan.SQL == nil {
		return false
	}
	names := plan.OpNames()
	for i, src := range plan.SQL.Scripts {
		if names[workload.ScriptOp(i)] == kind {
			return !src.ReadOnly
		}
	}
	return false
}

// SyncsPerSec returns the syncs per second phase i's commits made the
// kernel do (commits per second times the syncs each made, both
// measured); ok is false for a phase without traced I/O or without
// commits.
func (r *Result) SyncsPerSec(i int) (rate float64, ok bool) {
	if i >= len(r.Phases) || r.Phases[i].IO == nil || r.Phases[i].WallSeconds <= 0 {
		return 0, false
	}
	io := r.Phases[i].IO
	if io.Commits == 0 {
		return 0, false
	}
	return float64(io.Files.Syncs()) / r.Phases[i].WallSeconds, true
}
