package coord

import (
	"context"
	"fmt"
	"time"

	"github.com/gobench/gobench/pkg/capacity"
	"github.com/gobench/gobench/pkg/result"
	"github.com/gobench/gobench/pkg/workload"
)

// Search is a capacity search over every cell of Cells (Repeat is not
// used): each cell's search, one after another.
type Search struct {
	Cells Cells
	// Search is the search every cell runs; its Run and Observe are set
	// per cell.
	Search capacity.Search
	// Settle runs before each step's measured phase, at the step's rate,
	// unmeasured (capacity.DefaultSettle when zero).
	Settle time.Duration
	// Observe, if set, is told of every step of cell i as it ends.
	Observe func(i int, st result.CapacityStep)
}

// FindRates runs the search on every cell and returns the curves, in
// cell order, each with the disk's fsync rate measured just before and
// just after its search. Every step is a run of its own, on a fresh database from
// the cell's plan and seed, with fresh workers: steps do not inherit one
// another's write-ahead log, page cache or queue, so each step's verdict
// depends on its rate alone, and the settle phase warms what a step needs.
// It stops at the first error (an interrupt included), returning the
// curves so far, the last one with the steps it ran.
func FindRates(ctx context.Context, s Search) ([]result.CapacityCurve, error) {
	settle := s.Settle
	if settle <= 0 {
		settle = capacity.DefaultSettle
	}
	cells, names, note := searchCells(s.Cells)
	var curves []result.CapacityCurve
	for i, cell := range s.Cells.Plans {
		search := s.Search
		search.Workers = len(cell.WorkerIDs())
		n := 0
		search.Run = func(ctx context.Context, rate float64, length time.Duration) (*result.Result, error) {
			n++
			return cells.runOne(ctx, n, 0, stepPlan(cell, rate, length, settle), nil, func(string, ...any) {})
		}
		search.Observe = func(st result.CapacityStep) {
			if s.Observe != nil {
				s.Observe(i, st)
			}
		}
		if len(s.Cells.Plans) > 1 {
			note("cell %d of %d: %s", i+1, len(s.Cells.Plans), names[i])
		}
		quiet := func(string, ...any) {}
		before, err := cells.measureCeiling(ctx, quiet)
		if err != nil {
			return curves, err
		}
		curve, err := search.Find(ctx)
		curve.Settings = result.PlanSettings(cell)
		curve.DiskBefore = before
		if err == nil {
			if curve.DiskAfter, err = cells.measureCeiling(ctx, quiet); err != nil {
				err = fmt.Errorf("after the search: %w", err)
			}
		}
		curves = append(curves, curve)
		if err != nil {
			return curves, err
		}
	}
	return curves, nil
}

// searchCells returns the cells of a search's steps (no progress watch:
// a step's progress is its note, when it ends; no calibration: a
// search measures the disk around itself, and a calibration around
// every step would add a fifth of a second to each), the cells' names,
// and their note (one that drops notes when they have none).
func searchCells(c Cells) (Cells, []string, func(string, ...any)) {
	note := c.Note
	if note == nil {
		note = func(string, ...any) {}
	}
	names := result.CellNames(c.Plans)
	c.Watch = nil
	c.Base.Calibrate = false
	return c, names, note
}

// stepPlan is cell as one step of a search: open loop at rate for
// length after settle, or with rate 0 the closed-loop probe (for length,
// after the same settle).
func stepPlan(cell *workload.Plan, rate float64, length, settle time.Duration) *workload.Plan {
	p := *cell
	p.Phases = []workload.Phase{cell.Phases[0]}
	ph := &p.Phases[0]
	ph.Ops, ph.Duration = 0, workload.Duration(length)
	warm := *ph
	warm.Name, warm.Duration = "settle", workload.Duration(settle)
	p.Warmup = &warm
	p.Rate = rate
	if rate == 0 {
		p.Arrival, p.LatencyLimit, p.SkipLate = "", 0, false
	}
	return &p
}
