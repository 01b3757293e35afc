package workload

import (
	"errors"
	"fmt"
	"strconv"
)

// checkSQL checks a sql workload: its scripts parse, fit the op space,
// have names of their own, and are the only ops the phases deal; a plan
// without one deals no script.
func (p *Plan) checkSQL() error {
	s := p.SQL
	if s == nil {
		for _, ph := range p.RunPhases() {
			for _, op := range ph.Mix.Ops() {
				if op.IsScript() {
					return fmt.Errorf("phase %s deals %v, but the plan has no scripts", ph.Name, op)
				}
			}
		}
		return nil
	}
	if err := s.checkScripts(); err != nil {
		return err
	}
	if _, err := s.ParseSchema(); err != nil {
		return err
	}
	if s.Scale < 1 {
		return fmt.Errorf("scale %d is out of range (want 1 or more)", s.Scale)
	}
	switch s.Check {
	case "", CheckTPCB:
	default:
		return fmt.Errorf("unknown check %q (want %s, or none)", s.Check, CheckTPCB)
	}
	if s.Check != "" && p.SkipLate {
		return errors.New("the check counts every transaction acknowledged: it cannot run with ops skipped (--skip-late)")
	}
	if p.Preload != 0 || p.Verify {
		return errors.New("a sql workload preloads nothing and checks with its own check, not --verify")
	}
	for _, ph := range p.RunPhases() {
		if ph.Access != AccessLottery || ph.Batch != 1 {
			return fmt.Errorf("phase %s: scripts are dealt by weight, one script per transaction (no each-key phases, no batches)", ph.Name)
		}
		for _, op := range ph.Mix.Ops() {
			if !op.IsScript() || int(op-OpScript) >= len(s.Scripts) {
				return fmt.Errorf("phase %s deals %v, which is not one of the plan's %d scripts", ph.Name, op, len(s.Scripts))
			}
		}
	}
	return nil
}

// OpNames returns every op's name in this plan's results: the scripts'
// names and SCRIPT#LINE for their statements in a sql workload, and
// Op.String otherwise.
func (p *Plan) OpNames() [MaxOp]string {
	var names [MaxOp]string
	for o := range MaxOp {
		names[o] = o.String()
	}
	if o := p.owned(); o != nil {
		o.OpNames(p, &names)
		return names
	}
	if p.SQL == nil {
		return names
	}
	scripts, err := p.SQL.Parse()
	if err != nil {
		return names
	}
	j := 0
	for i, sc := range scripts {
		names[ScriptOp(i)] = sc.Name
		for _, c := range sc.Commands {
			if c.SQL != nil && j < MaxStatements {
				names[StatementOp(j)] = sc.Name + "#" + strconv.Itoa(c.Line)
				j++
			}
		}
	}
	return names
}

// IsDataKind reports whether the op kind a result names is a data op,
// counted in throughput: a key-value op, one of a sql workload's scripts
// (not its statements, not the transaction markers), or a replayed
// trace's statements.
func (p *Plan) IsDataKind(kind string) bool {
	if op, err := ParseOp(kind); err == nil && op.IsData() {
		return true
	}
	if o := p.owned(); o != nil && len(p.Phases) > 0 {
		names := p.OpNames()
		for _, op := range o.Kinds(p, &p.Phases[0]) {
			if names[op] == kind {
				return true
			}
		}
		return false
	}
	if p.SQL == nil {
		return false
	}
	names := p.OpNames()
	for i := range p.SQL.Scripts {
		if names[ScriptOp(i)] == kind {
			return true
		}
	}
	return false
}
