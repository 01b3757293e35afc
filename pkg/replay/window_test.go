package replay

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gobench/gobench/pkg/sqltrace"
	"github.com/gobench/gobench/pkg/workload"
)

// windowStmt is a captured statement of a window test: its connection,
// when it began (ms from the capture's start), whether a transaction was
// open before and after it.
type windowStmt struct {
	conn          uint64
	ms            int64
	sql           string
	before, after bool // autocommit before, after
}

// windowTrace writes a trace of one process whose connections ran stmts
// on /a.db, each connection's in their order, and returns its bytes.
func windowTrace(stmts []windowStmt) []byte {
	sel := make([]selStmt, len(stmts))
	for i, st := range stmts {
		sel[i].windowStmt = st
	}
	return selTraceBytes(sel)
}

// opener opens a trace's bytes.
func opener(b []byte) func() (io.ReadCloser, error) {
	return func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(b)), nil }
}

// windowStmts are a capture of three connections. Connection 1: the
// schema at 0, then a transaction from 5 to 15 and autocommit reads at 16
// and 30. Connection 2: a transaction from 8 to 22, an autocommit write at
// 25. Connection 3 (a setup that ended): an index at 1.
var windowStmts = []windowStmt{
	{1, 0, "CREATE TABLE t (x)", true, true},
	{1, 5, "BEGIN", true, false},
	{1, 9, "INSERT INTO t VALUES (1)", false, false},
	{1, 15, "COMMIT", false, true},
	{1, 16, "SELECT * FROM t", true, true},
	{1, 30, "SELECT count(*) FROM t", true, true},
	{2, 8, "BEGIN", true, false},
	{2, 12, "INSERT INTO t VALUES (2)", false, false},
	{2, 22, "COMMIT", false, true},
	{2, 25, "DELETE FROM t", true, true},
	{3, 1, "CREATE INDEX i ON t (x)", true, true},
}

