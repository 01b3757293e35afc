package coord

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/gobench/gobench/pkg/generator"
	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/workload"
)

// shareFiles makes what the worker processes of plan p share beside the
// database, when its source shares something (a replay's order of
// commits), and returns the plan to send them (naming it) and a function
// that removes it.
func shareFiles(p *workload.Plan) (workerPlan *workload.Plan, remove func(), err error) {
	a := p.Around()
	if a == nil {
		return p, func() {}, nil
	}
	return a.Share(p, mapShared)
}

// sharedProgress returns the progress of what the workers of a worker
// process's plan wait on each other for (a replay's order of commits),
// read from what its source shares, for the stall watchdog; nil when they
// never wait so. unmap releases it.
func sharedProgress(p *workload.Plan) (progress func() int64, unmap func(), err error) {
	a := p.Around()
	if a == nil {
		return nil, func() {}, nil
	}
	return a.Progress(p, mapShared)
}

// openShared maps what the worker processes of a run share: a record
// workload's insert counter, and what the plan's source shares (a
// replay's order of commits), from which it returns the source its
// dealers come from (nil but for a source with work around a run), for a
// host of hostWorkers workers. unmap releases both.
func openShared(p *workload.Plan, hostWorkers int) (*generator.Counter, workload.Source, func(), error) {
	counter, unmapCounter, err := openCounter(p)
	if err != nil {
		return nil, nil, nil, err
	}
	src, release, err := hostSource(p, hostWorkers)
	if err != nil {
		unmapCounter()
		return nil, nil, nil, err
	}
	return counter, src, func() { release(); unmapCounter() }, nil
}

// hostSource returns the source the workers of one host deal from, for a
// plan whose source does work around a run; nil and a release that does
// nothing for another.
func hostSource(p *workload.Plan, hostWorkers int) (workload.Source, func(), error) {
	a := p.Around()
	if a == nil {
		return nil, func() {}, nil
	}
	return a.Host(p, hostWorkers, mapShared)
}

// install writes the database a plan's source starts its run from (a
// replay's, the trace's snapshot) to the run's database path, which must
// not exist yet.
func install(p *workload.Plan, a workload.Around, note func(string, ...any)) error {
	if _, err := os.Stat(p.Store.Path); err == nil {
		return fmt.Errorf("%s %w: a replay writes the trace's snapshot to a new file, never over a database; move it away, or give --db a path that does not exist", p.Store.Path, ErrExists)
	} else if !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	if err := store.CheckOrphans(p.Store.Path, false); err != nil {
		return err // SQLite would replay another database's WAL or journal into the snapshot
	}
	return a.Install(p, note)
}

// setupCheck returns the check of p's store before its run that its
// source asks for (a replay's statements), nil for none.
func setupCheck(p *workload.Plan) func(context.Context, store.Store) error {
	if a := p.Around(); a != nil {
		return a.SetupCheck(p)
	}
	return nil
}
