// Package preset builds the plans of every workload gobench runs. A
// preset is one file: a spec (the workload as a command asks for it, with
// its defaults and validation), one function from spec and matrix to
// plans, and the shape of the suite those plans make (result.Shape), which
// is all the report, plan files and baselines need to know of it.
//
// A new workload is a preset file here, a thin command file in
// internal/cli and one registration line there; a new shape, one no preset
// produced before, also needs its renderers in package report.
package preset

import (
	"fmt"
	"slices"
	"time"

	"github.com/gobench/gobench/pkg/result"
	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/workload"
)

// Spec is one workload as a command asks for it.
type Spec interface {
	// Shape is how the cells of the plans read against each other.
	Shape() result.Shape
	// Plans returns one validated plan per cell of the workload over m.
	Plans(m Matrix) ([]*workload.Plan, error)
	// Reference is what a shape that names its reference by value
	// compares against (result.Suite.Reference): a scaling table's
	// driver, the reference target; "" for a matrix, whose baseline is a
	// cell selector.
	Reference() string
}

// Matrix is what a command lists to span cells: the workload matrix
// (drivers, worker layouts, batches, the lock policy) and each engine's
// own settings, as flags bound them.
type Matrix struct {
	workload.Matrix
	// Registry holds the drivers; Engines their settings, bound to the
	// command's flags.
	Registry *store.Registry
	Engines  *store.EngineSettings
	// Given reports whether a flag was given: an engine's flag given for
	// drivers none of which is of that engine is refused. Nil: none was.
	Given func(flag string) bool
	// Default returns a flag's default value, false for a flag the
	// command has not: a replay's cell as captured takes it for a
	// setting the flags gave but the application did not set. Nil: none.
	Default func(flag string) (string, bool)
}

// plans spans the matrix over template; setBatch applies a batch value.
func (m Matrix) plans(template *workload.Plan, setBatch func(*workload.Plan, int)) ([]*workload.Plan, error) {
	given := m.Given
	if given == nil {
		given = func(string) bool { return false }
	}
	if err := m.Engines.Check(given, m.Drivers); err != nil {
		return nil, err
	}
	return m.Matrix.Plans(template, m.Registry, m.Engines, setBatch)
}

// Loop is how long each worker of a lottery (mix, sql) runs, its warm-up
// and its shard.
type Loop struct {
	// Duration, when positive, runs each worker for this long instead of
	// the measured phase's ops.
	Duration time.Duration
	// Warmup is a duration ("5s") or a count of ops per worker ("1000") of
	// the same workload, run first and unmeasured; "auto" to choose it
	// after the run from its timeline (Plan.WarmupAuto); "" for none.
	Warmup string
	// Shard is "I/N": run only the worker processes p with p mod N = I-1.
	Shard string
	// Crash, if set, simulates power cuts after each run (see
	// workload.Crash); a key-value workload's values (a record workload's
	// fields) are then tagged with their writes.
	Crash *workload.Crash
}

// plans folds the loop into the template p, whose first phase is the
// measured one, and spans m over it: the cells of a lottery, each with
// its warm-up.
func (l Loop) plans(p workload.Plan, m Matrix) ([]*workload.Plan, error) {
	p.Phases = slices.Clone(p.Phases)
	ph := &p.Phases[0]
	if l.Duration < 0 {
		return nil, fmt.Errorf("--duration %s: want a positive duration", l.Duration)
	}
	if l.Duration > 0 {
		ph.Ops, ph.Duration = 0, workload.Duration(l.Duration)
	}
	if l.Shard != "" {
		var err error
		if p.Shard, err = workload.ParseShard(l.Shard); err != nil {
			return nil, fmt.Errorf("--shard: %w", err)
		}
	}
	if l.Crash != nil {
		c := *l.Crash
		p.Crash = &c
		p.Verify = p.Verify || p.SQL == nil && p.Records == nil // records tag their fields under Crash itself
	}
	p.WarmupAuto = l.Warmup == workload.WarmupAuto
	if p.WarmupAuto {
		l.Warmup = ""
	}
	warm, err := workload.ParseWarmup(l.Warmup, *ph)
	if err != nil {
		return nil, fmt.Errorf("--warmup: %w", err)
	}
	cells, err := spanModels(&p, func(p *workload.Plan) ([]*workload.Plan, error) {
		return m.plans(p, func(pl *workload.Plan, n int) { pl.Phases[0].Batch = n })
	})
	if err != nil {
		return nil, err
	}
	return cells, workload.SetWarmup(cells, warm)
}

// spanModels spans the crash models of p (workload.Crash.Models) over
// the cells span makes of it: each cell once per model, the models of a
// cell side by side.
func spanModels(p *workload.Plan, span func(*workload.Plan) ([]*workload.Plan, error)) ([]*workload.Plan, error) {
	if p.Crash == nil || len(p.Crash.Models) < 2 {
		return span(p)
	}
	var byModel [][]*workload.Plan
	for _, model := range p.Crash.Models {
		q := *p
		c := *p.Crash
		c.Model, q.Crash = model, &c
		cells, err := span(&q)
		if err != nil {
			return nil, err
		}
		byModel = append(byModel, cells)
	}
	var out []*workload.Plan
	for i := range byModel[0] {
		for _, cells := range byModel {
			out = append(out, cells[i])
		}
	}
	return out, nil
}

// temporary marks a template's store path for validation: every run sets
// its own.
const temporary = "(temporary)"
