package deal

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/workload"
)

func testPlan(workers int) *workload.Plan {
	p := workload.DefaultPlan()
	p.Driver = "null"
	p.Procs = workers
	p.Phases[0].Ops = 2000
	return &p
}

type dealt struct {
	op  workload.Op
	key uint64
	val string
}

func deal(p *workload.Plan, phase, worker, n int) []dealt {
	l := NewLottery(p, phase, worker)
	out := make([]dealt, n)
	for i := range out {
		op, key := l.Next()
		out[i] = dealt{op: op, key: key}
		if op.IsWrite() {
			out[i].val = string(l.Value())
		}
	}
	return out
}

// The deck deals the mix's exact proportions in every full deck.
func TestLotteryExactProportions(t *testing.T) {
	t.Parallel()
	for _, spec := range []string{"read=95,upsert=5", "read=50,update=30,delete=20", "read=33,upsert=67", "read=33.25,upsert=66.75"} {
		t.Run(spec, func(t *testing.T) {
			p := testPlan(1)
			p.Phases[0].Mix, _ = workload.ParseMix(spec)
			const n = 10_000 // a whole number of decks for every spec here
			counts := map[workload.Op]int{}
			for _, d := range deal(p, 0, 3, n) {
				counts[d.op]++
			}
			for _, w := range p.Phases[0].Mix {
				if want := int(n * w.Percent / 100); counts[w.Op] != want {
					t.Errorf("%v: dealt %d, want exactly %d", w.Op, counts[w.Op], want)
				}
			}
		})
	}
}

// The same seed, worker and phase deal the same sequence whatever the
// store, its options or the worker mode; other workers, phases and seeds
// deal different ones.
func TestLotteryDeterministic(t *testing.T) {
	t.Parallel()
	p := testPlan(4)
	base := deal(p, 0, 2, 500)

	q := *p
	q.Driver = "mattn"
	q.Store = store.Config{Path: "/elsewhere.db", Options: json.RawMessage(`{"journal":"wal"}`)}
	q.Mode = workload.ModeGoroutine
	q.Procs, q.Goroutines = 2, 2
	if got := deal(&q, 0, 2, 500); !slices.Equal(got, base) {
		t.Error("sequence changed with driver, store options or worker mode")
	}
	if got := deal(p, 0, 3, 500); slices.Equal(got, base) {
		t.Error("workers 2 and 3 dealt the same sequence")
	}
	r := *p
	r.Seed = 2
	if got := deal(&r, 0, 2, 500); slices.Equal(got, base) {
		t.Error("seeds 1 and 2 dealt the same sequence")
	}
	// Changing the key distribution leaves the op sequence alone.
	z := *p
	z.Keys.Distribution = workload.Zipfian
	for i, d := range deal(&z, 0, 2, 500) {
		if d.op != base[i].op {
			t.Fatalf("op %d changed with the key distribution", i)
		}
	}
}

func TestValuesArePrintableAndSized(t *testing.T) {
	t.Parallel()
	p := testPlan(1)
	p.ValueSize = 64
	for _, d := range deal(p, 0, 0, 2000) {
		if d.op != workload.OpUpsert {
			continue
		}
		if len(d.val) != 64 || strings.Trim(d.val, valueAlphabet) != "" {
			t.Fatalf("value %q is not 64 characters of the alphabet", d.val)
		}
	}
}

func TestKeyDistributions(t *testing.T) {
	t.Parallel()
	p := testPlan(1)
	p.Keys = workload.KeySpace{Count: 1000, Distribution: workload.Zipfian, Theta: workload.DefaultTheta}
	const n = 200_000
	counts := make([]int, p.Keys.Count)
	for _, d := range deal(p, 0, 0, n) {
		if d.key >= p.Keys.Count {
			t.Fatalf("key %d outside the key space", d.key)
		}
		counts[d.key]++
	}
	// Under zipf(0.99) over 1000 keys, key 0 gets 1/zeta(1000) of draws,
	// about 13.4%, and the ranks fall off.
	share := float64(counts[0]) / n
	if want := 1 / zeta(1000, workload.DefaultTheta); share < want*0.9 || share > want*1.1 {
		t.Errorf("key 0 share %.4f, want about %.4f", share, want)
	}
	if !(counts[0] > counts[1] && counts[1] > counts[10] && counts[10] > counts[500]) {
		t.Errorf("zipfian ranks not decreasing: %d %d %d %d", counts[0], counts[1], counts[10], counts[500])
	}

	p.Keys = workload.KeySpace{Count: 100, Distribution: workload.Uniform}
	counts = make([]int, 100)
	for _, d := range deal(p, 0, 0, n) {
		counts[d.key]++
	}
	for k, c := range counts {
		if c < n/100*8/10 || c > n/100*12/10 {
			t.Errorf("uniform key %d drawn %d times of %d, want about %d", k, c, n, n/100)
		}
	}
}

