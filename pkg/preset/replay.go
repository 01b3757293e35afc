package preset

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"time"

	"github.com/gobench/gobench/pkg/replay"
	"github.com/gobench/gobench/pkg/result"
	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/workload"
)

// ReplaySpec is a captured trace replayed (gobench replay): each cell
// replays it on its settings, from the trace's snapshot of the database.
type ReplaySpec struct {
	// Plan is the template of every cell (its error policy).
	Plan workload.Plan
	// Open opens the trace (the caller's file system); Options say which
	// database to replay, at which speed, in which order. Options.Procs
	// is set per cell, from the matrix's --procs (0: as captured).
	Open    func() (io.ReadCloser, error)
	Options replay.Options
}

// DefaultReplaySpec returns a spec that replays a trace back to back in
// the order its transactions race, each captured process a worker
// process; the trace to be given.
func DefaultReplaySpec() ReplaySpec {
	p := workload.DefaultPlan()
	p.Preload, p.OnError = 0, workload.OnErrorContinue
	p.Phases = []workload.Phase{{Name: "replay", Batch: 1}}
	return ReplaySpec{Plan: p, Options: replay.Options{Order: workload.ReplayRace}}
}

// ReplayPace is how long a replay cell's trace takes at its speed, as
// captured: 0 back to back (or for a plan that replays no trace).
func ReplayPace(p *workload.Plan) time.Duration {
	if r := p.Replay; r != nil && r.Speed > 0 {
		return time.Duration(float64(r.Duration) / r.Speed)
	}
	return 0
}

// maxPaced is the longest a replay at a speed slower than the capture's
// may take: a slower one is refused, not run for days.
const maxPaced = 24 * time.Hour

// CheckPace refuses a speed under 1x (the --speed flag's value, speed)
// at which a replay cell's trace's statements would take longer than
// maxPaced to come; a plan that replays no trace has no pace.
func CheckPace(speed string, p *workload.Plan) error {
	r := p.Replay
	if r == nil || r.Speed <= 0 || r.Speed >= 1 {
		return nil
	}
	captured := time.Duration(r.Duration)
	if paced := float64(captured) / r.Speed; paced > float64(maxPaced) {
		return fmt.Errorf("--speed %s: the trace's %s of statements would take %s at that pace, more than the %s a slowed replay may take: give a faster --speed",
			speed, captured.Round(time.Millisecond), paceText(paced), maxPaced)
	}
	return nil
}

// paceText names a long duration (ns) in its largest unit.
func paceText(ns float64) string {
	switch d := time.Duration(ns); {
	case ns >= float64(365*24*time.Hour):
		return fmt.Sprintf("%.3g years", ns/float64(365*24*time.Hour))
	case ns >= float64(48*time.Hour):
		return fmt.Sprintf("%.3g days", ns/float64(24*time.Hour))
	default:
		return d.Round(time.Second).String()
	}
}

// Shape is a matrix of settings.
func (ReplaySpec) Shape() result.Shape { return result.ShapeMatrix }

// Reference is none: a matrix names its baseline by a selector.
func (ReplaySpec) Reference() string { return "" }

// Plans returns one plan per cell of m: first the cell as the
// application ran (asCaptured), then for each --procs value (0 is as
// captured), the trace's connections placed on workers, spanned over the
// rest of the matrix, which takes the application's settings where its
// flags were not given.
func (s ReplaySpec) Plans(m Matrix) ([]*workload.Plan, error) {
	if s.Open == nil || s.Options.Trace == "" {
		return nil, errors.New("no trace to replay")
	}
	if m.Busy == workload.BusyRetry {
		return nil, errors.New("--busy retry: a replay runs the application's statements as it ran them, and waits for locks in SQLite's busy handler (--busy-timeout)")
	}
	if len(m.Goroutines) != 1 || m.Goroutines[0] != "1" || len(m.Batches) != 1 || m.Batches[0] != "1" {
		return nil, errors.New("--goroutines and --batch: a replay runs each captured connection as it ran, one statement at a time")
	}
	var cells []*workload.Plan
	for _, v := range m.Procs {
		procs, err := strconv.Atoi(v)
		if err != nil || procs < 0 || procs > workload.MaxProcs {
			return nil, fmt.Errorf("--procs %q: want the worker processes to fold the captured ones onto (0: one each)", v)
		}
		more, err := s.cells(m, procs)
		if err != nil {
			return nil, err
		}
		cells = append(cells, more...)
	}
	return asCaptured(m, cells)
}

// cells returns the cells of one fold of the captured processes.
func (s ReplaySpec) cells(m Matrix, procs int) ([]*workload.Plan, error) {
	o := s.Options
	o.Procs = procs
	r, _, err := replay.Build(s.Open, o)
	if err != nil {
		return nil, err
	}
	p := s.Plan
	p.Replay = r
	p.Store.Path = temporary
	p.Store.Bare = true // the replayed database holds the application's tables alone
	ph := p.Phases[0]
	ph.Mix = nil // the trace's statements: its source deals them, no mix
	for _, w := range r.Workers {
		ph.Ops = max(ph.Ops, w.Statements)
	}
	p.Phases = []workload.Phase{ph}
	mm := m
	mm.Procs, mm.Goroutines = store.List{strconv.Itoa(r.Procs)}, store.List{strconv.Itoa(len(r.Workers) / r.Procs)}
	return mm.plans(&p, func(*workload.Plan, int) {})
}

// ScaleReplay returns a replay cell at another scale (replay.Rescale):
// scale copies of each captured connection, on as many more workers; the
// rest of the cell as it was. A step of gobench replay --find-scale.
func ScaleReplay(p *workload.Plan, scale int) (*workload.Plan, error) {
	if p.Replay == nil {
		return nil, errors.New("the cell replays no trace")
	}
	r, err := replay.Rescale(p.Replay, scale)
	if err != nil {
		return nil, err
	}
	q := *p
	q.Replay = r
	q.Procs, q.Goroutines = r.Procs, len(r.Workers)/r.Procs
	return &q, q.Validate()
}
