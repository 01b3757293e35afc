package preset

import (
	"slices"
	"strconv"

	"github.com/gobench/gobench/pkg/result"
	"github.com/gobench/gobench/pkg/store"
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
	// Roles, when set, split the workers into roles with mixes and
	// rates of their own (see workload.Role): the roles' counts set the
	// workers, one a process (in goroutine mode one a goroutine), in
	// every cell.
	Roles workload.Roles
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
	if len(s.Roles) > 0 {
		p.Roles = slices.Clone(s.Roles)
		p.Phases = slices.Clone(p.Phases)
		p.Phases[0].Mix = workload.RolesMix(s.Roles)
		if !m.lays(s.Roles.Workers()) {
			m.Procs, m.Goroutines = store.List{strconv.Itoa(s.Roles.Workers())}, store.List{"1"}
		}
	}
	return s.Loop.plans(p, m)
}

// Reference is none: a matrix compares against a baseline cell.
func (MixSpec) Reference() string { return "" }

// lays reports whether m lays out exactly n workers in one way (one
// procs value times one goroutines value): roles keep such a layout (n
// goroutines of one process, as choose runs them) and otherwise run a
// process per worker.
func (m Matrix) lays(n int) bool {
	if len(m.Procs) != 1 || len(m.Goroutines) != 1 {
		return false
	}
	procs, err1 := strconv.Atoi(m.Procs[0])
	gor, err2 := strconv.Atoi(m.Goroutines[0])
	return err1 == nil && err2 == nil && procs*gor == n
}
