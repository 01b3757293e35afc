package runner

import (
	"context"
	"slices"
	"testing"

	"github.com/gobench/gobench/pkg/deal"
	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/workload"
)

// field returns a 40-byte field value tagged as worker 0's write seq
// (or untagged, as a preloaded field is, for seq -1).
func field(seq int) []byte {
	v := []byte("........................................")
	if seq >= 0 {
		deal.PutTag(v, 0, 0, uint64(seq))
	}
	return v
}

// recAck is the acknowledgement of worker 0's write seq to keynum's
// field f (-1: every field), begun at 10×seq and acknowledged at
// 10×seq+5, the record's event 10×seq+5.
func recAck(keynum uint64, seq, f int) store.Ack {
	t := int64(10 * seq)
	return store.Ack{Worker: 0, Phase: 0, First: uint64(seq), N: 1, Start: t, At: t + 5, Event: t + 5,
		Record: true, Key: keynum, Field: f}
}

// A record workload's crash state is checked record by record and field
// by field: a field that holds an older write than the newest
// acknowledged one to it lost it, even where another field holds a
// newer write (the check a record's newest tag alone would miss); a
// record that is gone lost every acknowledged write to it; a value no
// acknowledged write put there (its COMMIT never returned) is newer.
func TestCheckRecordState(t *testing.T) {
	p := workload.DefaultPlan()
	p.Records = &workload.Records{RecordCount: 10, InsertCount: 10, FieldLength: 40, FieldLengthDistribution: workload.LengthConstant}
	p.Store.Table = &store.Table{Name: "usertable", Key: "YCSB_KEY", Field: "FIELD", Fields: 2}
	acks := []store.Ack{
		recAck(1, 0, 0),  // key 1: field 0 by write 0,
		recAck(1, 1, 1),  // then field 1 by write 1
		recAck(2, 2, -1), // key 2: inserted by write 2
		recAck(3, 3, 0),  // key 3: field 0 by write 3
		recAck(4, 4, 1),  // key 4: field 1 by write 4, acknowledged after the cut
	}
	tests := []struct {
		name    string
		records map[uint64][][]byte // what the state holds
		lost    []uint64            // the seqs lost
	}{
		{"all held", map[uint64][][]byte{1: {field(0), field(1)}, 2: {field(2), field(2)}, 3: {field(3), field(-1)}}, nil},
		{"an older field beside a newer one", map[uint64][][]byte{1: {field(-1), field(1)}, 2: {field(2), field(2)}, 3: {field(3), field(-1)}}, []uint64{0}},
		{"an insert gone", map[uint64][][]byte{1: {field(0), field(1)}, 3: {field(3), field(-1)}}, []uint64{2}},
		{"an insert half there", map[uint64][][]byte{1: {field(0), field(1)}, 2: {field(2), field(-1)}, 3: {field(3), field(-1)}}, []uint64{2}},
		{"an unacknowledged newer write", map[uint64][][]byte{1: {field(0), field(1)}, 2: {field(2), field(2)}, 3: {field(9), field(-1)}}, nil},
		{"the preload's value", map[uint64][][]byte{1: {field(0), field(1)}, 2: {field(2), field(2)}, 3: {field(-1), field(-1)}}, []uint64{3}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			x := NewCrashIndex(&p)
			for _, a := range acks {
				x.Add(a)
			}
			if n := x.Acks(); n != 5 {
				t.Errorf("%d acknowledged writes, want 5", n)
			}
			ms := store.NewMemStore(store.MapIndex[uint64]{}, store.MapIndex[string]{}, p.Store.Table)
			c, err := ms.Conn(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			for k, fs := range tt.records {
				if err := c.(store.Recorder).InsertRecord(p.Records.AppendKey(nil, k), fs); err != nil {
					t.Fatal(err)
				}
			}
			st := store.CrashState{Event: 40, At: 100} // after write 3's acknowledgement, before write 4's
			res, err := checkRecordState(context.Background(), c, &p, st, x)
			if err != nil {
				t.Fatal(err)
			}
			if res.Checked != 4 {
				t.Errorf("checked %d writes, want the 4 acknowledged before the cut", res.Checked)
			}
			lost := lostIn(t, c, &p, st, x)
			slices.Sort(lost)
			if res.Lost != int64(len(tt.lost)) || !slices.Equal(lost, tt.lost) {
				t.Errorf("lost %d writes %v (%q), want %v", res.Lost, lost, res.Examples, tt.lost)
			}
		})
	}
}

// lostIn returns the seqs of the writes the state on c lost, as
// lostRecordWrites finds them record by record.
func lostIn(t *testing.T, c store.Conn, p *workload.Plan, st store.CrashState, x *CrashIndex) []uint64 {
	t.Helper()
	var seqs []uint64
	for k, ws := range x.byRec {
		n, err := ackedBefore(context.Background(), ws, st, &workload.CrashResult{})
		if err != nil {
			t.Fatal(err)
		}
		fs, err := c.(store.Recorder).ReadRecord(p.Records.AppendKey(nil, k), -1, nil)
		for _, w := range lostRecordWrites(fs, err, ws, n) {
			seqs = append(seqs, w.seq)
		}
	}
	return seqs
}
