package coord

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/gobench/gobench/pkg/replay"
	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/workload"
	"github.com/gobench/gobench/pkg/workload/generator"
)

// A replay in the order of commits (workload.ReplayCommit) shares its
// order across its worker processes as a record workload shares its
// insert counter: the coordinator creates the file beside the database,
// each state's statements counted from the trace, names it in the plan
// the workers get, and removes it when the run ends.

// replayOrderFile creates the order file of plan p, when it needs one, and
// returns the plan to send the worker processes (naming the file, and the
// order's own stall time-out, below the run's stall limit) and a
// function that removes the file.
func replayOrderFile(p *workload.Plan, limit time.Duration) (workerPlan *workload.Plan, remove func(), err error) {
	remove = func() {}
	if p.Replay == nil || p.Replay.Order != workload.ReplayCommit {
		return p, remove, nil
	}
	f, err := os.CreateTemp(filepath.Dir(p.Store.Path), ".gobench-order-*")
	if err != nil {
		return nil, remove, fmt.Errorf("creating the replay's order of commits: %w", err)
	}
	name := f.Name()
	remove = func() { os.Remove(name) }
	size := replay.OrderSize(p.Replay.States, len(p.Replay.Workers))
	err = f.Truncate(int64(size))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = countOrder(p.Replay, name, size)
	}
	if err != nil {
		remove()
		return nil, func() {}, fmt.Errorf("the replay's order of commits %s: %w", name, err)
	}
	wp := *p
	r := *p.Replay
	r.OrderFile, r.Stall = name, orderStall(limit)
	wp.Replay = &r
	return &wp, remove, nil
}

// orderStall is the stall time-out of a replay's order of commits under
// a run's stall limit: three quarters of it, so that a worker finding the
// order stalled says what each connection waits for before the watchdog
// kills a silent worker process.
func orderStall(limit time.Duration) time.Duration { return limit * 3 / 4 }

// orderProgress returns the progress of the order of commits in the file
// a worker plan names (replay.Order.Progress), for the stall watchdog,
// and a function that unmaps it; nil when the plan names none.
func orderProgress(p *workload.Plan) (progress func() int64, unmap func(), err error) {
	o, unmap, err := openReplayOrder(p)
	if err != nil || o == nil {
		return nil, unmap, err
	}
	return o.Progress, unmap, nil
}

// countOrder writes a fresh order into the file, counting each state's
// statements in its mapping (not this process's heap: it holds a number
// per commit).
func countOrder(r *workload.Replay, name string, size int) error {
	mem, unmap, err := mapShared(name, size)
	if err != nil {
		return err
	}
	defer unmap()
	if err := replay.InitOrder(mem, r.States, len(r.Workers)); err != nil {
		return err
	}
	o, err := replay.OpenOrder(mem)
	if err != nil {
		return err
	}
	return replay.CountGates(r, func() (io.ReadCloser, error) { return os.Open(r.Trace) }, o)
}

// openShared maps what the worker processes of a run share: a record
// workload's insert counter, a replay's order of commits, which its
// source (nil but for a replayed trace) deals by, for a host of
// hostWorkers workers. unmap releases both.
func openShared(p *workload.Plan, hostWorkers int) (*generator.Counter, workload.Source, func(), error) {
	counter, unmapCounter, err := openCounter(p)
	if err != nil {
		return nil, nil, nil, err
	}
	order, unmapOrder, err := openReplayOrder(p)
	if err == nil {
		var src workload.Source
		if src, err = replay.NewSource(p, hostWorkers, order); err == nil {
			return counter, src, func() { unmapOrder(); unmapCounter() }, nil
		}
		unmapOrder()
	}
	unmapCounter()
	return nil, nil, nil, err
}

// openReplayOrder maps the order file a worker process's plan names, or
// returns nil when it names none.
func openReplayOrder(p *workload.Plan) (o *replay.Order, unmap func(), err error) {
	unmap = func() {}
	if p.Replay == nil || p.Replay.OrderFile == "" {
		return nil, unmap, nil
	}
	mem, unmap, err := mapShared(p.Replay.OrderFile, replay.OrderSize(p.Replay.States, len(p.Replay.Workers)))
	if err != nil {
		return nil, func() {}, fmt.Errorf("mapping the replay's order of commits: %w", err)
	}
	if o, err = replay.OpenOrder(mem); err != nil {
		unmap()
		return nil, func() {}, fmt.Errorf("the replay's order of commits %s: %w", p.Replay.OrderFile, err)
	}
	return o, unmap, nil
}

// installSnapshot writes a replay's starting database, the trace's
// snapshot, to the run's database path, which must not exist yet.
func installSnapshot(p *workload.Plan, note func(string, ...any)) error {
	if _, err := os.Stat(p.Store.Path); err == nil {
		return fmt.Errorf("%s %w: a replay writes the trace's snapshot to a new file, never over a database; move it away, or give --db a path that does not exist", p.Store.Path, ErrExists)
	} else if !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	if err := store.CheckOrphans(p.Store.Path, false); err != nil {
		return err // SQLite would replay another database's WAL or journal into the snapshot
	}
	t0 := time.Now()
	n, err := replay.InstallSnapshot(p.Replay, p.Store.Path)
	if err != nil {
		return err
	}
	note("wrote the trace's snapshot of %s (%d bytes) in %v; the replay starts from it", p.Replay.Database, n, time.Since(t0).Round(time.Millisecond))
	return nil
}
