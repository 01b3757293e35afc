package replay

import (
	"io"

	"github.com/gobench/gobench/pkg/sqltrace"
	"github.com/gobench/gobench/pkg/workload"
)

// A fold runs the schema first, once, so that every slice finds the
// tables; but a table the capture drops would then be made and dropped
// before any slice starts, and the statements between, on it, fail. The
// objects the capture drops are the slices' own instead
// (workload.ReplayFold.Own): their CREATE, DROP, ALTER and those of the
// indexes and triggers on them run in their slices, as captured.

// ownObjects are the names of the objects a fold's slices make and drop
// themselves (nil: none).
type ownObjects map[string]bool

// ownObjectsOf returns the names as ownObjects.
func ownObjectsOf(names []string) ownObjects {
	if len(names) == 0 {
		return nil
	}
	o := ownObjects{}
	for _, n := range names {
		o[n] = true
	}
	return o
}

// of reports whether schema statement s is of one of the objects, or of
// an index or trigger on one.
func (o ownObjects) of(s string) bool {
	if o == nil {
		return false
	}
	_, _, name, on := objectOf(s)
	return name != "" && o[name] || on != "" && o[on]
}

// droppedObjects returns the names of the objects, not temporary, that
// the statements r's fold replays drop and that succeeded (at most
// maxSchema): the fold's slices make and drop them themselves.
func droppedObjects(open func() (io.ReadCloser, error), r *workload.Replay) ([]string, error) {
	temps := connTemps{}
	var out []string
	seen := map[string]bool{}
	err := eachExec(open, r.Database, r.Window, r.Select, func(stream uint64, e *sqltrace.Exec) {
		if e.Code != 0 || e.Flags&sqltrace.FlagCut != 0 || !isSchema(e.SQL) {
			return
		}
		mine := temps.of([2]uint64{stream, e.Conn})
		for _, s := range sqltrace.SplitStatements(e.SQL) {
			verb, _, name, _ := objectOf(s)
			if mine.owns(s) || verb != "drop" || name == "" || seen[name] || len(out) == maxSchema {
				continue
			}
			seen[name] = true
			out = append(out, name)
		}
	})
	return out, err
}
