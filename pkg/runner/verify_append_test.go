package runner

import (
	"context"
	"errors"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/gobench/gobench/pkg/deal"
	"github.com/gobench/gobench/pkg/result"
	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/store/mapstore"
	"github.com/gobench/gobench/pkg/workload"
)

// Verify reads back every key an acknowledged append wrote: a run of
// appends passes, and the same database with one appended key removed
// (checked to have been there, and to be gone) fails, naming that key.
func TestVerifyLostAppend(t *testing.T) {
	ctx := context.Background()
	p := testPlan(2)
	p.Driver, p.Mode, p.Verify = "map", workload.ModeGoroutine, true
	p.Keys.Count, p.Preload = 100, 100
	p.Phases[0].Mix = workload.Mix{{Op: workload.OpAppend, Percent: 60}, {Op: workload.OpRead, Percent: 40}}
	p.Phases[0].Ops = 200
	if err := p.Validate(); err != nil {
		t.Fatal(err)
	}
	st, err := OpenStore(ctx, p, mapstore.Driver{}, Setup{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	b := result.NewBuilder(p)
	l := &ledger{}
	b.SetWriteLedger(l)
	if err := (&Host{Plan: p, Store: st, Workers: p.WorkerIDs(), Collector: b}).Run(ctx); err != nil {
		t.Fatal(err)
	}
	records := func(yield func(workload.WriteRecord) bool) {
		for _, r := range l.all {
			if !yield(r) {
				return
			}
		}
	}
	rep, err := Verify(ctx, st, p, records)
	if err != nil || rep.Violations != 0 || rep.AckedWrites == 0 || int64(rep.KeysChecked) != int64(p.Keys.Count)+int64(rep.AckedWrites) {
		t.Fatalf("intact: %+v, %v; want no violations, every acknowledged append's key checked beside the key space's", rep, err)
	}
	// Remove the key of worker 1's third acknowledged append.
	r := l.all[slices.IndexFunc(l.all, func(r workload.WriteRecord) bool { return r.Worker == 1 && r.Seq == 2 && r.Acked })]
	key := appendKeyOf(t, p, r)
	c, err := st.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Get(key, nil); err != nil {
		t.Fatalf("appended key %d before its removal: %v", key, err)
	}
	if err := c.(store.Deleter).Delete(key); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Get(key, nil); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("appended key %d after its removal: %v, want not found", key, err)
	}
	c.Close()
	rep, err = Verify(ctx, st, p, records)
	if !errors.Is(err, workload.ErrVerify) || rep.Violations != 1 || !strings.Contains(rep.Examples[0], "key "+strconv.FormatUint(key, 10)+" is missing") {
		t.Fatalf("one append lost: %+v, %v; want one violation naming key %d", rep, err, key)
	}
}

// appendKeyOf replays r's worker's lottery to the key of its write r.
func appendKeyOf(t *testing.T, p *workload.Plan, r workload.WriteRecord) uint64 {
	t.Helper()
	l := deal.NewLottery(p, r.Phase, r.Worker)
	for seq := uint64(0); ; {
		op, key := l.Next()
		if !op.IsWrite() {
			continue
		}
		if seq == r.Seq {
			if op != workload.OpAppend {
				t.Fatalf("write %d is a %v", seq, op)
			}
			return key
		}
		seq++
	}
}
