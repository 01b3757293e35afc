package replay

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/workload"
)

// planSource is a replayed trace's source as the plan's data names it
// (workload.Plan.Replay): its kinds, writes and descriptions, its checks,
// and the work around a run (the snapshot it starts from, the order of
// commits its worker processes share, the database compared at its end).
// Its dealers and pacers read the trace: they are a host's Source's
// (Host). It registers itself with package workload when this package is
// linked, so that a plan holding a replay has it as its source.
type planSource struct{}

func init() { workload.RegisterSource(planSource{}) }

func (planSource) Name() string { return "trace" }

// Owns reports whether p replays a trace.
func (planSource) Owns(p *workload.Plan) bool { return p.Replay != nil }

// Recorded says a replay's statements are the capture's.
func (planSource) Recorded() bool { return true }

// Unplace clears the file the workers leave the examples of divergence
// in (a path beside the database, not the workload) and the mark of the
// cell as captured (a setting, Settings, not another workload).
func (planSource) Unplace(p *workload.Plan) {
	r := *p.Replay
	r.DivergedFile = ""
	r.AsCaptured = false
	p.Replay = &r
}

// Settings names where a replay cell's settings come from, for a trace
// that read the application's: the application's ("as captured", a
// replay's first cell) or the flags given (the matrix's, the
// application's for the rest).
func (planSource) Settings(p *workload.Plan) []store.Setting {
	switch r := p.Replay; {
	case r.Captured == nil:
		return nil
	case r.AsCaptured:
		return []store.Setting{{Name: "settings", Value: "as captured"}}
	}
	return []store.Setting{{Name: "settings", Value: "given"}}
}

func (planSource) Kinds(p *workload.Plan, _ *workload.Phase) []workload.Op {
	ops := make([]workload.Op, len(p.Replay.Kinds))
	for i, k := range p.Replay.Kinds {
		ops[i] = k.Op
	}
	return ops
}

// OpNames names each statement kind by its ID.
func (planSource) OpNames(p *workload.Plan, names *[workload.MaxOp]string) {
	for _, k := range p.Replay.Kinds {
		names[k.Op] = k.ID
	}
}

func (planSource) Writes(p *workload.Plan, _ *workload.Phase) float64 {
	if p.Replay.Statements == 0 {
		return 0
	}
	return float64(p.Replay.Commits) / float64(p.Replay.Statements)
}

func (s planSource) Describe(p *workload.Plan, _ bool) string {
	r := p.Replay
	conns := 0
	for _, w := range r.Workers {
		if w.Stream != 0 {
			conns++
		}
	}
	noun := "connections"
	if conns == 1 {
		noun = "connection"
	}
	return fmt.Sprintf("trace %s · database %s · %d statements on %d %s · %s", filepath.Base(r.Trace), r.Database, r.Runs(), conns, noun, s.Brief(p))
}

func (planSource) Brief(p *workload.Plan) string {
	r := p.Replay
	b := fmt.Sprintf("speed %s · order %s", workload.SpeedName(r.Speed), r.Order)
	if w := r.Window; w != nil {
		b += fmt.Sprintf(" · window %v..%s (%d statements before it not run, %d schema statements of them run first; %d after it not run)", w.From, windowEnd(w), w.Before, w.Schema, w.After)
	}
	if r.Scale > 1 {
		b += fmt.Sprintf(" · scale %d (%d copies of each connection)", r.Scale, r.Scale)
	}
	if r.TimeFold != nil {
		b += " · " + foldBrief(r)
	}
	if r.Select != nil {
		b += " · " + r.Select.Line(r.Statements)
	}
	return b
}

// Timed reports whether the replay's statements are due when captured (a
// speed) rather than back to back.
func (planSource) Timed(p *workload.Plan) bool { return p.Replay.Speed > 0 }

