package runner

import (
	"bytes"
	"context"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/store/mapstore"
	"github.com/gobench/gobench/pkg/store/nullstore"
	"github.com/gobench/gobench/pkg/workload"
)

// Preload writes every key at its own size, and an update rewrites it at
// the same size with new content.
func TestPreloadAndUpdateSizes(t *testing.T) {
	t.Parallel()
	p := blobPlan(2)
	p.Phases = p.Phases[1:] // update every key
	ctx := context.Background()
	st, err := mapstore.Driver{}.Open(ctx, store.Config{Path: "blobs"})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if err := st.Init(ctx); err != nil {
		t.Fatal(err)
	}
	if err := Preload(ctx, st, p, nil); err != nil {
		t.Fatal(err)
	}
	c, _ := st.Conn(ctx)
	defer c.Close()
	before := map[uint64][]byte{}
	for k := range p.Keys.Count {
		v, err := c.Get(k, nil)
		if err != nil || len(v) != p.ValueSizeOf(k) {
			t.Fatalf("preloaded key %d: %d bytes, %v; want %d", k, len(v), err, p.ValueSizeOf(k))
		}
		before[k] = v
	}
	h := &Host{Plan: p, Store: st, Workers: p.WorkerIDs(), Collector: discardCollector{}}
	if err := h.Run(ctx); err != nil {
		t.Fatal(err)
	}
	for k := range p.Keys.Count {
		v, _ := c.Get(k, nil)
		if len(v) != len(before[k]) || bytes.Equal(v, before[k]) {
			t.Fatalf("key %d: %d bytes (was %d), changed %v", k, len(v), len(before[k]), !bytes.Equal(v, before[k]))
		}
	}
}

// A warm-up runs first, through its own sink, and leaves the measured
// phase's op sequence as it was without it.
func TestWarmup(t *testing.T) {
	t.Parallel()
	p := testPlan(2)
	p.Driver = "null"
	p.Phases[0].Ops = 300
	without := dealOps(p, 0, 1, 300)
	warm := p.Phases[0]
	warm.Name, warm.Ops = "warmup", 500
	p.Warmup = &warm
	if err := p.Validate(); err != nil {
		t.Fatal(err)
	}
	if got := dealOps(p, 0, 1, 300); !slices.Equal(got, without) {
		t.Fatal("the warm-up changed the measured phase's sequence")
	}
	if run := p.RunPhases(); len(run) != 2 || run[0].Name != "warmup" || !p.IsWarmup(0) || p.IsWarmup(1) {
		t.Fatalf("run phases %+v", run)
	}
	c := &phaseCounter{counts: map[[2]int]int64{}}
	if err := Run(context.Background(), p, nullstore.Driver{}, c); err != nil {
		t.Fatal(err)
	}
	for w := range 2 {
		if c.counts[[2]int{w, 0}] != 500 || c.counts[[2]int{w, 1}] != 300 {
			t.Errorf("worker %d: %d warm-up and %d measured samples, want 500 and 300", w, c.counts[[2]int{w, 0}], c.counts[[2]int{w, 1}])
		}
	}
	p.Verify = true
	if err := p.Validate(); err == nil || !strings.Contains(err.Error(), "drop the warm-up") {
		t.Errorf("verify with a warm-up: %v", err)
	}
}

// phaseCounter counts samples per worker and run phase.
type phaseCounter struct {
	mu     sync.Mutex
	counts map[[2]int]int64
}

func (c *phaseCounter) Sink(w, ph int) workload.Sink {
	return &phaseCountSink{c: c, key: [2]int{w, ph}}
}

type phaseCountSink struct {
	c   *phaseCounter
	key [2]int
}

func (s *phaseCountSink) Record(workload.Sample) error {
	s.c.mu.Lock()
	defer s.c.mu.Unlock()
	s.c.counts[s.key]++
	return nil
}

func (s *phaseCountSink) Done(workload.WorkerStats) error { return nil }