// A window replays the transactions whose first statement began in it,
// whole: one straddling its end runs (every statement, those after the
// end too), one straddling its start does not (not even its statements
// inside). The statements before and after are counted, and the schema
// statements before it.
func TestWindowSelection(t *testing.T) {
	b := windowTrace(windowStmts)
	trace := opener(b)
	traceFile := filepath.Join(t.TempDir(), "w.trace")
	if err := os.WriteFile(traceFile, b, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name                         string
		from, to                     time.Duration
		replayed                     [3]int64 // connection 1's, 2's, 3's statements replayed
		before, after, schema, conns int64
		refused                      string
	}{
		{"the whole capture", 0, 0, [3]int64{6, 4, 1}, 0, 0, 0, 3, ""},
		{"a start inside transactions: both excluded whole", 10 * time.Millisecond, 0, [3]int64{2, 1, 0}, 8, 0, 2, 2, ""},
		{"an end inside transactions: both included whole", 0, 10 * time.Millisecond, [3]int64{4, 3, 1}, 0, 3, 0, 3, ""},
		{"a window inside both transactions", 9 * time.Millisecond, 14 * time.Millisecond, [3]int64{}, 0, 0, 0, 0, "no transaction of the 11 statements on /a.db began in it"},
		{"from the first transaction's start to the second's", 5 * time.Millisecond, 8 * time.Millisecond, [3]int64{3, 0, 0}, 2, 6, 2, 1, ""},
		{"the end only", 20 * time.Millisecond, 0, [3]int64{1, 1, 0}, 9, 0, 2, 2, ""},
		{"after the capture", time.Hour, 0, [3]int64{}, 0, 0, 0, 0, "no transaction"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			w := &workload.ReplayWindow{From: workload.Duration(tt.from), To: workload.Duration(tt.to)}
			r, _, err := Build(trace, Options{Trace: "/t.trace", Order: workload.ReplayRace, Window: w})
			if tt.refused != "" {
				if err == nil || !strings.Contains(err.Error(), tt.refused) {
					t.Fatalf("Build: %v, want %q", err, tt.refused)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var per [3]int64
			var conns int64
			for _, w := range r.Workers {
				if w.Stream != 0 {
					per[w.Conn-1] += w.Statements
					conns++
				}
			}
			if per != tt.replayed || r.Statements != per[0]+per[1]+per[2] || conns != tt.conns {
				t.Errorf("replays %v (%d in all, %d connections), want %v on %d", per, r.Statements, conns, tt.replayed, tt.conns)
			}
			got := r.Window
			if got.Before != tt.before || got.After != tt.after || got.Schema != tt.schema || got.Origin != 1e9 {
				t.Errorf("window %+v, want %d before (%d schema), %d after, origin 1e9", *got, tt.before, tt.schema, tt.after)
			}
			// The schema statements that run first are those counted,
			// of every connection (3 replays nothing after 10ms), in the
			// order they began.
			r.Trace = traceFile
			stmts, err := schemaBefore(r)
			if err != nil {
				t.Fatal(err)
			}
			if int64(len(stmts)) != tt.schema || tt.schema > 0 && (stmts[0].sql != "CREATE TABLE t (x)" || stmts[1].sql != "CREATE INDEX i ON t (x)") {
				t.Errorf("schema before the window: %+v, want %d statements, the table first", stmts, tt.schema)
			}
		})
	}
}

// The statements of a window's selection are the ones its dealer deals
// (the same rule, connection by connection): a transaction's statements
// follow its first, whenever each began.
func TestTxnClock(t *testing.T) {
	const (
		b = sqltrace.FlagAutocommitBefore
		a = sqltrace.FlagAutocommitAfter
	)
	var c txnClock
	for i, tt := range []struct {
		start int64
		flags sqltrace.Flags
		want  int64
	}{
		{10, b | a, 10}, // autocommit
		{20, b, 20},     // BEGIN
		{30, 0, 20},     // inside
		{40, a, 20},     // COMMIT
		{50, 0, 50},     // no flag after a commit: a new transaction all the same
		{60, b | a, 60}, // autocommit again, whatever came before
	} {
		if got := c.step(&sqltrace.Exec{Start: tt.start, Flags: tt.flags}); got != tt.want {
			t.Errorf("statement %d at %d: its transaction began at %d, want %d", i, tt.start, got, tt.want)
		}
	}
}

func TestParseWindow(t *testing.T) {
	for _, tt := range []struct {
		in       string
		from, to time.Duration
		err      string
	}{
		{"10s..40s", 10 * time.Second, 40 * time.Second, ""},
		{"10s..", 10 * time.Second, 0, ""},
		{"..1m30s", 0, 90 * time.Second, ""},
		{"0..5ms", 0, 5 * time.Millisecond, ""},
		{"..", 0, 0, ""},
		{"40s..10s", 0, 0, "the end must come after the start"},
		{"0s..0s", 0, 0, "the end must come after the start"},
		{"..0", 0, 0, "the end must come after the start"},
		{"1s..1s", 0, 0, "the end must come after the start"},
		{"10s", 0, 0, "want FROM..TO"},
		{"ten..", 0, 0, `"ten" is not a duration`},
		{"-1s..", 0, 0, `"-1s" is not a duration`},
	} {
		w, err := ParseWindow(tt.in)
		switch {
		case tt.err != "":
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("ParseWindow(%q): %v, want %q", tt.in, err, tt.err)
			}
		case err != nil:
			t.Errorf("ParseWindow(%q): %v", tt.in, err)
		case time.Duration(w.From) != tt.from || time.Duration(w.To) != tt.to:
			t.Errorf("ParseWindow(%q) = %v..%v, want %v..%v", tt.in, w.From, w.To, tt.from, tt.to)
		}
	}
}

