package judge

import (
	"fmt"
	"slices"
	"strings"

	"github.com/gobench/gobench/pkg/result"
	"github.com/gobench/gobench/pkg/workload"
)

// producedBy says why a run of plan p could have no figure of m, or nil:
// a figure named whole asks its row (Figure.Needs: commits need a write,
// their share of the fsync ceiling the ceiling measured); an op kind's
// statistic needs the kind: figures read a run's first phase, whose
// source deals some op kinds and not others (a script's statements have
// rows only with per-statement timing), whose begin and commit rows exist
// only in batches of more than one op. Any other metric (total, and kinds
// judge does not know as ops) is left to the run.
func (m Metric) producedBy(p *workload.Plan, ceiling bool) error {
	if len(p.Phases) == 0 {
		return nil
	}
	if f := figureNamed(m.String()); f != nil {
		if f.Needs == nil {
			return nil
		}
		return f.Needs(p, ceiling)
	}
	ph := &p.Phases[0]
	if role, kind, ok := strings.Cut(m.Kind, " "); ok {
		return roleProduces(p, role, kind)
	}
	names := p.OpNames()
	kinds := p.Kinds(ph)
	switch {
	case m.Kind == workload.OpBegin.String() || m.Kind == workload.OpCommit.String():
		if ph.Batch <= 1 {
			return fmt.Errorf("%s is timed only in batches: give --batch 2 or more", m.Kind)
		}
	case strings.Contains(m.Kind, "#"):
		if p.SQL == nil || !p.SQL.PerStatement {
			return fmt.Errorf("%s is a statement, timed only with --per-statement", m.Kind)
		}
	case isOwnKind(m.Kind) || slices.Contains(names[:], m.Kind):
		if !slices.ContainsFunc(kinds, func(o workload.Op) bool { return names[o] == m.Kind }) {
			return fmt.Errorf("the first phase deals no %s (its ops: %s)", m.Kind, strings.Join(opNamesOf(p, ph), ", "))
		}
	}
	return nil
}

// opNamesOf names the op kinds phase ph of p deals, by its source.
func opNamesOf(p *workload.Plan, ph *workload.Phase) []string {
	names := p.OpNames()
	var out []string
	for _, o := range p.Kinds(ph) {
		out = append(out, names[o])
	}
	return out
}

// checkPlans refuses a gate whose metric a cell it reads could not have
// (producedBy), naming the cell: before anything runs, the suite's runs
// are the plans to be.
func (e Expectation) checkPlans(s *result.Suite) error {
	var cells []int
	if e.Absolute {
		cs, err := e.cells(s)
		if err != nil {
			return err
		}
		cells = cs
	} else {
		pairs, err := e.pairs(s)
		if err != nil {
			return err
		}
		for _, p := range pairs {
			cells = append(cells, p.a, p.b)
		}
	}
	for _, i := range cells {
		c := s.Cells[i]
		for _, r := range c.Runs {
			if err := e.Metric.producedBy(&r.Plan, r.Environment.Ceiling != nil); err != nil {
				return fmt.Errorf("--expect %q: %s: %w", e.Text, cellName(c), err)
			}
		}
	}
	return nil
}

// roleProduces says why a run of p could have no figure of role's op
// kind, or nil.
func roleProduces(p *workload.Plan, role, kind string) error {
	i := slices.IndexFunc(p.Roles, func(r workload.Role) bool { return r.Name == role })
	switch {
	case i < 0 && len(p.Roles) == 0:
		return fmt.Errorf("%s is no role: the plan has none (give --role NAME:COUNT:MIX)", role)
	case i < 0:
		return fmt.Errorf("%s is no role of the plan (its roles: %s)", role, strings.Join(p.RoleNames(), ", "))
	case kind == "total":
		return nil
	}
	if !slices.ContainsFunc(p.Roles[i].Mix.Ops(), func(o workload.Op) bool { return o.String() == kind }) {
		return fmt.Errorf("role %s deals no %s (its mix: %s)", role, kind, p.Roles[i].Mix)
	}
	return nil
}
