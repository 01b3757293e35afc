package choose

import (
	"strings"
	"testing"

	"github.com/gobench/gobench/pkg/judge"
	"github.com/gobench/gobench/pkg/result"
	"github.com/gobench/gobench/pkg/workload"
)

// sized is a hand-built speed run of plan p that left alloc bytes on
// disk holding live bytes of data, its own peak RSS rss and its process's
// lifetime peak lifetime.
func sized(p *workload.Plan, alloc, live, rss, lifetime int64) *result.Result {
	r := run(p, 100, "3.53.4")
	r.Space = &result.Space{AllocatedBytes: alloc, ApparentBytes: alloc, LiveBytes: live, LiveKeys: live / 100}
	if live > 0 {
		r.Space.Amplification = float64(alloc) / float64(live)
	}
	r.WorkerMaxRSSBytes, r.CoordinatorMaxRSSBytes = rss, lifetime
	return r
}

// A row's space and memory are the medians over its complete speed runs
// of each run's size on disk, live data and its own worker process's
// peak RSS (never the coordinator's, whose lifetime peak grows from run
// to run), and its engine's memory that peak less the memory baseline's
// (the median of the null driver's worker peaks); its space
// amplification is stated only from judge.MinSpaceLiveBytes of live data
// on, and is "–" with the figure's reason below it; a run whose peak
// could not be measured (0) counts for none, and a row with none says
// why.
func TestRankSpaceAndMemory(t *testing.T) {
	t.Parallel()
	const mib = 1 << 20
	small, big := int64(judge.MinSpaceLiveBytes/64), int64(2*judge.MinSpaceLiveBytes)
	p := rankPlan(KeepNone)
	a, b := p.Speed[0], p.Speed[1]
	speed := []*result.Result{
		sized(a, 30*mib, small, 70*mib, 300*mib), sized(b, 5*big, big, 0, 310*mib),
		sized(a, 10*mib, small, 40*mib, 320*mib), sized(b, 2*big, big, 0, 330*mib),
		sized(a, 20*mib, small, 50*mib, 340*mib), sized(b, 3*big, big, 0, 350*mib),
		sized(b, 4*big, big, 0, 360*mib),
	}
	cut := sized(a, 900*mib, small, 900*mib, 900*mib) // stopped early: not a repeat
	cut.Complete = false
	base := sized(p.Baseline, 0, 0, 5*mib, 950*mib) // stopped early: not a baseline
	base.Complete = false
	speed = append(speed, cut, base, sized(p.Baseline, 0, 0, 21*mib, 370*mib), sized(p.Baseline, 0, 0, 19*mib, 380*mib), sized(p.Baseline, 0, 0, 20*mib, 390*mib))
	ch := Rank(p, Measured{Speed: speed})
	if ch.BaselineRSSBytes != 20*mib || ch.CoordinatorMaxRSSBytes != 950*mib || len(ch.Rows) != 3 {
		t.Errorf("baseline %d, coordinator %d, %d rows", ch.BaselineRSSBytes, ch.CoordinatorMaxRSSBytes, len(ch.Rows))
	}
	rows := map[string]result.ChoiceRow{}
	for _, r := range ch.Rows {
		rows[r.Driver] = r
	}
	for _, tt := range []struct {
		driver               string
		disk, live, rss, eng int64
		amp                  float64
		spaceNote, memory    string
	}{
		{"a", 20 * mib, small, 50 * mib, 30 * mib, 0, "is below 64 MiB", ""},
		{"b", 7 * big / 2, big, 0, 0, 3.5, "", "the workers' memory was not measured"},
		{"c", 0, 0, 0, 0, 0, "", ""},
	} {
		r := rows[tt.driver]
		if r.DiskBytes != tt.disk || r.LiveBytes != tt.live || r.PeakRSSBytes != tt.rss || r.EngineRSSBytes != tt.eng || r.SpaceAmplification != tt.amp {
			t.Errorf("%s: disk %d live %d rss %d engine %d amp %v, want %d %d %d %d %v", tt.driver, r.DiskBytes, r.LiveBytes, r.PeakRSSBytes, r.EngineRSSBytes, r.SpaceAmplification, tt.disk, tt.live, tt.rss, tt.eng, tt.amp)
		}
		if (tt.spaceNote == "") != (r.SpaceNote == "") || !strings.Contains(r.SpaceNote, tt.spaceNote) {
			t.Errorf("%s: space note %q, want %q", tt.driver, r.SpaceNote, tt.spaceNote)
		}
		if r.MemoryNote != tt.memory {
			t.Errorf("%s: memory note %q, want %q", tt.driver, r.MemoryNote, tt.memory)
		}
	}
}

// The space amplification rule's threshold: a row whose live data
// reaches judge.MinSpaceLiveBytes states its amplification, one a byte
// below it does not, and says why.
func TestRankSpaceThreshold(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		live   int64
		stated bool
	}{
		{judge.MinSpaceLiveBytes, true},
		{judge.MinSpaceLiveBytes - 1, false},
		{0, false},
	} {
		p := rankPlan(KeepNone)
		ch := Rank(p, Measured{Speed: []*result.Result{sized(p.Speed[0], 3*judge.MinSpaceLiveBytes, tt.live, 1, 1)}})
		r := ch.Rows[0]
		if got := r.SpaceAmplification > 0; got != tt.stated || (r.SpaceNote == "") != tt.stated {
			t.Errorf("live %d: amplification %v note %q, want stated %v", tt.live, r.SpaceAmplification, r.SpaceNote, tt.stated)
		}
	}
}

// Without a complete baseline run, a row keeps its worker's peak but
// states no engine memory, and says why.
func TestRankMemoryWithoutBaseline(t *testing.T) {
	t.Parallel()
	const mib = 1 << 20
	p := rankPlan(KeepNone)
	failed := sized(p.Baseline, 0, 0, 20*mib, 20*mib)
	failed.Complete = false
	ch := Rank(p, Measured{Speed: []*result.Result{sized(p.Speed[0], mib, 1, 50*mib, 400*mib), failed}})
	r := ch.Rows[0]
	if ch.BaselineRSSBytes != 0 || r.PeakRSSBytes != 50*mib || r.EngineRSSBytes != 0 || !strings.Contains(r.MemoryNote, "the memory baseline") {
		t.Errorf("baseline %d, row %+v", ch.BaselineRSSBytes, r)
	}
}
