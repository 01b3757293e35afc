package replay

import (
	"github.com/gobench/gobench/pkg/sqltrace"
	"github.com/gobench/gobench/pkg/workload"
)

// remapper moves one copy's statements to its keys, as a dealer deals
// them (workload.ReplayRemap).
type remapper struct {
	span   int64
	copy   int
	tables map[string]*remapTable
	plans  map[string]*remapPlan // by text
	texts  map[string]string     // an INSERT's text with its id, by text
}

// newRemapper returns the remapper of copy c of r, nil when r does not
// remap its copies' keys.
func newRemapper(r *workload.Replay, c int) *remapper {
	if !r.Remapping() {
		return nil
	}
	return &remapper{span: r.Remap.Span, copy: c, tables: keyTables(r.Remap), plans: map[string]*remapPlan{}, texts: map[string]string{}}
}

// plan returns how a text runs in the copy, learning it the first time.
func (m *remapper) plan(sql string) *remapPlan {
	if p, ok := m.plans[sql]; ok {
		return p
	}
	p := analyzeRemap(sql, m.tables)
	if len(m.plans) < sqltrace.MaxTexts {
		m.plans[sql] = &p
	}
	return &p
}

// apply moves rd, dealt, to the copy's keys: its key parameters moved,
// and an INSERT's id chosen in the copy's range. A shared statement, or
// one of several statements, runs as captured.
func (m *remapper) apply(rd *Statement) {
	if m == nil || len(rd.Stmts) > 0 || rd.Overridden {
		return
	}
	p := m.plan(rd.SQL)
	if p.shared || !p.touches {
		return
	}
	if m.copy > 0 {
		for _, k := range p.keys {
			if k-1 < len(rd.Args) {
				rd.Args[k-1] = moveKey(rd.Args[k-1], m.copy, m.span)
			}
		}
	}
	if p.rowid == nil {
		return
	}
	text, ok := m.texts[rd.SQL]
	if !ok {
		text = p.rowidText(rd.SQL, m.copy, m.span)
		if len(m.texts) < sqltrace.MaxTexts {
			m.texts[rd.SQL] = text
		}
	}
	rd.SQL = text
}
