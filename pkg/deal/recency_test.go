package deal

import (
	"math"
	"slices"
	"testing"

	"github.com/gobench/gobench/pkg/generator"
	"github.com/gobench/gobench/pkg/workload"
)

// A lottery's scans read the plan's scan length of keys from a key of
// the key space;
// its latest reads carry their Recency and draw no key, so that adding
// latest reads to a mix leaves the keys of its other ops as they were.
func TestLotteryScanAndLatest(t *testing.T) {
	p := workload.DefaultPlan()
	p.Driver = "null"
	p.Phases[0].Mix = workload.Mix{{Op: workload.OpRead, Percent: 40}, {Op: workload.OpScan, Percent: 20}, {Op: workload.OpAppend, Percent: 20}, {Op: workload.OpLatest, Percent: 20}}
	p.ScanLength = 7
	if err := p.Validate(); err != nil {
		t.Fatal(err)
	}
	l := NewLottery(&p, 0, 0)
	var d Deal
	seen := map[workload.Op]int{}
	for range 1000 {
		if err := l.Deal(&d); err != nil {
			t.Fatal(err)
		}
		seen[d.Op]++
		switch d.Op {
		case workload.OpScan:
			if d.ScanLen != 7 || d.Key >= p.Keys.Count || d.Recency != nil {
				t.Fatalf("scan of %d keys from %d (recency %v), want --scan-length's 7 from a key below %d", d.ScanLen, d.Key, d.Recency, p.Keys.Count)
			}
		case workload.OpLatest:
			if d.Recency == nil || d.Key != 0 {
				t.Fatalf("latest read: key %d, recency %v; want its recency and no key", d.Key, d.Recency)
			}
		default:
			if d.Recency != nil {
				t.Fatalf("%v carries a recency", d.Op)
			}
		}
	}
	if seen[workload.OpScan] != 200 || seen[workload.OpLatest] != 200 {
		t.Errorf("dealt %v, want 200 scans and 200 latest reads", seen)
	}
}

// A Recency's steps lie in [0, items), the newest (0) drawn most and
// each step at least as often as one far behind it, as items grow
// (zeta extended) and shrink again (a later phase's appends).
func TestRecencyBack(t *testing.T) {
	p := workload.DefaultPlan()
	r := newRecency(&p, 0, 0)
	for _, items := range []uint64{1, 2, 50, 1000, 3000, 40} {
		counts := make([]int, items)
		for range 20_000 {
			b := r.Back(items)
			if b >= items {
				t.Fatalf("Back(%d) = %d", items, b)
			}
			counts[b]++
		}
		if slices.Max(counts) != counts[0] || items > 10 && counts[0] < 10*counts[items-1] {
			t.Errorf("Back(%d): newest %d, oldest %d, most %d; want the newest most", items, counts[0], counts[items-1], slices.Max(counts))
		}
	}
}

// zetaOf agrees with YCSB's zeta summed term by term, below, at and well
// above the terms it sums one by one.
func TestZetaOf(t *testing.T) {
	for _, n := range []uint64{1, 2, 1000, zetaExact, zetaExact + 1, 5000, 300_000} {
		want := generator.Zeta(0, int64(n), workload.RecordTheta, 0)
		if got := zetaOf(n, workload.RecordTheta, zetaHead(workload.RecordTheta)); math.Abs(got-want) > 1e-9*want {
			t.Errorf("zetaOf(%d) = %.15g, want %.15g", n, got, want)
		}
	}
}
