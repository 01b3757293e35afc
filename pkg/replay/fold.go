package replay

import (
	"errors"
	"fmt"
	"io"

	"github.com/gobench/gobench/pkg/sqltrace"
	"github.com/gobench/gobench/pkg/workload"
)

// A folded replay (workload.ReplayFold, gobench replay --fold K) cuts
// the span of the statements replayed into K equal slices by time and
// starts every slice's connections together: each statement is due at
// its offset from its slice's start. As in a window, a transaction
// belongs to the slice its first statement began in and runs whole
// there; each slice's part of a captured connection is a replayed
// connection of its own. The statements that wrote the schema run once
// before the slices start (foldText), so that every slice finds the
// tables and indexes; no other statement runs twice.

// foldText is what a fold does with a statement's text: hoisted, every
// statement of it writes the schema and runs before the slices, not in
// its slice; else rest, if not nil, is what runs in its slice (the text
// held schema statements and others, as an sqlite3_exec's may). schema:
// the text writes the schema, so what the fold does with it depends on
// its connection's temporary objects (tempObjects), and is judged again
// each time.
type foldText struct {
	hoisted bool
	rest    []string
	schema  bool
}

// foldTexts learns what a fold does with each statement's text; own
// are the objects the capture drops (workload.ReplayFold.Own), whose
// schema statements run in their slices.
type foldTexts struct {
	seen map[string]foldText
	own  ownObjects
}

// newFoldTexts returns what fold f (nil: none yet) does with the texts.
func newFoldTexts(f *workload.ReplayFold) foldTexts {
	t := foldTexts{seen: map[string]foldText{}}
	if f != nil {
		t.own = ownObjectsOf(f.Own)
	}
	return t
}

// of returns what the fold does with statement e of a connection whose
// temporary objects are temps (which it notes): nothing for one that
// failed when captured or whose text the capture cut (it runs in its
// slice as any other).
func (m foldTexts) of(e *sqltrace.Exec, temps tempObjects) foldText {
	if e.Code != 0 || e.Flags&sqltrace.FlagCut != 0 {
		return foldText{}
	}
	if t, ok := m.seen[e.SQL]; ok && !t.schema {
		return t
	}
	var t foldText
	parts := sqltrace.SplitStatements(e.SQL)
	var rest []string
	for _, s := range parts {
		t.schema = t.schema || isSchema(s)
		if !hoisted(s, temps) || m.own.of(s) { // hoisted asked first: it notes temps
			rest = append(rest, s)
		}
	}
	switch {
	case len(parts) == 0:
	case len(rest) == 0:
		t.hoisted = true
	case len(rest) < len(parts):
		t.rest = rest
	}
	if len(m.seen) < sqltrace.MaxTexts {
		m.seen[e.SQL] = t
	}
	return t
}

// hoisted reports whether a fold runs statement s, of a connection
// whose temporary objects are temps (which it notes), once before its
// slices: it writes the schema, and not that of a temporary table, view,
// trigger or index (its connection's own, which must make it itself).
func hoisted(s string, temps tempObjects) bool {
	return isSchema(s) && !temps.owns(s)
}

// sliceOf returns the slice of r's fold that a transaction begun at
// begin (monotonic ns) belongs to: the last slice takes the span's end.
func sliceOf(r *workload.Replay, begin int64) int {
	f := r.TimeFold
	i := (begin - r.Start) / int64(f.Slice)
	return int(min(max(i, 0), int64(f.Slices-1)))
}

// sliceStart returns when slice i of r's fold starts (monotonic ns).
func sliceStart(r *workload.Replay, i int) int64 {
	return r.Start + int64(i)*int64(r.TimeFold.Slice)
}

// checkFold checks o's fold: off (0 or 1), or 2 to workload.MaxFold
// slices, in race order.
func checkFold(o Options) error {
	switch {
	case o.Fold < 0 || o.Fold > workload.MaxFold:
		return fmt.Errorf("--fold %d: want the time slices of the capture to replay at once, from 1 (off) to %d", o.Fold, workload.MaxFold)
	case o.Fold > 1 && o.Order == workload.ReplayCommit:
		return fmt.Errorf("--fold %d runs in race order: its slices start together, and a slice's transactions would wait for commits of the slices before it (give --order race)", o.Fold)
	}
	return nil
}

// foldReplay folds r (built, its workers placed) into o.Fold slices of
// the span of its statements: it counts each slice's connections and
// statements again from the trace (open) and places the slices'
// connections on workers, each slice of a captured process a process of
// its own, as a copy is (placeConns).
func foldReplay(open func() (io.ReadCloser, error), r *workload.Replay, o Options) error {
	k := int64(o.Fold)
	if r.Duration < k {
		return fmt.Errorf("--fold %d: the statements replayed span %v, too short to cut into %d slices", o.Fold, workload.Duration(r.Duration), o.Fold)
	}
	f := &workload.ReplayFold{Slices: o.Fold, Slice: workload.Duration(r.Duration / k), Statements: make([]int64, o.Fold)}
	var err error
	r.TimeFold = f
	if f.Own, err = droppedObjects(open, r); err != nil {
		return err
	}
	conns, err := foldTally(open, r)
	if err != nil {
		return err
	}
	if f.Runs() == 0 {
		return errors.New("--fold: every statement replayed writes the schema: nothing is left to fold")
	}
	if r.Duration > 0 {
		f.CapturedRate = float64(r.Statements) / (float64(r.Duration) / 1e9)
	}
	if r.Speed > 0 && f.Span > 0 {
		f.OfferedRate = float64(f.Runs()) / (float64(f.Span) / 1e9 / r.Speed)
	}
	r.Workers, r.Procs = placeConns(conns, o.Procs, max(o.Scale, 1))
	return nil
}

