package runner

import (
	"github.com/gobench/gobench/pkg/iorecord"
	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/workload"
)

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

// ackRecord records write seq of a record workload, begun at offset
// began from START, on the record keynum, to field (-1: every field).
func (a *acker) ackRecord(seq uint64, keynum uint64, field int, began int64) {
	if a == nil {
		return
	}
	a.rec.RecordAck(store.Ack{Worker: a.worker, Phase: a.phase, First: seq, N: 1, Start: a.start + began,
		Record: true, Key: keynum, Field: field})
}

// recordAcks opens the record a plan's workers append their
// acknowledgements to themselves (workload.Plan.AckRecord), or returns
// nil.
func recordAcks(p *workload.Plan) (*ackRecorder, error) {
	if p.AckRecord == nil || p.Crash == nil {
		return nil, nil
	}
	r, err := iorecord.OpenRecorder(p.AckRecord.Path, p.AckRecord.Limit)
	if err != nil {
		return nil, err
	}
	return &ackRecorder{r: r}, nil
}

// ackRecorder appends acknowledgements to a crash record.
type ackRecorder struct{ r *iorecord.Recorder }

// RecordAck appends a.
func (a *ackRecorder) RecordAck(ack store.Ack) {
	e := iorecord.AckEvent(iorecord.Ack{Worker: ack.Worker, Phase: ack.Phase, First: ack.First, N: ack.N, Start: ack.Start,
		Record: ack.Record, Key: ack.Key, Field: ack.Field})
	e.Time = iorecord.Now()
	a.r.Append(e)
}

// Close closes the record, returning the first error an append met.
func (a *ackRecorder) Close() error {
	if a == nil {
		return nil
	}
	return a.r.Close()
}