// Check checks a replay: its trace, order, speed and kinds, and that its
// phase deals its kinds.
func (planSource) Check(p *workload.Plan) error {
	r := p.Replay
	switch {
	case r.Trace == "" || !filepath.IsAbs(r.Trace):
		return fmt.Errorf("the trace's path %q is not absolute", r.Trace)
	case r.Order != workload.ReplayRace && r.Order != workload.ReplayCommit:
		return fmt.Errorf("unknown order %q (want %s or %s)", r.Order, workload.ReplayRace, workload.ReplayCommit)
	case !(r.Speed >= 0 && r.Speed <= 1000):
		return fmt.Errorf("speed %v is out of range (want 0 for back to back, or up to 1000 times as captured)", r.Speed)
	case len(r.Kinds) == 0 || len(r.Kinds) > workload.MaxReplayKinds:
		return fmt.Errorf("%d statement kinds (want 1 to %d)", len(r.Kinds), workload.MaxReplayKinds)
	case len(r.Workers) != p.Workers() || r.Procs != p.Procs:
		return fmt.Errorf("%d connections placed on %d workers of %d processes, not the plan's %d of %d", len(r.Workers), len(r.Workers), r.Procs, p.Workers(), p.Procs)
	case r.Order == workload.ReplayCommit && (len(r.Table) == 0 || r.States < 1):
		return errors.New("the order of commits is missing")
	case r.Scale < 0 || r.Order == workload.ReplayCommit && (r.Scale > 1 || r.Window != nil || r.TimeFold != nil || r.Select != nil):
		return fmt.Errorf("scale %d with window %v and fold %v in order %s: a scaled or folded replay or a window runs in race order, at a scale of 1 or more", r.Scale, r.Window != nil, r.TimeFold != nil, r.Order)
	case r.TimeFold != nil && (r.TimeFold.Slices < 2 || r.TimeFold.Slices > workload.MaxFold || r.TimeFold.Slice <= 0 || len(r.TimeFold.Statements) != r.TimeFold.Slices):
		return fmt.Errorf("fold of %d slices of %v with %d slices' counts (want 2 to %d slices)", r.TimeFold.Slices, r.TimeFold.Slice, len(r.TimeFold.Statements), workload.MaxFold)
	case p.Preload != 0 || p.Verify || p.SQL != nil || p.Records != nil || p.Warmup != nil || len(p.Phases) != 1 || p.Rate != 0:
		return errors.New("a replay runs the trace's statements alone: no preload, --verify, warm-up, scripts, records or rate")
	}
	for i, k := range r.Kinds {
		if k.Op != workload.StatementOp(i) {
			return fmt.Errorf("statement kind %s is op %v, want %v", k.ID, k.Op, workload.StatementOp(i))
		}
	}
	ph := p.Phases[0]
	if ph.Batch != 1 || ph.Access != workload.AccessLottery {
		return errors.New("a replay's phase runs one statement at a time")
	}
	for _, op := range ph.Mix.Ops() {
		if !op.IsStatement() || int(op-workload.OpStatement) >= len(r.Kinds) {
			return fmt.Errorf("phase %s deals %v, which is not one of the replay's %d statement kinds", ph.Name, op, len(r.Kinds))
		}
	}
	return nil
}

// Install writes the trace's snapshot to the run's database path: the
// replay starts from it.
func (planSource) Install(p *workload.Plan, note func(string, ...any)) error {
	t0 := time.Now()
	n, err := InstallSnapshot(p.Replay, p.Store.Path)
	if err != nil {
		return err
	}
	note("wrote the trace's snapshot of %s (%d bytes) in %v; the replay starts from it", p.Replay.Database, n, time.Since(t0).Round(time.Millisecond))
	if rows, err := seedCopies(context.Background(), p.Replay, p.Store.Path); err != nil {
		return fmt.Errorf("giving each copy of --scale %d its own keys: %w", p.Replay.Scale, err)
	} else if rows > 0 {
		note("copied the snapshot's rows for each of the %d copies, their keys moved (%d rows)", p.Replay.Scale-1, rows)
	}
	// where the workers leave the examples of statements that diverged,
	// read and removed by Check (a run that fails first leaves it beside
	// the database)
	r := *p.Replay
	r.DivergedFile = DivergedPath(p.Store.Path)
	p.Replay = &r
	return nil
}

// SetupCheck returns the check of the replay's statements (CheckSQL).
func (planSource) SetupCheck(p *workload.Plan) func(context.Context, store.Store) error {
	return SetupCheck(p)
}

// After compares the database the replay ended with with the capture's
// (Check).
func (planSource) After(p *workload.Plan, digest workload.DigestFile) *workload.ReplayCheck {
	return Check(p.Replay, p.Store.Path, digest)
}

// A replay in the order of commits (workload.ReplayCommit) shares its
// order across its worker processes as a record workload shares its
// insert counter: the coordinator creates the file beside the database,
// each state's statements counted from the trace, names it in the plan
// the workers get (Replay.OrderFile), and removes it when the run ends.

