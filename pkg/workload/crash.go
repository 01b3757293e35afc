package workload

import (
	"math"

	"github.com/gobench/gobench/pkg/store"
)

// crashBytesPerCommit is what a commit's record takes, about: the pages
// it writes (a rollback journal's two and the database's two; a WAL's
// frames and their share of checkpoints come to less), each with its
// event's header, as a SQLite run of small values records them.
const crashBytesPerCommit = 4 * (4096 + 32)

// CrashRecordBytes estimates the bytes the crash record of a run of p
// takes: its commits (a batch's, a script's, or a write op's) times
// what a commit writes, pages and the values besides. known is false
// when the phases are bounded by time, not by a count of ops.
func (p *Plan) CrashRecordBytes() (n int64, known bool) {
	workers := int64(len(p.WorkerIDs()))
	for _, ph := range p.RunPhases() {
		if ph.Ops == 0 && ph.Access != AccessEach {
			return 0, false
		}
		ops := ph.Ops
		if ph.Access == AccessEach && ops == 0 {
			ops = int64(p.Keys.Count) / max(workers, 1)
		}
		var writes, total float64
		for _, w := range ph.Mix {
			if w.Op.IsWrite() || w.Op.IsScript() {
				writes += w.Percent
			}
			total += w.Percent
		}
		if total == 0 {
			continue
		}
		written := int64(math.Ceil(float64(workers*ops) * writes / total))
		commits := written
		if ph.Batch > 1 {
			commits = (commits + int64(ph.Batch) - 1) / int64(ph.Batch)
		}
		n += commits*crashBytesPerCommit + written*int64(2*p.ValueSize)
	}
	return n, true
}

// acker records the acknowledgements of a --crash run on the worker's
// connection (store.AckRecorder): a write's, once its COMMIT returned.
type acker struct {
	rec           store.AckRecorder
	worker, phase int
	start         int64 // the phase's START
}

// ack records writes first to first+n-1, the first begun at offset
// began from START.
func (a *acker) ack(first uint64, n int, began int64) {
	if a == nil || n == 0 {
		return
	}
	a.rec.RecordAck(store.Ack{Worker: a.worker, Phase: a.phase, First: first, N: n, Start: a.start + began})
}
