package workload

import (
	"bytes"
	"compress/flate"
	"context"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/store/mapstore"
	"github.com/gobench/gobench/pkg/store/nullstore"
)

func blobPlan(workers int) *Plan {
	p := testPlan(workers)
	p.Driver = "map"
	p.Mode = ModeGoroutine
	p.Keys.Count, p.Preload = 500, 500
	p.ValueSize, p.ValueVariance, p.RandomValues = 1000, 200, true
	p.Phases = []Phase{
		{Name: "read", Mix: Mix{{OpRead, 100}}, Access: AccessEach, Order: OrderRandom, Ops: 60, Batch: 1},
		{Name: "update", Mix: Mix{{OpUpdate, 100}}, Access: AccessEach, Order: OrderRandom, Batch: 1},
	}
	return p
}

func TestValueSizeOf(t *testing.T) {
	t.Parallel()
	p := blobPlan(1)
	lo, hi := p.ValueSize, p.ValueSize
	for k := range uint64(5000) {
		n := p.ValueSizeOf(k)
		if n != p.ValueSizeOf(k) {
			t.Fatal("ValueSizeOf is not a function of the key")
		}
		lo, hi = min(lo, n), max(hi, n)
	}
	if lo != 800 || hi != 1200 {
		t.Errorf("sizes span %d to %d, want 800 to 1200", lo, hi)
	}
	other := *p
	other.Seed++
	same := 0
	for k := range uint64(100) {
		if other.ValueSizeOf(k) == p.ValueSizeOf(k) {
			same++
		}
	}
	if same > 10 {
		t.Errorf("%d of 100 sizes unchanged by another seed", same)
	}
	p.ValueVariance = 0
	if p.ValueSizeOf(7) != p.ValueSize {
		t.Error("no variance, yet the size varies")
	}
}

// Written values have their key's size; random values do not compress,
// text values do.
func TestLotteryValues(t *testing.T) {
	t.Parallel()
	p := blobPlan(1)
	l := NewLottery(p, 1, 0)
	var all []byte
	for range l.Len() {
		op, key := l.Next()
		if op != OpUpdate || len(l.Value()) != p.ValueSizeOf(key) {
			t.Fatalf("key %d: %v of %d bytes, want update of %d", key, op, len(l.Value()), p.ValueSizeOf(key))
		}
		all = append(all, l.Value()...)
	}
	if r := compressed(all); r < 0.99 {
		t.Errorf("random values compress to %.2f of their size", r)
	}
	p.RandomValues = false
	l = NewLottery(p, 1, 0)
	all = all[:0]
	for range 100 {
		l.Next()
		all = append(all, l.Value()...)
	}
	if r := compressed(all); r > 0.8 {
		t.Errorf("text values compress to only %.2f of their size", r)
	}
}

func compressed(b []byte) float64 {
	var buf bytes.Buffer
	w, _ := flate.NewWriter(&buf, flate.BestCompression)
	w.Write(b)
	w.Close()
	return float64(buf.Len()) / float64(len(b))
}

// An each-key phase with a limit visits that many distinct keys of the
// worker's share; PhaseValueBytes sums exactly their sizes.
func TestEachLimitAndBytes(t *testing.T) {
	t.Parallel()
	p := blobPlan(3)
	var want int64
	for _, w := range p.WorkerIDs() {
		lo, hi := p.Share(w)
		l := NewLottery(p, 0, w)
		if l.Len() != 60 {
			t.Fatalf("worker %d deals %d ops, want the limit of 60", w, l.Len())
		}
		seen := map[uint64]bool{}
		for range l.Len() {
			_, key := l.Next()
			if key < lo || key >= hi || seen[key] {
				t.Fatalf("worker %d: key %d repeated or outside its share [%d, %d)", w, key, lo, hi)
			}
			seen[key] = true
			want += int64(p.ValueSizeOf(key))
		}
	}
	if got, ok := p.PhaseValueBytes(0); !ok || got != want {
		t.Errorf("PhaseValueBytes(read) = %d, %v; want %d", got, ok, want)
	}
	var all int64
	for k := range p.Keys.Count {
		all += int64(p.ValueSizeOf(k))
	}
	if got, _ := p.PhaseValueBytes(1); got != all {
		t.Errorf("PhaseValueBytes(update of every key) = %d, want %d", got, all)
	}
	lottery := testPlan(1)
	if _, ok := lottery.PhaseValueBytes(0); ok {
		t.Error("a mixed lottery phase has exact bytes")
	}
}

// A blob pass drawn with replacement (a lottery of reads or updates alone
// on a key space preloaded whole) counts its bytes exactly too: the keys
// its workers draw, repeats included, each at its own size.
func TestReplaceBytes(t *testing.T) {
	t.Parallel()
	p := blobPlan(3)
	p.Phases = Blob(50, true, 1, true)
	if err := p.Validate(); err != nil {
		t.Fatal(err)
	}
	for phase := range p.Phases {
		var want int64
		seen, draws := map[uint64]bool{}, 0
		for _, w := range p.WorkerIDs() {
			l := NewLottery(p, phase, w)
			for range p.Phases[phase].Ops {
				_, key := l.Next()
				want += int64(p.ValueSizeOf(key))
				seen[key] = true
				draws++
			}
		}
		if got, ok := p.PhaseValueBytes(phase); !ok || got != want {
			t.Errorf("phase %d: PhaseValueBytes = %d, %v; want %d", phase, got, ok, want)
		}
		if draws != 150 || len(seen) == draws {
			t.Errorf("phase %d: %d draws of %d keys: want 150 with some repeated", phase, draws, len(seen))
		}
	}
	p.Preload = p.Keys.Count - 1 // a read may miss: no exact bytes
	if _, ok := p.PhaseValueBytes(0); ok {
		t.Error("a lottery over keys not all preloaded has exact bytes")
	}
}

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
	without := deal(p, 0, 1, 300)
	warm := p.Phases[0]
	warm.Name, warm.Ops = "warmup", 500
	p.Warmup = &warm
	if err := p.Validate(); err != nil {
		t.Fatal(err)
	}
	if got := deal(p, 0, 1, 300); !slices.Equal(got, without) {
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

func (c *phaseCounter) Sink(w, ph int) Sink { return &phaseCountSink{c: c, key: [2]int{w, ph}} }

type phaseCountSink struct {
	c   *phaseCounter
	key [2]int
}

func (s *phaseCountSink) Record(Sample) error {
	s.c.mu.Lock()
	defer s.c.mu.Unlock()
	s.c.counts[s.key]++
	return nil
}
func (s *phaseCountSink) Done(WorkerStats) error { return nil }
