package result

import (
	"testing"
	"time"

	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/workload"
)

// sliceLedger keeps the write records in order.
type sliceLedger []workload.WriteRecord

func (l *sliceLedger) Add(r workload.WriteRecord) { *l = append(*l, r) }

// The ledger's record of a write ends when the write was acknowledged: an
// op outside a batch when it returned, a batch's when its COMMIT returned
// (the COMMIT's sample follows its ops'); a batch that ended without a
// COMMIT (an op failed in it, or the worker stopped) acknowledged nothing,
// and its writes keep their own ends.
func TestLedgerEndsAtAcknowledgement(t *testing.T) {
	t.Parallel()
	const ms = time.Millisecond
	type sample struct {
		op         workload.Op
		class      store.Class
		start, lat time.Duration
	}
	upsert := func(start time.Duration, c store.Class) sample { return sample{workload.OpUpsert, c, start, ms} }
	for _, tt := range []struct {
		name    string
		samples []sample
		want    []workload.WriteRecord // Worker 0, phase 0
	}{
		{"outside a batch", []sample{upsert(1*ms, store.OK), upsert(3*ms, store.Busy)},
			[]workload.WriteRecord{{Seq: 0, Start: 1 * ms, End: 2 * ms, Acked: true}, {Seq: 1, Start: 3 * ms, End: 4 * ms}}},
		{"a batch committed", []sample{{workload.OpBegin, store.OK, 0, ms}, upsert(1*ms, store.OK), {workload.OpRead, store.OK, 2 * ms, ms}, upsert(3*ms, store.OK), {workload.OpCommit, store.OK, 4 * ms, 20 * ms}},
			[]workload.WriteRecord{{Seq: 0, Start: 1 * ms, End: 24 * ms, Acked: true}, {Seq: 1, Start: 3 * ms, End: 24 * ms, Acked: true}}},
		{"a commit failed", []sample{{workload.OpBegin, store.OK, 0, ms}, upsert(1*ms, store.Busy), {workload.OpCommit, store.Busy, 2 * ms, 5 * ms}, upsert(9*ms, store.OK)},
			[]workload.WriteRecord{{Seq: 0, Start: 1 * ms, End: 7 * ms}, {Seq: 1, Start: 9 * ms, End: 10 * ms, Acked: true}}},
		{"an op failed in a batch, then a batch committed", []sample{{workload.OpBegin, store.OK, 0, ms}, upsert(1*ms, store.Busy), {workload.OpBegin, store.OK, 3 * ms, ms}, upsert(4*ms, store.OK), {workload.OpCommit, store.OK, 5 * ms, 10 * ms}},
			[]workload.WriteRecord{{Seq: 0, Start: 1 * ms, End: 2 * ms}, {Seq: 1, Start: 4 * ms, End: 15 * ms, Acked: true}}},
		{"a BEGIN failed", []sample{{workload.OpBegin, store.Busy, 0, ms}, upsert(0, store.Busy), upsert(2*ms, store.OK)},
			[]workload.WriteRecord{{Seq: 0, Start: 0, End: ms}, {Seq: 1, Start: 2 * ms, End: 3 * ms, Acked: true}}},
		{"a batch left open at the end", []sample{{workload.OpBegin, store.OK, 0, ms}, upsert(1*ms, store.Busy)},
			[]workload.WriteRecord{{Seq: 0, Start: 1 * ms, End: 2 * ms}}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			b := NewBuilder(plan(1))
			var l sliceLedger
			b.SetWriteLedger(&l)
			r := b.Recorder(0, 0)
			for _, s := range tt.samples {
				rec(t, r, s.op, s.class, s.start, s.lat)
			}
			if err := r.Done(workload.WorkerStats{Samples: int64(len(tt.samples))}); err != nil {
				t.Fatal(err)
			}
			if len(l) != len(tt.want) {
				t.Fatalf("ledger %+v, want %+v", l, tt.want)
			}
			for i := range l {
				if l[i] != tt.want[i] {
					t.Errorf("record %d: %+v, want %+v", i, l[i], tt.want[i])
				}
			}
		})
	}
}