// A scaled replay runs N copies of every captured connection, each
// copy of a process a worker process of its own (or folded), each
// connection's statements once per copy; the order of commits refuses it.
func TestScaleWorkers(t *testing.T) {
	var buf bytes.Buffer
	w := snapshotTrace(&buf)
	for stream := uint64(1); stream <= 2; stream++ {
		s := w.Stream(stream)
		s.Write(&sqltrace.Record{Kind: sqltrace.KindDB, DB: sqltrace.DB{ID: 1, Path: "/a.db"}})
		for conn := uint64(1); conn <= stream; conn++ { // process 1: one connection, 2: two
			s.Write(&sqltrace.Record{Kind: sqltrace.KindOpen, Open: sqltrace.Open{Conn: conn, DB: 1}})
			for i := range int(conn) + 2 {
				s.Write(&sqltrace.Record{Kind: sqltrace.KindExec, Exec: sqltrace.Exec{Conn: conn, SQL: "SELECT 1", Start: int64(i)}})
			}
		}
	}
	w.Close()
	open := func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(buf.Bytes())), nil }
	for _, tt := range []struct {
		scale, procs, wantProcs int
	}{{1, 0, 2}, {2, 0, 4}, {3, 0, 6}, {4, 3, 3}} {
		r, _, err := Build(open, Options{Trace: "/t.trace", Order: workload.ReplayRace, Scale: tt.scale, Procs: tt.procs})
		if err != nil {
			t.Fatal(err)
		}
		copies := map[[3]uint64]int64{}
		var conns int
		for _, w := range r.Workers {
			if w.Stream != 0 {
				copies[[3]uint64{w.Stream, w.Conn, uint64(w.Copy)}] += w.Statements
				conns++
			}
		}
		if conns != 3*tt.scale || len(copies) != 3*tt.scale || r.Procs != tt.wantProcs {
			t.Errorf("scale %d: %d connections (%d distinct) on %d processes, want %d on %d", tt.scale, conns, len(copies), r.Procs, 3*tt.scale, tt.wantProcs)
		}
		for k := range tt.scale {
			if copies[[3]uint64{1, 1, uint64(k)}] != 3 || copies[[3]uint64{2, 2, uint64(k)}] != 4 {
				t.Errorf("scale %d: copy %d deals %v", tt.scale, k, copies)
			}
		}
		if r.Statements != 10 || r.Runs() != int64(10*tt.scale) {
			t.Errorf("scale %d: %d statements, %d runs, want 10 and %d", tt.scale, r.Statements, r.Runs(), 10*tt.scale)
		}
		// Rescaled from scale 1 (a step of --find-scale), the same
		// placement, without reading the trace.
		one, _, err := Build(open, Options{Trace: "/t.trace", Order: workload.ReplayRace, Procs: tt.procs})
		if err != nil {
			t.Fatal(err)
		}
		re, err := Rescale(one, tt.scale)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(re.Workers, r.Workers) || re.Procs != r.Procs || re.Scale != r.Scale {
			t.Errorf("scale %d rescaled: %+v on %d, built: %+v on %d", tt.scale, re.Workers, re.Procs, r.Workers, r.Procs)
		}
	}
	_, _, err := Build(open, Options{Trace: "/t.trace", Order: workload.ReplayCommit, Scale: 2})
	if err == nil || !strings.Contains(err.Error(), "--scale 2 runs in race order") {
		t.Errorf("scale in the order of commits: %v", err)
	}
}

// A temporary table belongs to the connection that created it: one
// created before a window is not run first on the replay's own
// connection (where the window's connections could not see it, and
// where two connections' CREATE TEMP TABLE of one name failed the whole
// replay), nor counted among the schema statements run first.
func TestWindowSchemaSkipsTemporary(t *testing.T) {
	b := windowTrace([]windowStmt{
		{1, 0, "CREATE TABLE t (x)", true, true},
		{1, 1, "CREATE TEMP TABLE s (x)", true, true},
		{2, 2, "create temporary table s (x)", true, true},
		{2, 3, "CREATE TEMP VIEW v AS SELECT 1", true, true},
		{1, 20, "INSERT INTO t VALUES (1)", true, true},
		{2, 21, "INSERT INTO s VALUES (1)", true, true},
	})
	w := &workload.ReplayWindow{From: workload.Duration(10 * time.Millisecond)}
	r := buildOnFile(t, b, Options{Order: workload.ReplayRace, Window: w})
	stmts, err := schemaBefore(r)
	if err != nil {
		t.Fatal(err)
	}
	if len(stmts) != 1 || stmts[0].sql != "CREATE TABLE t (x)" || r.Window.Schema != 1 {
		t.Errorf("run first: %+v, counted %d; want the table t alone", stmts, r.Window.Schema)
	}
}

// buildOnFile builds the replay of trace b, written to a file of its own
// (which schemaBefore reads), with o.
func buildOnFile(t *testing.T, b []byte, o Options) *workload.Replay {
	t.Helper()
	o.Trace = filepath.Join(t.TempDir(), "t.trace")
	if err := os.WriteFile(o.Trace, b, 0o600); err != nil {
		t.Fatal(err)
	}
	r, _, err := Build(opener(b), o)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// A schema statement run first that fails names what it was part of:
// the schema before a window from a later start, or, folded without
// one, the schema run first (there is no window).
func TestApplySchemaFailureNamed(t *testing.T) {
	b := windowTrace([]windowStmt{
		{1, 0, "CREATE TABLE t (x)", true, true},
		{1, 5, "INSERT INTO t VALUES (1)", true, true},
		{1, 20, "SELECT * FROM t", true, true},
	})
	for _, tt := range []struct {
		o    Options
		want string
	}{
		{Options{Fold: 2}, "the schema run first: "},
		{Options{Window: &workload.ReplayWindow{From: workload.Duration(10 * time.Millisecond)}}, "the schema before the window: "},
	} {
		tt.o.Order = workload.ReplayRace
		r := buildOnFile(t, b, tt.o)
		st := emptyStore(t)
		var err error
		for range 2 { // the second finds t made
			err = ApplySchema(context.Background(), st, r)
		}
		if err == nil || !strings.HasPrefix(err.Error(), tt.want) || !strings.Contains(err.Error(), "already exists") {
			t.Errorf("%+v: %v, want %q and the table's error", tt.o, err, tt.want)
		}
	}
}
