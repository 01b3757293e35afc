package preset

import (
	"github.com/gobench/gobench/pkg/result"
	"github.com/gobench/gobench/pkg/workload"
)

// MixSpec is the classic concurrency test: every worker deals its seeded
// lottery of reads and writes (95% reads, 5% upserts by default) over a
// preloaded key space.
type MixSpec struct {
	// Plan is the template of every cell: seed, keys, values, the mix of
	// its one phase, open loop; the matrix fills the rest.
	Plan workload.Plan
	Loop Loop
}

// DefaultMixSpec returns the 95/5 mix over 10,000 preloaded keys, 15,000
// ops per worker.
func DefaultMixSpec() MixSpec { return MixSpec{Plan: workload.DefaultPlan()} }

// Shape is a matrix of settings.
func (MixSpec) Shape() result.Shape { return result.ShapeMatrix }

// Plans returns one plan per cell of m; every key is preloaded.
func (s MixSpec) Plans(m Matrix) ([]*workload.Plan, error) {
	p := s.Plan
	p.Preload = p.Keys.Count
	p.Store.Path = temporary
	return s.Loop.plans(p, m)
}

// Reference is none: a matrix compares against a baseline cell.
func (MixSpec) Reference() string { return "" }
