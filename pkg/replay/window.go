package replay

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"github.com/gobench/gobench/pkg/sqltrace"
	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/workload"
)

// A replay's window (workload.ReplayWindow) selects transactions, not
// statements: each statement belongs to the window its transaction's
// first statement began in, so that a transaction straddling an edge
// runs whole (it began inside) or not at all (it began before).

// txnClock follows one connection's statements and says when the
// transaction each belongs to began.
type txnClock struct {
	begin int64
	open  bool
}

// step returns when the transaction of e, the connection's next statement,
// began: e's own start if no transaction was open before it.
func (c *txnClock) step(e *sqltrace.Exec) int64 {
	if !c.open || e.Flags&sqltrace.FlagAutocommitBefore != 0 {
		c.begin = e.Start
	}
	c.open = e.Flags&sqltrace.FlagAutocommitAfter == 0
	return c.begin
}

// windowSel selects the statements of a window, connection by connection;
// a nil one selects every statement.
type windowSel struct {
	w     *workload.ReplayWindow
	clock map[[2]uint64]*txnClock // by (stream, connection)
}

func newWindowSel(w *workload.ReplayWindow) *windowSel {
	if w == nil {
		return nil
	}
	return &windowSel{w: w, clock: map[[2]uint64]*txnClock{}}
}

// where places statement e of stream's connection: -1 before the window,
// 0 in it, 1 after it. Statements must come in their connection's order.
func (s *windowSel) where(stream uint64, e *sqltrace.Exec) int {
	if s == nil {
		return 0
	}
	key := [2]uint64{stream, e.Conn}
	c := s.clock[key]
	if c == nil {
		c = &txnClock{}
		s.clock[key] = c
	}
	begin := c.step(e)
	switch {
	case s.w.Contains(begin):
		return 0
	case workload.Duration(begin-s.w.Origin) < s.w.From:
		return -1
	}
	return 1
}

// ParseWindow reads a --window value, FROM..TO, each a duration from the
// capture's start and either left out ("10s..", "..40s"); the origin is
// set by Build.
func ParseWindow(s string) (*workload.ReplayWindow, error) {
	from, to, ok := strings.Cut(s, "..")
	if !ok {
		return nil, fmt.Errorf("--window %q: want FROM..TO, durations from the capture's start such as 10s..40s (either may be left out)", s)
	}
	var w workload.ReplayWindow
	for _, end := range []struct {
		text string
		d    *workload.Duration
	}{{from, &w.From}, {to, &w.To}} {
		if end.text == "" {
			continue
		}
		d, err := parseOffset(end.text)
		if err != nil {
			return nil, fmt.Errorf("--window %q: %q is not a duration such as 10s or 1m30s", s, end.text)
		}
		*end.d = d
	}
	if to != "" && w.To <= w.From { // an end of 0 ("0s..0s", "..0") is given too, not left out
		return nil, fmt.Errorf("--window %q: the end must come after the start", s)
	}
	return &w, nil
}

// parseOffset reads a non-negative duration ("0" alone is one too).
func parseOffset(s string) (workload.Duration, error) {
	if s == "0" {
		return 0, nil
	}
	var d workload.Duration
	if err := d.UnmarshalJSON([]byte(`"` + s + `"`)); err != nil || d < 0 {
		return 0, fmt.Errorf("bad duration %q", s)
	}
	return d, nil
}

// maxSchema bounds the schema statements before a window that a replay
// keeps to run first.
const maxSchema = 10000

// schemaWords begin the statements that write the schema.
var schemaWords = []string{"create", "drop", "alter"}

// isSchema reports whether sql writes the schema.
func isSchema(sql string) bool {
	words := strings.Fields(strings.ToLower(prefix(strings.TrimSpace(sql), 20)))
	if len(words) == 0 {
		return false
	}
	for _, k := range schemaWords {
		if words[0] == k {
			return true
		}
	}
	return false
}

// schemaStmt is a schema statement before a replay's window.
type schemaStmt struct {
	start int64
	sql   string
}

