package capacity

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/gobench/gobench/pkg/result"
	"github.com/gobench/gobench/pkg/workload"
)

// scaleModel is an application whose replay's p99 is service at every
// scale up to knee and a second past it: each step's figures follow from
// its scale alone.
type scaleModel struct {
	knee  int
	fail  int // a step at this scale fails to run (0: none)
	steps []int
}

func (m *scaleModel) run(_ context.Context, scale int) (*result.Result, error) {
	m.steps = append(m.steps, scale)
	if scale == m.fail {
		return nil, errors.New("the run failed")
	}
	lat := 2 * time.Millisecond
	if scale > m.knee {
		lat = time.Second
	}
	us := float64(lat) / 1e3
	ops := result.OpStats{Kind: "total", Latency: result.Latency{Count: int64(100 * scale), P50Micros: us / 2, P99Micros: us, MaxMicros: 2 * us}}
	p := workload.DefaultPlan()
	p.Driver = "null"
	return &result.Result{Plan: p, Complete: true, Phases: []result.Phase{{Name: "replay", WallSeconds: 1, Ops: []result.OpStats{ops}, Total: ops}}}, nil
}

// The scale search doubles from 1 while the objectives hold, then
// bisects between the largest scale met and the smallest failed; it
// says when not even scale 1 holds, stops at its maximum, and keeps the
// steps of a search a failed run ended.
func TestScaleSearch(t *testing.T) {
	obj, err := ParseObjectives("total p99 <= 50ms")
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name      string
		knee, max int
		fail      int
		found     bool
		scale     int
		steps     []int
	}{
		{"a knee between powers of two", 11, 0, 0, true, 11, []int{1, 2, 4, 8, 16, 12, 10, 11}},
		{"a knee on a power of two", 8, 0, 0, true, 8, []int{1, 2, 4, 8, 16, 12, 10, 9}},
		{"scale 1 fails", 0, 0, 0, false, 0, []int{1}},
		{"every scale up to the maximum holds", 1000, 5, 0, true, 5, []int{1, 2, 4, 5}},
		{"a run fails", 11, 0, 4, false, 0, []int{1, 2, 4}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			m := &scaleModel{knee: tt.knee, fail: tt.fail}
			var observed []int
			c, err := ScaleSearch{Objectives: obj, Max: tt.max, Run: m.run, Observe: func(st result.ScaleStep) { observed = append(observed, st.Scale) }}.Find(context.Background())
			if (err != nil) != (tt.fail > 0) || c.Complete != (tt.fail == 0) {
				t.Fatalf("error %v, complete %v", err, c.Complete)
			}
			if c.Found != tt.found || c.Scale != tt.scale || !slices.Equal(m.steps, tt.steps) {
				t.Errorf("found %v scale %d after steps %v, want %v %d after %v", c.Found, c.Scale, m.steps, tt.found, tt.scale, tt.steps)
			}
			if len(c.Steps) != len(observed) || (tt.fail == 0 && len(c.Steps) != len(tt.steps)) {
				t.Errorf("%d steps kept, %d observed", len(c.Steps), len(observed))
			}
			for _, st := range c.Steps {
				if st.Met != (st.Scale <= tt.knee) || st.Statements != int64(100*st.Scale) || len(st.Verdicts) != 1 {
					t.Errorf("step %+v: met %v, want %v", st, st.Met, st.Scale <= tt.knee)
				}
			}
		})
	}
}
