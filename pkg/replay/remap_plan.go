package replay

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"sort"

	"github.com/gobench/gobench/pkg/sqltrace"
	"github.com/gobench/gobench/pkg/workload"
)

// planRemap reads how a replay of r at scale keeps its copies' keys
// apart (workload.ReplayRemap): the key columns of the database, the
// span of a copy's keys, and how many of the statements replayed are
// remapped and shared. Keys too large for scale copies in 64 bits leave
// the copies on the same keys, and the remap says why.
func planRemap(ctx context.Context, open func() (io.ReadCloser, error), r *workload.Replay, scale int) (*workload.ReplayRemap, error) {
	schema, err := schemaStatements(open, r.Database)
	if err != nil {
		return nil, err
	}
	tables, most, err := readKeys(ctx, open, r, schema)
	if err != nil {
		return nil, fmt.Errorf("reading the keys to give each copy under --scale: %w", err)
	}
	m := &workload.ReplayRemap{Tables: tables}
	c := remapCount{tables: keyTables(m), plans: map[string]remapPlan{}, shared: map[string]bool{}, most: most}
	add := func(_ uint64, e *sqltrace.Exec) { c.add(e) }
	if r.TimeFold != nil { // a fold runs its schema statements once, before the slices: no copy runs them
		texts, temps := newFoldTexts(r.TimeFold), connTemps{}
		add = func(stream uint64, e *sqltrace.Exec) {
			if !texts.of(e, temps.of([2]uint64{stream, e.Conn})).hoisted {
				c.add(e)
			}
		}
	}
	if err := eachExec(open, r.Database, r.Window, r.Select, add); err != nil {
		return nil, err
	}
	m.Remapped, m.Shared, m.SharedFingerprints = c.remapped, c.shared0, len(c.shared)
	m.SharedKinds = sharedKinds(r, c.shared)
	if c.most > math.MaxInt64/10-r.Statements {
		m.Why = fmt.Sprintf("a key value of %d leaves no room for another copy's range", c.most)
		return m, nil
	}
	m.Span = 10
	for m.Span <= c.most+r.Statements {
		m.Span *= 10
	}
	if !m.Fits(scale) {
		m.Why = fmt.Sprintf("keys up to %d, a range of %d each, leave no room for %d copies in 64 bits", c.most, m.Span, scale)
	}
	return m, nil
}

// schemaStatements returns the texts of the statements that wrote the
// schema of the database at path and succeeded (at most maxSchema).
func schemaStatements(open func() (io.ReadCloser, error), path string) ([]string, error) {
	var out []string
	err := eachExec(open, path, nil, nil, func(_ uint64, e *sqltrace.Exec) {
		if e.Code != 0 || e.Flags&sqltrace.FlagCut != 0 {
			return
		}
		for _, s := range sqltrace.SplitStatements(e.SQL) {
			if isSchema(s) && len(out) < maxSchema {
				out = append(out, s)
			}
		}
	})
	return out, err
}

// eachExec calls fn with each statement of the trace that ran on the
// database at path (in window w, if not nil; kept by selection s, if
// not nil), and its stream.
func eachExec(open func() (io.ReadCloser, error), path string, w *workload.ReplayWindow, s *workload.ReplaySelect, fn func(uint64, *sqltrace.Exec)) error {
	f, err := open()
	if err != nil {
		return err
	}
	defer f.Close()
	tr := sqltrace.NewReader(f)
	tr.Filter(nil, false)
	on := newDBConns(path)
	sel := newWindowSel(w)
	cut, err := newSelReader(s, open, nil, newDBConns(path).note)
	if err != nil {
		return err
	}
	defer cut.Close()
	for tr.Next() {
		rec := tr.Record()
		if !on.note(rec) {
			continue
		}
		// both asked of every statement, in order
		if kept, where := cut.keep(rec.Stream, &rec.Exec), sel.where(rec.Stream, &rec.Exec); kept && where == 0 {
			fn(rec.Stream, &rec.Exec)
		}
	}
	return errors.Join(tr.Err(), cut.Err())
}

// remapCount counts, over a trace's statements, those remapped and
// shared, and finds the largest integer bound to a key.
type remapCount struct {
	tables            map[string]*remapTable
	plans             map[string]remapPlan
	remapped, shared0 int64
	shared            map[string]bool // fingerprints
	most              int64
}

func (c *remapCount) add(e *sqltrace.Exec) {
	p, ok := c.plans[e.SQL]
	if !ok {
		p = analyzeRemap(e.SQL, c.tables)
		if len(c.plans) < sqltrace.MaxTexts {
			c.plans[e.SQL] = p
		}
	}
	switch {
	case !p.touches:
		return
	case p.shared:
		c.shared0++
		if fp := sqltrace.Fingerprint(e.SQL); !c.shared[fp] && len(c.shared) < sqltrace.MaxTexts {
			c.shared[fp] = true
		}
		return
	}
	c.remapped++
	for _, k := range p.keys {
		if k-1 < len(e.Params) && e.Params[k-1].Type == sqltrace.ValueInt {
			v := e.Params[k-1].Int
			if v == math.MinInt64 {
				c.most = math.MaxInt64
				continue
			}
			c.most = max(c.most, v, -v)
		}
	}
}

// sharedKinds returns the ids of r's statement kinds among which are the
// shared fingerprints.
func sharedKinds(r *workload.Replay, shared map[string]bool) []string {
	ids := map[string]bool{}
	for fp := range shared {
		op := r.KindOf(fp)
		for _, k := range r.Kinds {
			if k.Op == op {
				ids[k.ID] = true
			}
		}
	}
	out := make([]string, 0, len(ids))
	for id := range ids {
		out = append(out, id)
	}
	sort.Strings(out)
	return out
}

// remapAt returns the remap of r's copies at scale (planRemap), nil at
// a scale of 1.
func remapAt(open func() (io.ReadCloser, error), r *workload.Replay, scale int) (*workload.ReplayRemap, error) {
	if scale <= 1 {
		return nil, nil
	}
	return planRemap(context.Background(), open, r, scale)
}

// refit returns m for scale copies: its reason updated when its keys do
// not fit them.
func refit(m *workload.ReplayRemap, scale int) *workload.ReplayRemap {
	if m == nil || m.Span == 0 || m.Fits(scale) {
		return m
	}
	out := *m
	out.Why = fmt.Sprintf("a range of %d keys each leaves no room for %d copies in 64 bits", m.Span, scale)
	return &out
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
