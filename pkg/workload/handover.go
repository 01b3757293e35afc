package workload

import "github.com/gobench/gobench/pkg/store"

// HandsOver reports whether the coordinator of a run of p on drv hands
// the store over to the run's one worker process: it sets the store up
// and preloads it, closes it before the worker opens it, and opens it
// again after the worker closed it, so that an engine one process may
// open at a time (bbolt, pebble, badger) runs in a worker process of its
// own, whose peak memory is the engine's in a fresh process. Only a plan
// the coordinator needs no open store for while the worker runs: process
// mode with one worker process, no --verify ledger, no power cuts, no
// file system recorder, no SQL check and no source's work around the run;
// and a store on disk, not in a process's memory (a Go map's data would
// stay behind in the coordinator).
func HandsOver(p *Plan, drv store.Driver) bool {
	share := store.ShareOf(drv)
	return p.Mode == ModeProcess && p.Procs == 1 && share.Sharing == store.ShareProcess && share != store.ShareInMemory &&
		!p.Verify && p.Crash == nil && p.IOTrace != IOTraceFS && (p.SQL == nil || p.SQL.Check == "") && p.Around() == nil
}
