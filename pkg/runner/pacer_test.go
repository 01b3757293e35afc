package runner

import (
	"context"
	"testing"
	"time"

	"github.com/gobench/gobench/pkg/deal"
	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/store/nullstore"
	"github.com/gobench/gobench/pkg/workload"
)

// tickSource is a source no built-in is: reads of the worker's own key,
// every fifth op an action of its own, paced at a fixed interval (a pacer
// the runner has never heard of).
type tickSource struct {
	gap time.Duration
	ran *int // ops the pacer was told ran
}

func (tickSource) Name() string { return "ticks" }
func (tickSource) Kinds(*workload.Plan, *workload.Phase) []workload.Op {
	return []workload.Op{workload.OpRead}
}
func (tickSource) Writes(*workload.Plan, *workload.Phase) float64 { return 0 }
func (tickSource) Describe(*workload.Plan, bool) string           { return "reads on ticks" }
func (tickSource) Brief(*workload.Plan) string                    { return "ticks" }
func (tickSource) Dealer(_ *workload.Plan, _, worker int, _ *deal.Shared) (deal.Dealer, error) {
	return &tickDealer{key: uint64(worker)}, nil
}
func (s tickSource) Pacer(_ *workload.Plan, _, _ int, _ *deal.Shared) (deal.Pacer, error) {
	return &fixedPacer{gap: int64(s.gap), ran: s.ran}, nil
}

type tickDealer struct {
	key uint64
	n   int
}

func (d *tickDealer) Deal(dl *deal.Deal) error {
	*dl = deal.Deal{Op: workload.OpRead, Key: d.key}
	if d.n++; d.n%5 == 0 {
		dl.Action = flagAction{}
	}
	return nil
}
func (d *tickDealer) Len() int64           { return 0 }
func (d *tickDealer) Release(uint64) error { return nil }

// flagAction is an op its source runs itself: a read, flagged.
type flagAction struct{}

func (flagAction) Run(c store.Conn) (workload.SampleFlags, error) {
	_, err := c.Get(0, nil)
	return workload.FlagCommitted, err
}

// fixedPacer makes op i due at i gaps from START.
type fixedPacer struct {
	gap, next int64
	ran       *int
}

func (p *fixedPacer) Next() (int64, bool) {
	d := p.next
	p.next += p.gap
	return d, true
}
func (p *fixedPacer) Wait(c deal.Waiter, _ *deal.Deal, due int64) (int64, bool, error) {
	return due, c.SleepUntil(due), nil
}
func (p *fixedPacer) Ran(*deal.Deal) { *p.ran++ }

// A pacer of a source's own plugs into the one worker loop: each op
// starts at its fixed tick (on a virtual clock, exactly), the pacer hears
// of every op that ran, and the source's own action runs in the loop with
// its flags on its sample.
func TestSourcePacerPlugsIn(t *testing.T) {
	t.Parallel()
	const ops, gap = 40, 3 * time.Millisecond
	var ran int
	p := workload.DefaultPlan()
	p.Custom = tickSource{gap: gap, ran: &ran}
	p.Mode, p.Procs, p.Goroutines, p.Preload = workload.ModeGoroutine, 1, 1, 0 // one worker: one virtual clock
	p.Phases[0].Ops = ops
	p.Driver = "null"
	ctx := context.Background()
	st, err := OpenStore(ctx, &p, nullstore.Driver{}, Setup{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	clock := &virtualClock{t: int64(time.Hour)}
	c := &captured{samples: map[int][]workload.Sample{}}
	h := &Host{Plan: &p, Store: st, Workers: p.WorkerIDs(), Collector: c, Clock: clock}
	if err := h.Run(ctx); err != nil {
		t.Fatal(err)
	}
	got := c.samples[0]
	if len(got) != ops || ran != ops {
		t.Fatalf("%d samples, pacer told of %d ops; want %d", len(got), ran, ops)
	}
	for i, s := range got {
		flagged := s.Flags&workload.FlagCommitted != 0
		if s.Start != time.Duration(i)*gap || s.Lag != 0 || flagged != ((i+1)%5 == 0) {
			t.Fatalf("op %d: start %v lag %v flags %v, want start %v, lag 0, the action's flag every fifth op", i, s.Start, s.Lag, s.Flags, time.Duration(i)*gap)
		}
	}
	if end := clock.Now() - int64(time.Hour); end != int64((ops-1)*gap) {
		t.Fatalf("the clock moved %v, want to the last tick %v", time.Duration(end), (ops-1)*gap)
	}
}
