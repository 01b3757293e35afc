//go:build cgo

package sqlite

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"path/filepath"
	"runtime"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/gobench/gobench/pkg/runner"
	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/workload"
)

// samples keeps every sample of every worker of a run's measured phase,
// in the order each worker recorded them.
type samples struct {
	mu sync.Mutex
	by map[int][]workload.Sample
}

func (s *samples) Sink(worker, _ int) workload.Sink { return &sampleSink{s: s, worker: worker} }

type sampleSink struct {
	s      *samples
	worker int
}

func (k *sampleSink) Record(x workload.Sample) error {
	k.s.mu.Lock()
	defer k.s.mu.Unlock()
	k.s.by[k.worker] = append(k.s.by[k.worker], x)
	return nil
}

func (k *sampleSink) Done(workload.WorkerStats) error { return nil }

// cloopRun is what a run of the capi driver left: its samples, the ops
// its connections ran in loops in C, and a digest of the kv table.
type cloopRun struct {
	samples map[int][]workload.Sample
	inC     int64
	digest  [32]byte
}

// runCLoop runs plan p on the capi driver with the loop in C on or off; hold, if
// set, is called with the store before the workers run, and its return
// after.
func runCLoop(t *testing.T, p workload.Plan, o Options, loop bool, hold func(st store.Store) func()) cloopRun {
	t.Helper()
	o.NoCLoop = Off(!loop)
	p.Driver = "capi"
	p.Store = store.Config{Path: filepath.Join(t.TempDir(), "cloop.db"), Options: o.Encode()}
	if err := p.Validate(); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	st, err := runner.OpenStore(ctx, &p, CAPI(), runner.Setup{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if hold != nil {
		defer hold(st)()
	}
	rec := &samples{by: map[int][]workload.Sample{}}
	if err := (&runner.Host{Plan: &p, Store: st, Workers: p.WorkerIDs(), Collector: rec}).Run(ctx); err != nil {
		t.Fatal(err)
	}
	r := cloopRun{samples: rec.by, inC: st.(*db).cOps.Load()}
	c, err := st.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	h := sha256.New()
	for k := range p.Keys.Count {
		v, err := c.Get(k, nil)
		if errors.Is(err, store.ErrNotFound) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		h.Write(binary.LittleEndian.AppendUint64(nil, k))
		h.Write(v)
	}
	h.Sum(r.digest[:0])
	return r
}

// outcome is what a sample says of its op, the timing aside.
type outcome struct {
	op      workload.Op
	class   store.Class
	retries uint16
	flags   workload.SampleFlags
}

func outcomes(ss []workload.Sample) []outcome {
	out := make([]outcome, len(ss))
	for i, s := range ss {
		out[i] = outcome{s.Op, s.Class, s.Retries, s.Flags}
	}
	return out
}

func loopPlan(ops int64, mix string) workload.Plan {
	p := workload.DefaultPlan()
	p.Mode, p.Procs, p.Goroutines = workload.ModeGoroutine, 1, 1
	p.Keys.Count, p.Preload = 600, 300 // half the reads find no row
	p.Phases[0].Mix, _ = workload.ParseMix(mix)
	p.Phases[0].Ops = ops
	return p
}

// A closed-loop phase of reads and upserts runs in loops in C, and deals
// and does the same as one call per op: the same ops in the same order
// with the same outcomes (reads of missing keys not found), and the same
// rows in the end. Neither the lock waits nor the busy steps differ.
func TestCLoopDealsAsPerOp(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("loops in C run where C's monotonic clock is Go's: Linux")
	}
	t.Parallel()
	o := DefaultOptions()
	o.Journal, o.Sync = "wal", "off"
	p := loopPlan(9000, "read=70,upsert=30") // three calls, the last one short
	on := runCLoop(t, p, o, true, nil)
	off := runCLoop(t, p, o, false, nil)
	if on.inC != p.Phases[0].Ops || off.inC != 0 {
		t.Fatalf("ops run in C: %d with the loop on (want all %d), %d with it off (want 0)", on.inC, p.Phases[0].Ops, off.inC)
	}
	a, b := outcomes(on.samples[0]), outcomes(off.samples[0])
	if !slices.Equal(a, b) {
		t.Fatalf("the loop in C gave %d samples, one call per op %d; first difference at %d", len(a), len(b), firstDiff(a, b))
	}
	var reads, missing, upserts int
	for _, s := range a {
		switch {
		case s.op == workload.OpUpsert && s.class == store.OK:
			upserts++
		case s.op == workload.OpRead && s.class == store.NotFound:
			missing++
		case s.op == workload.OpRead && s.class == store.OK:
			reads++
		default:
			t.Errorf("an op %v of class %v", s.op, s.class)
		}
	}
	if reads == 0 || missing == 0 || upserts == 0 {
		t.Errorf("%d reads found, %d missed, %d upserts: the mix should have each", reads, missing, upserts)
	}
	if on.digest != off.digest {
		t.Error("the rows differ after the same seeded run with the loop in C on and off")
	}
	for _, s := range on.samples[0] {
		if s.Latency <= 0 || s.Start < 0 {
			t.Fatalf("a sample from C timed at %v for %v", s.Start, s.Latency)
		}
	}
}

func firstDiff(a, b []outcome) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

// An upsert that finds the write lock held, in a loop in C, fails busy
// after the busy handler's own calls (or at once, without a handler), is
// counted and flagged exactly as one call per op counts it, and the
// worker goes on with the ops after it.
func TestCLoopBusy(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("loops in C run where C's monotonic clock is Go's: Linux")
	}
	t.Parallel()
	for _, tt := range []struct {
		name      string
		timeoutMS int64
		retries   uint16 // the busy handler's calls within a 1 ms timeout: a 1 ms sleep, then it gives up
	}{{"no busy handler", 0, 0}, {"1ms busy timeout", 1, 2}} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			o := DefaultOptions()
			o.Journal, o.Sync, o.BusyTimeoutMS = "wal", "off", Millis(tt.timeoutMS)
			p := loopPlan(40, "read=50,upsert=50")
			held := 0
			hold := func(st store.Store) func() {
				c, err := st.Conn(context.Background())
				if err != nil {
					t.Fatal(err)
				}
				if err := c.(store.Batcher).Begin(); err != nil {
					t.Fatal(err)
				}
				if !c.(store.TxProber).InTx() {
					t.Fatal("the holder's BEGIN IMMEDIATE left no transaction open")
				}
				held++
				return func() {
					if !c.(store.TxProber).InTx() {
						t.Error("the holder's transaction ended during the run")
					}
					c.(store.Batcher).Rollback()
					c.Close()
				}
			}
			on := runCLoop(t, p, o, true, hold)
			off := runCLoop(t, p, o, false, hold)
			if held != 2 {
				t.Fatalf("the write lock was held in %d runs of 2", held)
			}
			if on.inC != p.Phases[0].Ops {
				t.Fatalf("%d ops ran in C, want all %d", on.inC, p.Phases[0].Ops)
			}
			a, b := outcomes(on.samples[0]), outcomes(off.samples[0])
			if !slices.Equal(a, b) {
				t.Fatalf("the loop in C gave %d samples, one call per op %d; first difference at %d:\n%s", len(a), len(b), firstDiff(a, b), diffAt(a, b))
			}
			busy := 0
			for _, s := range a {
				if s.op == workload.OpUpsert {
					want := outcome{workload.OpUpsert, store.Busy, tt.retries, workload.FlagBusyBegin}
					if s != want {
						t.Errorf("an upsert against the held lock: %+v, want %+v", s, want)
					}
					busy++
				} else if s.class.IsError() {
					t.Errorf("a read failed: %+v", s)
				}
			}
			if busy == 0 || len(a) != int(p.Phases[0].Ops) {
				t.Errorf("%d busy upserts in %d samples of %d ops", busy, len(a), p.Phases[0].Ops)
			}
			if on.digest != off.digest {
				t.Error("the rows differ, though no upsert could commit")
			}
		})
	}
}

