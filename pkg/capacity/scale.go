package capacity

import (
	"context"
	"errors"
	"fmt"

	"github.com/gobench/gobench/pkg/judge"
	"github.com/gobench/gobench/pkg/result"
)

// DefaultMaxScale is the highest scale a ScaleSearch tries when not told.
const DefaultMaxScale = 64

// ScaleSearch finds the largest scale (copies of a replayed capture's
// connections, gobench replay --scale) whose replay meets latency
// objectives: scale 1, then doubling (2, 4, 8 …) while each meets them,
// up to Max; then a bisection between the largest met and the smallest
// failed, down to neighbours. Each step is judged by the objectives
// alone, as the rate search judges its own (the same gates): a scaled
// replay's copies fail on each other's keys by design, so errors are
// reported, not judged, unless an objective names them.
type ScaleSearch struct {
	Objectives []judge.Expectation
	// Max is the highest scale tried (DefaultMaxScale when 0).
	Max int
	// Run runs the replay at a scale and returns its result.
	Run func(ctx context.Context, scale int) (*result.Result, error)
	// Observe, if set, is told of every step as it ends.
	Observe func(result.ScaleStep)
}

// Find runs the search and returns its curve. An error from a step ends
// the search: the curve holds the steps so far, marked incomplete.
func (s ScaleSearch) Find(ctx context.Context) (result.ScaleCurve, error) {
	if s.Max <= 0 {
		s.Max = DefaultMaxScale
	}
	c := result.ScaleCurve{Complete: true}
	err := s.find(ctx, &c)
	if err != nil {
		c.Complete = false
		c.Problems = append(c.Problems, err.Error())
	}
	return c, err
}

func (s ScaleSearch) find(ctx context.Context, c *result.ScaleCurve) error {
	if s.Run == nil {
		return errors.New("a scale search with nothing to run")
	}
	lo, hi := 0, 0 // the largest scale met, the smallest failed (0: none yet)
	for k := 1; hi == 0 && lo < s.Max; k = min(2*k, s.Max) {
		met, err := s.step(ctx, c, k)
		if err != nil {
			return err
		}
		if !met {
			hi = k
		} else {
			lo = k
		}
	}
	for hi > 0 && hi-lo > 1 && lo > 0 {
		mid := (lo + hi) / 2
		met, err := s.step(ctx, c, mid)
		if err != nil {
			return err
		}
		if met {
			lo = mid
		} else {
			hi = mid
		}
	}
	c.Found, c.Scale = lo > 0, lo
	return nil
}

// step runs the replay at scale k, judges it and adds it to the curve.
func (s ScaleSearch) step(ctx context.Context, c *result.ScaleCurve, k int) (bool, error) {
	r, err := s.Run(ctx, k)
	if err != nil {
		return false, fmt.Errorf("the replay at scale %d: %w", k, err)
	}
	if len(r.Phases) == 0 {
		return false, fmt.Errorf("the replay at scale %d measured nothing", k)
	}
	ph := r.Phases[0]
	t := ph.Total
	st := result.ScaleStep{Scale: k, Statements: t.Count, Errors: t.Errors.Total, NewErrors: t.NewErrors,
		P50Micros: t.P50Micros, P99Micros: t.P99Micros, MaxMicros: t.MaxMicros, Seconds: ph.WallSeconds}
	if ph.WallSeconds > 0 {
		st.OpsPerSec = float64(t.Count) / ph.WallSeconds
	}
	if st.Verdicts, st.Met, err = meets(r, s.Objectives); err != nil {
		return false, err
	}
	c.Steps = append(c.Steps, st)
	if s.Observe != nil {
		s.Observe(st)
	}
	return st.Met, ctx.Err()
}
