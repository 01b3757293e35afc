package result

import (
	"fmt"

	"github.com/gobench/gobench/pkg/workload"
)

// Shape is what the cells of a suite are to each other, and so how the
// suite reads: renderers, plan files and baselines follow it, never the
// name of the command that ran. A preset declares the shape of what it
// builds.
type Shape string

// The shapes of gobench's suites.
const (
	// ShapeMatrix: the cells are settings of one workload (journal × sync,
	// drivers, procs, …), compared against a baseline cell chosen by its
	// values; one run of one cell reads as that run.
	ShapeMatrix Shape = "matrix"
	// ShapeScaling: a scaling table, a row per engine and size, each
	// phase's rate in a column; factors compare every row with the row of
	// the reference engine (Suite.Reference) at the same size.
	ShapeScaling Shape = "scaling"
	// ShapeTargets: a few targets of one workload compared side by side
	// (a database against directories of files), each named by its plan's
	// Target; factors compare the reference target (Suite.Reference) with
	// each of the others.
	ShapeTargets Shape = "targets"
)

// Shapes lists the shapes a suite may have.
func Shapes() []Shape { return []Shape{ShapeMatrix, ShapeScaling, ShapeTargets} }

// Check refuses a shape that is not one of Shapes.
func (s Shape) Check() error {
	for _, k := range Shapes() {
		if s == k {
			return nil
		}
	}
	return fmt.Errorf("shape %q: want one of %v", s, Shapes())
}

// ReadsAsRun reports whether a suite of this shape with runs runs in all
// may read as its one run: a matrix of one cell run once (a scaling
// table or targets keep their table, whatever their size). Suite.ReadsAsRun
// is the whole rule.
func (s Shape) ReadsAsRun(runs int) bool { return s == ShapeMatrix && runs == 1 }

// ReadsAsRun reports whether the suite is reported, in every format, and
// written as JSON, as its one run: the one rule that the commands that
// write suites and every renderer follow. It does when its shape reads as
// a run (Shape.ReadsAsRun) and the suite says nothing its run does not: it
// is not one shard of a job, not a merge that misses runs, not a
// scenario's verdict.
func (s *Suite) ReadsAsRun() bool {
	runs := 0
	for _, c := range s.Cells {
		runs += len(c.Runs)
	}
	return s.Shard == nil && len(s.Missing) == 0 && s.Scenario == nil && s.Shape.ReadsAsRun(runs)
}

// BaselineSelectsCell reports whether a baseline names a cell by its
// values (a matrix); a scaling table's names its reference engine, and
// targets have none.
func (s Shape) BaselineSelectsCell() bool { return s == ShapeMatrix }

// legacyShapes are the shapes of the suites of results written before a
// suite recorded its shape, by the command that wrote them; any other
// command's suite was a matrix.
var legacyShapes = map[string]Shape{"crud": ShapeScaling, "blob": ShapeTargets}

// shapeOr returns shape, or for a file that recorded none the shape its
// command's suites had (LegacyShape).
func shapeOr(shape Shape, command string) Shape {
	if shape != "" {
		return shape
	}
	return LegacyShape(command)
}

// LegacyShape is the shape of the suites command made before results and
// plan files recorded their shape.
func LegacyShape(command string) Shape {
	if s, ok := legacyShapes[command]; ok {
		return s
	}
	return ShapeMatrix
}

// fillLegacy gives the runs of a suite of targets written before plans
// recorded their target the names their reports gave them (db for the
// database, the layout, flat or tree, for the files engine's
// directories), and the suite its reference, the database.
func fillLegacy(s *Suite) {
	if s.Shape != ShapeTargets {
		return
	}
	if s.Reference == "" {
		s.Reference = "db"
	}
	for _, c := range s.Cells {
		for _, r := range c.Runs {
			if r.Plan.Target == "" {
				r.Plan.Target = legacyTarget(&r.Plan)
			}
		}
	}
}

// legacyTarget names an old blob run's target from its engine.
func legacyTarget(p *workload.Plan) string {
	if p.Driver != "files" {
		return "db"
	}
	if v, ok := PlanSettings(p).Get("layout"); ok {
		return v
	}
	return "files"
}
