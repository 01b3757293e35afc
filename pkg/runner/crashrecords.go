package runner

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/workload"
)

// recWrite is a record workload's acknowledged write: the field it
// wrote, or -1 for every field (an insert's, or an update of every
// field).
type recWrite struct {
	ackedWrite
	field int
}

// touches reports whether the write wrote field f.
func (w recWrite) touches(f int) bool { return w.field < 0 || w.field == f }

// addRecord adds a record write's acknowledgement (store.Ack.Record);
// the record gives them in its order, so each record's writes stay
// sorted by event.
func (x *CrashIndex) addRecord(a store.Ack) {
	if x.byRec == nil {
		x.byRec = map[uint64][]recWrite{}
	}
	x.byRec[a.Key] = append(x.byRec[a.Key], recWrite{field: a.Field, ackedWrite: ackedWrite{worker: a.Worker, phase: a.Phase,
		seq: a.First, start: time.Duration(a.Start), end: time.Duration(a.At), event: a.Event}})
}

// checkRecordState checks every record with writes acknowledged before
// the crash, field by field: each field must hold the newest
// acknowledged write to it (its Tag names it) or a later one; a record
// that is gone lost them all. A write is lost once, whatever number of
// its fields lost it.
func checkRecordState(ctx context.Context, c store.Conn, plan *workload.Plan, st store.CrashState, x *CrashIndex) (workload.CrashResult, error) {
	var res workload.CrashResult
	rc, ok := c.(store.Recorder)
	if !ok {
		return res, fmt.Errorf("checking crash state %d: the engine reads no records", st.Index)
	}
	var (
		key    []byte
		fields [][]byte
		l      lossTally
	)
	for keynum, writes := range x.byRec {
		n, err := ackedBefore(ctx, writes, st, &res)
		if err != nil {
			return res, err
		}
		if n == 0 {
			continue
		}
		key = plan.Records.AppendKey(key[:0], keynum)
		fields, err = rc.ReadRecord(key, -1, fields)
		if err != nil && !errors.Is(err, store.ErrNotFound) {
			return verdict(ctx, st, res, fmt.Sprintf("reading record %s", key), err)
		}
		for _, w := range lostRecordWrites(fields, err, writes, n) {
			l.add(&res, st, w, "record "+string(key))
		}
	}
	l.done(&res, st)
	return res, nil
}

// lostRecordWrites returns the writes among the first n of writes (those
// acknowledged before the crash) that a record holding fields (none, when
// err is ErrNotFound) lost: per field, as lostWrites judges a key's value,
// over the writes to that field.
func lostRecordWrites(fields [][]byte, err error, writes []recWrite, n int) []ackedWrite {
	if err != nil {
		lost := make([]ackedWrite, n)
		for i, w := range writes[:n] {
			lost[i] = w.ackedWrite
		}
		return lost
	}
	lostAt := map[int]bool{} // by index in writes
	var sub []ackedWrite
	var at []int
	for f, v := range fields {
		sub, at = sub[:0], at[:0]
		m := 0 // of sub, those acknowledged before the crash
		for i, w := range writes {
			if w.touches(f) {
				sub, at = append(sub, w.ackedWrite), append(at, i)
				if i < n {
					m++
				}
			}
		}
		for _, w := range lostWrites(v, nil, sub, m) {
			for j, s := range sub[:m] {
				if s == w {
					lostAt[at[j]] = true
				}
			}
		}
	}
	var lost []ackedWrite
	for i, w := range writes[:n] {
		if lostAt[i] {
			lost = append(lost, w.ackedWrite)
		}
	}
	return lost
}