// The permutation is a bijection on [0, n) for every n, whatever the seed.
func TestPermIsBijection(t *testing.T) {
	t.Parallel()
	for _, n := range []uint64{1, 2, 3, 7, 64, 100, 1000, 4097, 65535} {
		for seed := range uint64(3) {
			pm := newPerm(n, newRand(seed, 0, 0, 9))
			seen := make([]bool, n)
			for i := range n {
				v := pm.at(i)
				if v >= n || seen[v] {
					t.Fatalf("n=%d seed=%d: at(%d)=%d repeats or is out of range", n, seed, i, v)
				}
				seen[v] = true
			}
		}
	}
}

func eachPlan(workers int, keys uint64, op workload.Op, order string) *workload.Plan {
	p := testPlan(workers)
	p.Keys.Count, p.Preload = keys, 0
	p.Phases = []workload.Phase{{Name: op.String(), Mix: workload.Mix{{Op: op, Percent: 100}}, Access: workload.AccessEach, Order: order, Batch: 1}}
	return p
}

// An each-key phase visits every key of the key space exactly once over
// all workers, each in its own contiguous share; random order permutes.
func TestEachVisitsEveryKeyOnce(t *testing.T) {
	t.Parallel()
	for _, order := range []string{workload.OrderSequential, workload.OrderRandom} {
		p := eachPlan(7, 10_003, workload.OpInsert, order)
		if err := p.Validate(); err != nil {
			t.Fatal(err)
		}
		seen := make([]int, p.Keys.Count)
		inOrder := true
		for w := range p.Workers() {
			lo, hi := p.Share(w)
			l := NewLottery(p, 0, w)
			if l.Len() != int64(hi-lo) {
				t.Fatalf("worker %d: Len %d, share %d", w, l.Len(), hi-lo)
			}
			prev := lo
			for i := range l.Len() {
				op, key := l.Next()
				if op != workload.OpInsert || key < lo || key >= hi {
					t.Fatalf("worker %d dealt %v %d outside its share [%d,%d)", w, op, key, lo, hi)
				}
				if i > 0 && key != prev+1 {
					inOrder = false
				}
				prev = key
				seen[key]++
			}
		}
		for k, n := range seen {
			if n != 1 {
				t.Fatalf("%s: key %d visited %d times", order, k, n)
			}
		}
		if inOrder != (order == workload.OrderSequential) {
			t.Errorf("%s: keys in order = %v", order, inOrder)
		}
	}
}

// A scan phase covers the share ScanLength keys at a time.
func TestEachScanUnits(t *testing.T) {
	t.Parallel()
	p := eachPlan(2, 1050, workload.OpScan, workload.OrderRandom)
	total := 0
	for w := range 2 {
		l := NewLottery(p, 0, w)
		lo, hi := p.Share(w)
		if want := int64((hi - lo + workload.ScanLength - 1) / workload.ScanLength); l.Len() != want {
			t.Fatalf("worker %d: %d scans, want %d", w, l.Len(), want)
		}
		for range l.Len() {
			_, key := l.Next()
			if key < lo || key+uint64(l.ScanLen()) > hi || (key-lo)%workload.ScanLength != 0 {
				t.Fatalf("scan of %d from %d outside [%d,%d) or off the grid", l.ScanLen(), key, lo, hi)
			}
			total += l.ScanLen()
		}
	}
	if total != 1050 {
		t.Fatalf("scans read %d keys, want 1050", total)
	}
}

func TestTagRoundTrip(t *testing.T) {
	t.Parallel()
	v := make([]byte, 64)
	for _, tg := range []Tag{{Worker: 0, Phase: 0, Seq: 0}, {Worker: 65535, Phase: 7, Seq: 1<<40 + 5}} {
		fillValue(v, newRand(1, 0, 0, 1))
		PutTag(v, tg.Worker, tg.Phase, tg.Seq)
		got, ok := ParseTag(v)
		if !ok || got != tg {
			t.Fatalf("ParseTag(PutTag(%+v)) = %+v, %v (value %q)", tg, got, ok, v)
		}
	}
	copy(v, preloadTag)
	if got, ok := ParseTag(v); !ok || !got.Preload {
		t.Fatalf("preload tag: %+v %v", got, ok)
	}
	for _, bad := range []string{"", "gbv1:", "gbv1:zzzzzzzz:00:000000000000:", "hello world, a value with no tag at all"} {
		if _, ok := ParseTag([]byte(bad)); ok {
			t.Errorf("ParseTag(%q) accepted", bad)
		}
	}
	// With Plan.Verify, a lottery's writes carry tags numbering its writes.
	p := testPlan(1)
	p.Verify = true
	l := NewLottery(p, 0, 3)
	seq := uint64(0)
	for range 200 {
		op, _ := l.Next()
		if !op.IsWrite() {
			continue
		}
		if tg, ok := ParseTag(l.Value()); !ok || tg != (Tag{Worker: 3, Phase: 0, Seq: seq}) {
			t.Fatalf("write %d carries %+v, %v", seq, tg, ok)
		}
		seq++
	}
}