// Share creates the order file of p, when it needs one, and returns the
// plan to send the worker processes (naming the file) and a function that
// removes the file.
func (planSource) Share(p *workload.Plan, m workload.MapFile) (workerPlan *workload.Plan, remove func(), err error) {
	remove = func() {}
	if p.Replay.Order != workload.ReplayCommit {
		return p, remove, nil
	}
	f, err := os.CreateTemp(filepath.Dir(p.Store.Path), ".gobench-order-*")
	if err != nil {
		return nil, remove, fmt.Errorf("creating the replay's order of commits: %w", err)
	}
	name := f.Name()
	remove = func() { os.Remove(name) }
	size := OrderSize(p.Replay.States, len(p.Replay.Workers))
	err = f.Truncate(int64(size))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = countOrder(p.Replay, m, name, size)
	}
	if err != nil {
		remove()
		return nil, func() {}, fmt.Errorf("the replay's order of commits %s: %w", name, err)
	}
	wp := *p
	r := *p.Replay
	r.OrderFile, r.Stall = name, orderStall(p.StallTimeout)
	wp.Replay = &r
	return &wp, remove, nil
}

// countOrder writes a fresh order into the file, counting each state's
// statements in its mapping (not this process's heap: it holds a number
// per commit).
func countOrder(r *workload.Replay, m workload.MapFile, name string, size int) error {
	mem, unmap, err := m(name, size)
	if err != nil {
		return err
	}
	defer unmap()
	if err := InitOrder(mem, r.States, len(r.Workers)); err != nil {
		return err
	}
	o, err := OpenOrder(mem)
	if err != nil {
		return err
	}
	return CountGates(r, func() (io.ReadCloser, error) { return os.Open(r.Trace) }, o)
}

// Host returns the source of a host's hostWorkers workers: the order of
// commits the plan names mapped (a worker process's), or one of the
// host's own.
func (planSource) Host(p *workload.Plan, hostWorkers int, m workload.MapFile) (workload.Source, func(), error) {
	if p.Replay.Stall == 0 && p.StallTimeout > 0 { // a host of its own order (goroutine mode)
		r := *p.Replay
		r.Stall = orderStall(p.StallTimeout)
		p.Replay = &r
	}
	order, unmap, err := mapOrder(p, m)
	if err != nil {
		return nil, nil, err
	}
	src, err := NewSource(p, hostWorkers, order)
	if err != nil {
		unmap()
		return nil, nil, err
	}
	return src, unmap, nil
}

// Progress returns the progress of the order of commits a worker
// process's plan names (Order.Progress), nil when it names none.
func (planSource) Progress(p *workload.Plan, m workload.MapFile) (func() int64, func(), error) {
	o, unmap, err := mapOrder(p, m)
	if err != nil || o == nil {
		return nil, unmap, err
	}
	return o.Progress, unmap, nil
}

// orderStall is the stall time-out of a replay's order of commits under
// a run's stall time-out: three quarters of it, so that a worker finding
// the order stalled says what each connection waits for before the
// watchdog kills a silent worker; 0 (ReplayStall) when the run has none.
func orderStall(limit workload.Duration) time.Duration { return time.Duration(limit) * 3 / 4 }

// mapOrder maps the order file a worker process's plan names, or returns
// nil when it names none.
func mapOrder(p *workload.Plan, m workload.MapFile) (o *Order, unmap func(), err error) {
	unmap = func() {}
	switch {
	case p.Replay.OrderFile == "":
		return nil, unmap, nil
	case m == nil:
		return nil, unmap, errors.New("the replay's order of commits is in a file, and this host maps none")
	}
	mem, unmap, err := m(p.Replay.OrderFile, OrderSize(p.Replay.States, len(p.Replay.Workers)))
	if err != nil {
		return nil, func() {}, fmt.Errorf("mapping the replay's order of commits: %w", err)
	}
	if o, err = OpenOrder(mem); err != nil {
		unmap()
		return nil, func() {}, fmt.Errorf("the replay's order of commits %s: %w", p.Replay.OrderFile, err)
	}
	return o, unmap, nil
}

var (
	_ workload.Owned  = planSource{}
	_ workload.Around = planSource{}
	_ workload.Timed  = planSource{}
	_ workload.Set    = planSource{}
)
