package runner

import "github.com/gobench/gobench/pkg/store"

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
