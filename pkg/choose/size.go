package choose

import (
	"fmt"
	"time"
)

// Sizing is how a budget is spent: each candidate's speed runs (Repeats,
// interleaved, each Run long) and, on those promising to keep
// acknowledged writes, one traced run CrashRun long with Cuts power cuts.
type Sizing struct {
	Repeats  int
	Run      time.Duration
	Cuts     int
	CrashRun time.Duration
}

// The costs Size plans with, beside the runs' own time: what setting up a
// run takes (a new database, its preload, the machine's probes before and
// after), and checking one power cut's state (rebuilt, opened, read).
const (
	runOverhead = time.Second
	cutCost     = 500 * time.Millisecond
	crashRun    = time.Second
	minRun      = 500 * time.Millisecond
	maxRun      = 30 * time.Second
)

// BaselineRun is the length of each run of the memory baseline
// (Plan.Baseline): the null driver's worker process peaks at gobench's
// own memory whatever its length, so its runs are the shortest a speed
// run may be.
const BaselineRun = minRun

// Size spends budget on cells candidates, cut of them cut, and, with
// baseline, the memory baseline's runs (BaselineRun long) beside their
// speed runs: as many power cuts as the budget allows (between 3 and 20,
// one per 30 s of it), then 5 interleaved repeats each (the fewest for
// an interval of the median) or, where they would be shorter than half a
// second, 3 (the fewest for an interval of a ratio), each as long as what
// is left allows. A budget that is not positive is refused as such, one
// too small for 3 runs of half a second each naming the budget that would
// do.
func Size(budget time.Duration, cells, cut int, baseline bool) (Sizing, error) {
	if cells < 1 {
		return Sizing{}, fmt.Errorf("no candidates to measure")
	}
	if budget <= 0 {
		return Sizing{}, fmt.Errorf("--budget %v: want a positive time (such as 5m)", budget)
	}
	base := time.Duration(0)
	if baseline {
		base = runOverhead + BaselineRun
	}
	s := Sizing{Cuts: min(20, max(3, int(budget/(30*time.Second)))), CrashRun: crashRun}
	crash := time.Duration(cut) * (runOverhead + crashRun + time.Duration(s.Cuts)*cutCost)
	left := budget - crash
	for _, repeats := range []int{5, 3} {
		run := (left-time.Duration(repeats)*base)/time.Duration(cells*repeats) - runOverhead
		if run >= minRun {
			s.Repeats, s.Run = repeats, min(maxRun, run.Round(100*time.Millisecond))
			return s, nil
		}
	}
	need := crash + 3*base + time.Duration(cells*3)*(runOverhead+minRun)
	return Sizing{}, fmt.Errorf("--budget %v is too small for %d candidates (%d of them cut %d times): give at least %v", budget, cells, cut, s.Cuts, roundUp(need))
}

// roundUp is a budget of at least d, in a round figure: whole 5 s under
// a minute, whole minutes from there.
func roundUp(d time.Duration) time.Duration {
	step := 5 * time.Second
	if d > time.Minute {
		step = time.Minute
	}
	return (d + step - 1).Truncate(step)
}