func diffAt(a, b []outcome) string {
	i := firstDiff(a, b)
	var x, y any = "none", "none"
	if i < len(a) {
		x = a[i]
	}
	if i < len(b) {
		y = b[i]
	}
	return fmt.Sprintf("loop %+v\nper op %+v", x, y)
}

// Where a loop in C would not give each op the sample one call per op
// gives it, the worker runs one call per op: none runs in C.
func TestCLoopOnlyWhereFaithful(t *testing.T) {
	t.Parallel()
	o := DefaultOptions()
	o.Journal, o.Sync = "wal", "off"
	for _, tt := range []struct {
		name string
		edit func(p *workload.Plan, o *Options)
	}{
		{"--capi-loop=false", func(_ *workload.Plan, o *Options) { o.NoCLoop = true }},
		{"--batch 2", func(p *workload.Plan, _ *Options) { p.Phases[0].Batch = 2 }},
		{"--busy retry", func(p *workload.Plan, o *Options) {
			p.Busy, p.BusyBudget, o.BusyTimeoutMS = workload.BusyRetry, workload.Duration(time.Second), 0
		}},
		{"--rate", func(p *workload.Plan, _ *Options) { p.Rate = 1e6 }},
		{"an update in the mix", func(p *workload.Plan, _ *Options) {
			p.Phases[0].Mix, _ = workload.ParseMix("read=50,update=50")
		}},
		{"value variance", func(p *workload.Plan, _ *Options) { p.ValueVariance = 8 }},
		{"blob I/O", func(_ *workload.Plan, o *Options) { o.API = APIBlob }},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			p, o := loopPlan(300, "read=70,upsert=30"), o
			tt.edit(&p, &o)
			loop := !bool(o.NoCLoop)
			r := runCLoop(t, p, o, loop, nil)
			if r.inC != 0 {
				t.Errorf("%d ops ran in C", r.inC)
			}
			if n := len(r.samples[0]); n < int(p.Phases[0].Ops) {
				t.Errorf("%d samples of %d ops", n, p.Phases[0].Ops)
			}
		})
	}
}