// schemaBefore returns the statements that wrote the schema, and
// succeeded, in the transactions begun before r's window on its
// database, in the order they began: those of every connection, not
// only of the connections the window replays (a parent that created the
// tables and ended).
//
// Folded (workload.ReplayFold), it returns those of the transactions
// begun in the window too (or, without one, all): they all run before
// the slices start. Never those of temporary objects, which belong to
// the connection that made them (hoisted).
func schemaBefore(r *workload.Replay) ([]schemaStmt, error) {
	folded := r.TimeFold != nil
	on := newDBConns(r.Database)
	f, err := os.Open(r.Trace)
	if err != nil {
		return nil, fmt.Errorf("opening the trace: %w", err)
	}
	defer f.Close()
	tr := sqltrace.NewReader(f)
	tr.Filter(nil, false)
	sel := newWindowSel(r.Window)
	cut, err := newSelReader(r.Select, func() (io.ReadCloser, error) { return os.Open(r.Trace) }, nil, newDBConns(r.Database).note)
	if err != nil {
		return nil, err
	}
	defer cut.Close()
	conns := connTemps{}
	var out []schemaStmt
	what := schemaWhat(r)
	var own ownObjects
	if folded {
		own = ownObjectsOf(r.TimeFold.Own)
	}
	for tr.Next() {
		rec := tr.Record()
		if !on.note(rec) {
			continue
		}
		e := &rec.Exec
		kept := cut.keep(rec.Stream, e)
		where := sel.where(rec.Stream, e)
		if where > 0 || where == 0 && !folded && kept || e.Code != 0 || e.Flags&sqltrace.FlagCut != 0 {
			continue
		}
		temps := conns.of([2]uint64{rec.Stream, e.Conn})
		for _, s := range sqltrace.SplitStatements(e.SQL) {
			// a temporary object is its connection's own: the replay's connection cannot make it for the window's;
			// one the fold's statements drop, its slices' own
			if hoisted(s, temps) && !(where == 0 && own.of(s)) {
				if len(out) == maxSchema {
					return nil, fmt.Errorf("%s: more than %d statements: replay from the capture's start, unfolded", what, maxSchema)
				}
				out = append(out, schemaStmt{start: e.Start, sql: s})
			}
		}
	}
	if err := errors.Join(tr.Err(), cut.Err()); err != nil {
		return nil, fmt.Errorf("reading the trace: %w", err)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].start < out[j].start })
	return out, nil
}

// schemaWhat names the schema statements r runs first, for its errors:
// those before its window, or, folded or selected without one, those run
// before the rest.
func schemaWhat(r *workload.Replay) string {
	if r.Window != nil && r.Window.From > 0 {
		return "the schema before the window"
	}
	return "the schema run first"
}

// ApplySchema runs, on a connection of st, the schema statements of the
// transactions begun before r's window (schemaBefore), in the order they
// ran: the window's statements then find the tables and indexes they
// found when captured (not the rows the statements before the window
// wrote, which do not run). A replay without a window, or one from the
// capture's start, runs none; a folded one runs those of its slices too
// (schemaBefore).
func ApplySchema(ctx context.Context, st store.Store, r *workload.Replay) error {
	if r.TimeFold == nil && r.Select == nil && (r.Window == nil || r.Window.From == 0) {
		return nil
	}
	stmts, err := schemaBefore(r)
	if err != nil || len(stmts) == 0 {
		return err
	}
	c, err := st.Conn(ctx)
	if err != nil {
		return fmt.Errorf("%s: opening a connection: %w", schemaWhat(r), err)
	}
	defer c.Close()
	ex, ok := c.(store.Executor)
	if !ok {
		return fmt.Errorf("%w: the driver cannot run a trace's statements", store.ErrInvalid)
	}
	for _, s := range stmts {
		if _, err := ex.Execute(s.sql, nil, -1, false); err != nil {
			return fmt.Errorf("%s: %.80q: %w", schemaWhat(r), s.sql, err)
		}
	}
	return ctx.Err()
}
