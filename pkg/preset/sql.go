package preset

import (
	"errors"
	"fmt"
	"slices"

	"github.com/gobench/gobench/pkg/result"
	"github.com/gobench/gobench/pkg/workload"
)

// SQLSpec is a workload of the user's own weighted SQL scripts, as
// pgbench runs them, or one of pgbench's built-in workloads.
type SQLSpec struct {
	// Plan is the template of every cell (seed, ops, open loop); its one
	// phase deals the scripts.
	Plan workload.Plan
	Loop Loop
	// Scripts are the scripts, read by the caller (file name, text,
	// weight); or Builtin names a built-in workload instead.
	Scripts []workload.SQLFile
	Builtin string
	// Scale is :scale in the scripts and schema; the built-ins make
	// 100,000 accounts per unit.
	Scale int64
	// Schema, when set, runs once before the workers start.
	Schema *workload.SQLFile
	// Schemas, two or more, are alternatives of the schema, each named by
	// its Variant: each is a value of the matrix setting schema, so one
	// interleaved run compares them (Schema is then nil).
	Schemas []workload.SQLFile
	// FileVariants, two or more, are alternatives of the script
	// Scripts[VariedScript], each named by its Variant and all by the
	// first's Name: each is a value of the matrix setting file.
	FileVariants []workload.SQLFile
	VariedScript int
	// From is an existing database (an absolute path) to benchmark a copy
	// of, made in the run's directory.
	From string
	// PerStatement also reports every statement's latency.
	PerStatement bool
}

// DefaultSQLSpec returns a spec of 1,000 scripts per worker at scale 1,
// scripts to be given.
func DefaultSQLSpec() SQLSpec {
	p := workload.DefaultPlan()
	p.Preload = 0
	p.Phases[0].Name, p.Phases[0].Ops = "sql", 1000
	return SQLSpec{Plan: p, Scale: 1}
}

// Shape is a matrix of settings.
func (SQLSpec) Shape() result.Shape { return result.ShapeMatrix }

// Plans returns one plan per cell of m, each with the scripts parsed and
// checked (every script's \set lines, names and statements as far as they
// can be without a database).
func (s SQLSpec) Plans(m Matrix) ([]*workload.Plan, error) {
	if len(s.FileVariants) > 0 && (s.VariedScript < 0 || s.VariedScript >= len(s.Scripts)) {
		return nil, fmt.Errorf("the script with alternatives is number %d of %d", s.VariedScript+1, len(s.Scripts))
	}
	var out []*workload.Plan
	for _, v := range s.variants() {
		plans, err := v.plans(m)
		if err != nil {
			return nil, err
		}
		out = append(out, plans...)
	}
	return out, nil
}

// variants returns a spec per combination of the alternatives of the
// schema and of a script (Schemas, FileVariants), the schema's
// outermost: each with one schema and one file of each script.
func (s SQLSpec) variants() []SQLSpec {
	out := []SQLSpec{s}
	if len(s.Schemas) > 0 {
		out = nil
		for _, f := range s.Schemas {
			v := s
			v.Schema, v.Schemas = &f, nil
			out = append(out, v)
		}
	}
	if len(s.FileVariants) > 0 {
		var next []SQLSpec
		for _, v := range out {
			for _, f := range s.FileVariants {
				w := v
				w.Scripts, w.FileVariants = slices.Clone(v.Scripts), nil
				w.Scripts[s.VariedScript] = f
				next = append(next, w)
			}
		}
		out = next
	}
	return out
}

// plans returns one plan per cell of m of a spec without alternatives.
func (s SQLSpec) plans(m Matrix) ([]*workload.Plan, error) {
	w, err := s.workload()
	if err != nil {
		return nil, err
	}
	p := s.Plan
	p.SQL = w
	p.Phases = []workload.Phase{p.Phases[0]}
	p.Phases[0].Mix = w.Mix()
	p.Store.Path = temporary
	if s.Builtin != "" {
		p.Store.Replaces = workload.BuiltinTables()
	}
	return s.Loop.plans(p, m)
}

// workload returns the scripts as a plan carries them.
func (s SQLSpec) workload() (*workload.SQL, error) {
	var w *workload.SQL
	switch {
	case s.Builtin != "" && len(s.Scripts) > 0:
		return nil, errors.New("--builtin and --file both given (want one of them)")
	case s.Builtin != "":
		var err error
		if w, err = workload.BuiltinSQL(s.Builtin, s.Scale); err != nil {
			return nil, fmt.Errorf("--builtin: %w", err)
		}
		if s.Schema != nil || len(s.Schemas) > 0 || s.From != "" {
			return nil, fmt.Errorf("--builtin %s makes pgbench's tables itself: it takes no --schema or --from", s.Builtin)
		}
	case len(s.Scripts) == 0:
		return nil, errors.New("no scripts: give --file FILE[@WEIGHT] (repeatable) or --builtin tpcb-like")
	default:
		w = &workload.SQL{Scale: s.Scale, Scripts: s.Scripts}
	}
	if s.Schema != nil {
		w.Schema = s.Schema
	}
	if s.From != "" {
		w.From = s.From
	}
	w.PerStatement = s.PerStatement
	return w, nil
}

// Reference is none: a matrix compares against a baseline cell.
func (SQLSpec) Reference() string { return "" }
