package coord

import (
	"context"

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

// workerMaxRSS is the peak resident memory of the largest worker: of
// this process in goroutine mode, of the largest worker process waited
// for otherwise.
func workerMaxRSS(p *workload.Plan) int64 {
	if p.Mode == workload.ModeGoroutine {
		return sysinfo.MaxRSS()
	}
	return sysinfo.ChildrenMaxRSS()
}
