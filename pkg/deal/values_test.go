package deal

import (
	"bytes"
	"compress/flate"
	"testing"

	"github.com/gobench/gobench/pkg/workload"
)

func blobPlan(workers int) *workload.Plan {
	p := testPlan(workers)
	p.Driver = "map"
	p.Mode = workload.ModeGoroutine
	p.Keys.Count, p.Preload = 500, 500
	p.ValueSize, p.ValueVariance, p.RandomValues = 1000, 200, true
	p.Phases = []workload.Phase{
		{Name: "read", Mix: workload.Mix{{Op: workload.OpRead, Percent: 100}}, Access: workload.AccessEach, Order: workload.OrderRandom, Ops: 60, Batch: 1},
		{Name: "update", Mix: workload.Mix{{Op: workload.OpUpdate, Percent: 100}}, Access: workload.AccessEach, Order: workload.OrderRandom, Batch: 1},
	}
	return p
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
		if op != workload.OpUpdate || len(l.Value()) != p.ValueSizeOf(key) {
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
	if got, ok := PhaseValueBytes(p, 0); !ok || got != want {
		t.Errorf("PhaseValueBytes(read) = %d, %v; want %d", got, ok, want)
	}
	var all int64
	for k := range p.Keys.Count {
		all += int64(p.ValueSizeOf(k))
	}
	if got, _ := PhaseValueBytes(p, 1); got != all {
		t.Errorf("PhaseValueBytes(update of every key) = %d, want %d", got, all)
	}
	lottery := testPlan(1)
	if _, ok := PhaseValueBytes(lottery, 0); ok {
		t.Error("a mixed lottery phase has exact bytes")
	}
}

// A blob pass drawn with replacement (a lottery of reads or updates alone
// on a key space preloaded whole) counts its bytes exactly too: the keys
// its workers draw, repeats included, each at its own size.
func TestReplaceBytes(t *testing.T) {
	t.Parallel()
	p := blobPlan(3)
	p.Phases = workload.Blob(50, true, 1, true)
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
		if got, ok := PhaseValueBytes(p, phase); !ok || got != want {
			t.Errorf("phase %d: PhaseValueBytes = %d, %v; want %d", phase, got, ok, want)
		}
		if draws != 150 || len(seen) == draws {
			t.Errorf("phase %d: %d draws of %d keys: want 150 with some repeated", phase, draws, len(seen))
		}
	}
	p.Preload = p.Keys.Count - 1 // a read may miss: no exact bytes
	if _, ok := PhaseValueBytes(p, 0); ok {
		t.Error("a lottery over keys not all preloaded has exact bytes")
	}
}
