package report

import (
	"fmt"
	"slices"

	"github.com/gobench/gobench/pkg/result"
	"github.com/gobench/gobench/pkg/workload"
)

// sharedConstraints labels the constraint errors a scaled replay's
// copies are expected to meet: those of statements that share keys
// across copies (workload.ReplayRemap), or all of them when the keys are
// not remapped; a remapped statement's are errors like any other.
func sharedConstraints(rp *workload.Replay, ph result.Phase) string {
	if rp.Scale <= 1 {
		return ""
	}
	return constraintsShared(rp, ph) + schemaCollisions(rp, ph)
}

// schemaCollisions labels the errors of a scaled replay's schema
// statements that every copy runs and all but the first fail by design
// (workload.ReplayKind.CopiesCollide): a CREATE finds the object made, a
// DROP finds it gone.
func schemaCollisions(rp *workload.Replay, ph result.Phase) string {
	collide := map[string]bool{}
	for _, k := range rp.Kinds {
		if k.CopiesCollide() {
			collide[k.ID] = true
		}
	}
	var n int64
	for _, o := range ph.Ops {
		if collide[o.Kind] {
			n += o.Errors.Other
		}
	}
	if n == 0 {
		return ""
	}
	return fmt.Sprintf(" (%d other errors among them are expected: they are of schema statements without IF [NOT] EXISTS that every copy runs, and all but the first find the object made or gone)", n)
}

// constraintsShared labels the constraint errors of statements that
// share keys across a scaled replay's copies.
func constraintsShared(rp *workload.Replay, ph result.Phase) string {
	if !rp.Remapping() {
		if c := ph.Total.Errors.Constraint; c > 0 {
			return fmt.Sprintf(" (%d constraint errors among them are expected: the copies insert the same keys, and all but the first fail on them; keys are not remapped)", c)
		}
		return ""
	}
	var shared int64
	for _, o := range ph.Ops {
		if slices.Contains(rp.Remap.SharedKinds, o.Kind) {
			shared += o.Errors.Constraint
		}
	}
	if shared == 0 {
		return ""
	}
	return fmt.Sprintf(" (%d constraint errors among them are expected: they are of statements that share keys across the copies; those of remapped statements are not)", shared)
}