// foldTally reads the trace (open) for r's fold: each slice's statements
// and their span, the schema statements hoisted, and the statements of
// each slice's part of each connection, which it returns.
func foldTally(open func() (io.ReadCloser, error), r *workload.Replay) ([]workload.ReplayWorker, error) {
	rc, err := open()
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	tr := sqltrace.NewReader(rc)
	tr.Filter(nil, false)
	f := r.TimeFold
	on := newDBConns(r.Database)
	clocks := map[[2]uint64]*txnClock{}
	texts, temps := newFoldTexts(f), connTemps{}
	type part struct {
		stream, conn uint64
		slice        int
	}
	parts := map[part]int64{}
	cut, err := newSelReader(r.Select, open, nil, newDBConns(r.Database).note)
	if err != nil {
		return nil, err
	}
	defer cut.Close()
	for tr.Next() {
		rec := tr.Record()
		if !on.note(rec) {
			continue
		}
		e := &rec.Exec
		key := [2]uint64{rec.Stream, e.Conn}
		c := clocks[key]
		if c == nil {
			c = &txnClock{}
			clocks[key] = c
		}
		begin := c.step(e)
		if !cut.keep(rec.Stream, e) || r.Window != nil && !r.Window.Contains(begin) {
			continue
		}
		if texts.of(e, temps.of(key)).hoisted {
			f.Schema++
			continue
		}
		i := sliceOf(r, begin)
		f.Statements[i]++
		parts[part{rec.Stream, e.Conn, i}]++
		f.Span = max(f.Span, workload.Duration(e.Start-sliceStart(r, i)))
	}
	if err := errors.Join(tr.Err(), cut.Err()); err != nil {
		return nil, fmt.Errorf("reading the trace: %w", err)
	}
	conns := make([]workload.ReplayWorker, 0, len(parts))
	for p, n := range parts {
		conns = append(conns, workload.ReplayWorker{Stream: p.stream, Conn: p.conn, Slice: p.slice, Statements: n})
	}
	return conns, nil
}

// foldDealer is what a worker of a folded replay knows of its slice: its
// start, and what the fold does with each statement's text.
type foldDealer struct {
	start int64
	texts foldTexts
	temps tempObjects
	// dealt is what the fold does with the statement keep last kept:
	// learnt once (learning notes the connection's temporary objects, so
	// a second asking of a DROP of one would call it hoisted), and taken
	// out of its text by unfold.
	dealt foldText
}

// newFoldDealer returns the fold of worker w of r, nil when r is not
// folded.
func newFoldDealer(r *workload.Replay, w workload.ReplayWorker) *foldDealer {
	if r.TimeFold == nil || w.Stream == 0 {
		return nil
	}
	return &foldDealer{start: sliceStart(r, w.Slice), texts: newFoldTexts(r.TimeFold), temps: tempObjects{}}
}

// keep reports whether the dealer deals statement e, the connection's
// next: one of a transaction the replay's selection keeps
// (workload.ReplaySelect); in a window, one of a transaction begun in
// it; folded, one of a transaction begun in the worker's slice that does
// not run before the slices (foldText).
func (d *replayDealer) keep(e *sqltrace.Exec) bool {
	kept := d.sel.keep(d.w.Stream, e) // asked of every statement, in order
	if d.clock == nil {
		return kept
	}
	begin := d.clock.step(e)
	if !kept || d.r.Window != nil && !d.r.Window.Contains(begin) {
		return false
	}
	if d.fold == nil {
		return true
	}
	// Every statement of the connection, in every slice: a later slice's
	// DROP of a temporary table made in an earlier one is the connection's.
	d.fold.dealt = d.fold.texts.of(e, d.fold.temps)
	return !d.fold.dealt.hoisted && sliceOf(d.r, begin) == d.w.Slice
}

// origin returns when the dealer's statements' due times count from:
// the capture's first statement replayed, or the start of the worker's
// slice.
func (d *replayDealer) origin() int64 {
	if d.fold != nil {
		return d.fold.start
	}
	return d.r.Start
}

// unfold takes out of rd, the statement keep last kept, the statements
// of its text that ran before the slices (foldText).
func (d *replayDealer) unfold(rd *Statement) {
	if d.fold != nil && d.fold.dealt.rest != nil {
		rd.Stmts = d.fold.dealt.rest
	}
}

// foldBrief says what r's fold is, and the rate it offers against the
// capture's, for the plan's line.
func foldBrief(r *workload.Replay) string {
	f := r.TimeFold
	copies := float64(max(r.Scale, 1))
	offered := "as fast as each connection runs (--speed max: no pace)"
	if f.OfferedRate > 0 && r.Speed > 0 {
		offered = fmt.Sprintf("%.0f statements/s at %s", f.OfferedRate*copies, workload.SpeedName(r.Speed))
	}
	return fmt.Sprintf("%s; captured %.0f statements/s, offered %s", f, f.CapturedRate, offered)
}
