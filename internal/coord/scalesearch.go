package coord

import (
	"context"
	"fmt"

	"github.com/gobench/gobench/pkg/capacity"
	"github.com/gobench/gobench/pkg/result"
	"github.com/gobench/gobench/pkg/workload"
)

// ScaleRun is a scale search over every cell of Cells (a replay's,
// Repeat not used): each cell's search, one after another.
type ScaleRun struct {
	Cells Cells
	// Search is the search every cell runs; its Run and Observe are set
	// per cell.
	Search capacity.ScaleSearch
	// At returns a cell at a scale (preset.ScaleReplay).
	At func(cell *workload.Plan, scale int) (*workload.Plan, error)
	// Observe, if set, is told of every step of cell i as it ends.
	Observe func(i int, st result.ScaleStep)
}

// FindScales runs the scale search on every cell and returns the curves,
// in cell order. Every step is a whole replay of its own, on a fresh copy
// of the trace's snapshot, with fresh workers. It stops at the first
// error (an interrupt included), returning the curves so far, the last
// one with the steps it ran.
func FindScales(ctx context.Context, s ScaleRun) ([]result.ScaleCurve, error) {
	cells, names, note := searchCells(s.Cells)
	var curves []result.ScaleCurve
	for i, cell := range s.Cells.Plans {
		search := s.Search
		n := 0
		search.Run = func(ctx context.Context, scale int) (*result.Result, error) {
			p, err := s.At(cell, scale)
			if err != nil {
				return nil, err
			}
			n++
			return cells.runOne(ctx, n, 0, p, nil, func(string, ...any) {})
		}
		search.Observe = func(st result.ScaleStep) {
			if s.Observe != nil {
				s.Observe(i, st)
			}
		}
		if len(s.Cells.Plans) > 1 {
			note("cell %d of %d: %s", i+1, len(s.Cells.Plans), names[i])
		}
		curve, err := search.Find(ctx)
		curve.Settings = result.PlanSettings(cell)
		curves = append(curves, curve)
		if err != nil {
			return curves, fmt.Errorf("%s: %w", names[i], err)
		}
	}
	return curves, nil
}
