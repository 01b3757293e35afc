package coord

import (
	"context"
	"runtime/debug"
	"sync/atomic"

	"github.com/gobench/gobench/pkg/result"
	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/sysinfo"
	"github.com/gobench/gobench/pkg/workload"
)

// measureSpace returns what the database at the plan's path takes on disk
// after the run, against the live data the store holds (store.Live): nil
// for a database not on disk. It runs after every worker finished,
// outside any measured window; walking the data reads all of it once.
func measureSpace(ctx context.Context, st store.Store, p *workload.Plan) *result.Space {
	app, alloc, err := sysinfo.DiskUsage(p.Store.Path)
	if err != nil || p.Store.Path == "" {
		return nil
	}
	sp := &result.Space{AllocatedBytes: alloc, ApparentBytes: app}
	if sp.NotCounted = uncountedTables(p); sp.NotCounted != "" {
		return sp
	}
	lc, ok := st.(store.LiveCounter)
	if !ok {
		sp.NotCounted = "the engine cannot count its live data"
		return sp
	}
	live, err := lc.Live(ctx)
	if err != nil {
		sp.NotCounted = "counting the live data failed: " + err.Error()
		return sp
	}
	sp.LiveKeys, sp.LiveBytes = live.Keys, live.Bytes
	if live.Bytes > 0 {
		sp.Amplification = float64(alloc) / float64(live.Bytes)
	}
	return sp
}

// runPeak measures a run's peak resident memory. A worker process's peak
// is its own (it lives for one run); in goroutine mode the workers live in
// this process, whose peak spans every run before, so a run starts it
// over (sysinfo.ResetPeakRSS, Linux only) after handing the previous
// runs' freed memory back to the system. Where it cannot be started over,
// goroutine mode's workers' peak is not measured (0) rather than reported
// as the process's lifetime peak, which only grows from cell to cell.
type runPeak struct {
	goroutine bool
	reset     error // why the peak could not be started over
}

// startPeak starts measuring the peak memory of a run of p: call it
// before the store is set up, so that the setup and preload count.
// Runs in one process at once share its peak.
func startPeak(p *workload.Plan) runPeak {
	if p.Mode != workload.ModeGoroutine {
		return runPeak{}
	}
	debug.FreeOSMemory()
	return runPeak{goroutine: true, reset: sysinfo.ResetPeakRSS()}
}

// peakMax keeps the largest peak resident memory the run's worker
// processes reported as they ended (wire.TypeRSS), 0 for none. Safe for
// concurrent use.
type peakMax struct{ v atomic.Int64 }

// add keeps peak if it is the largest yet.
func (m *peakMax) add(peak int64) {
	for {
		old := m.v.Load()
		if peak <= old || m.v.CompareAndSwap(old, peak) {
			return
		}
	}
}

// read returns the coordinator's peak resident memory and the largest
// worker's: of this process and the largest peak a worker process of
// this run reported (workers; 0, not measured, where none could, rather
// than the rusage of this process's children, whose largest spans every
// run before), or in goroutine mode both the run's peak of this one
// process (0 for the workers where it could not be started over).
func (rp runPeak) read(workers *peakMax) (coordinator, worker int64) {
	if !rp.goroutine {
		return sysinfo.MaxRSS(), workers.v.Load()
	}
	if rp.reset != nil {
		return sysinfo.MaxRSS(), 0
	}
	peak, err := sysinfo.PeakRSS()
	if err != nil {
		return sysinfo.MaxRSS(), 0
	}
	return peak, peak
}
