package replay

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gobench/gobench/pkg/deal"
	"github.com/gobench/gobench/pkg/sqltrace"
	"github.com/gobench/gobench/pkg/workload"
)

// foldPart is the statements a folded replay deals on one slice's part
// of one captured connection, and when each is due (ms from its slice's
// start, at speed 1).
type foldPart struct {
	conn  uint64
	slice int
	sqls  []string
	due   []float64
}

// A fold cuts the span of the statements replayed (windowStmts: 0 to
// 30.001 ms) into K equal slices and places each transaction in the
// slice its first statement began in, whole: connection 2's transaction
// from 8 to 22 ms runs in the first of two slices though its COMMIT came
// after the first slice's end. The schema statements run once first and
// in no slice; every other statement runs once, due at its offset from
// its slice's start.
func TestFoldSlices(t *testing.T) {
	b := windowTrace(windowStmts)
	traceFile := filepath.Join(t.TempDir(), "f.trace")
	if err := os.WriteFile(traceFile, b, 0o600); err != nil {
		t.Fatal(err)
	}
	sqls := func(s ...string) []string { return s }
	const (
		tx1  = "BEGIN|INSERT INTO t VALUES (1)|COMMIT"
		tx2  = "BEGIN|INSERT INTO t VALUES (2)|COMMIT"
		sel  = "SELECT * FROM t"
		cnt  = "SELECT count(*) FROM t"
		del  = "DELETE FROM t"
		half = 15.0005 // ms: 30.001 / 2
	)
	for _, tt := range []struct {
		name   string
		fold   int
		window *workload.ReplayWindow
		slices []int64 // each slice's statements
		schema int64   // schema statements run first, of the slices'
		parts  []foldPart
	}{
		{"two slices: a transaction straddling the edge runs whole in the first", 2, nil, []int64{6, 3}, 2, []foldPart{
			{1, 0, sqls(strings.Split(tx1, "|")...), []float64{5, 9, 15}},
			{2, 0, sqls(strings.Split(tx2, "|")...), []float64{8, 12, 22}},
			{1, 1, sqls(sel, cnt), []float64{16 - half, 30 - half}},
			{2, 1, sqls(del), []float64{25 - half}},
		}},
		{"four slices", 4, nil, []int64{3, 3, 1, 2}, 2, []foldPart{
			{1, 0, sqls(strings.Split(tx1, "|")...), []float64{5, 9, 15}},
			{2, 1, sqls(strings.Split(tx2, "|")...), []float64{8 - 7.50025, 12 - 7.50025, 22 - 7.50025}},
			{1, 2, sqls(sel), []float64{16 - 15.0005}},
			{1, 3, sqls(cnt), []float64{30 - 22.50075}},
			{2, 3, sqls(del), []float64{25 - 22.50075}},
		}},
		{"a window folded: its span cut, the schema before it run first", 2, &workload.ReplayWindow{From: workload.Duration(10 * time.Millisecond)}, []int64{1, 2}, 0, []foldPart{
			{1, 0, sqls(sel), []float64{0}},
			{1, 1, sqls(cnt), []float64{30 - 23.0005}},
			{2, 1, sqls(del), []float64{25 - 23.0005}},
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r, _, err := Build(opener(b), Options{Trace: traceFile, Order: workload.ReplayRace, Speed: 1, Fold: tt.fold, Window: tt.window})
			if err != nil {
				t.Fatal(err)
			}
			f := r.TimeFold
			if f == nil || f.Slices != tt.fold || !slices.Equal(f.Statements, tt.slices) || f.Schema != tt.schema {
				t.Fatalf("fold %+v, want %d slices of %v statements, %d schema", f, tt.fold, tt.slices, tt.schema)
			}
			if got := f.Runs() + f.Schema; got != r.Statements || r.Runs() != f.Runs() {
				t.Errorf("the slices and the schema run %d statements, of %d replayed (runs %d)", got, r.Statements, r.Runs())
			}
			if f.CapturedRate <= 0 || f.OfferedRate <= f.CapturedRate {
				t.Errorf("captured rate %v, offered %v: want a fold to offer more", f.CapturedRate, f.OfferedRate)
			}
			got := dealFold(t, r)
			if len(got) != len(tt.parts) {
				t.Fatalf("%d connections dealt %+v, want %d %+v", len(got), got, len(tt.parts), tt.parts)
			}
			for i, want := range tt.parts {
				g := got[i]
				if g.conn != want.conn || g.slice != want.slice || !slices.Equal(g.sqls, want.sqls) || len(g.due) != len(want.due) {
					t.Fatalf("connection %d: %+v, want %+v", i, g, want)
				}
				for j := range want.due {
					if d := g.due[j] - want.due[j]; d > 1e-6 || d < -1e-6 {
						t.Errorf("connection %d slice %d: statement %d due at %v ms, want %v", g.conn, g.slice, j, g.due[j], want.due[j])
					}
				}
			}
			stmts, err := schemaBefore(r)
			if err != nil {
				t.Fatal(err)
			}
			if len(stmts) != 2 || stmts[0].sql != "CREATE TABLE t (x)" || stmts[1].sql != "CREATE INDEX i ON t (x)" {
				t.Errorf("schema run first: %+v, want the table, then the index", stmts)
			}
		})
	}
}

// dealFold deals every statement of every worker of r, in the order of
// the workers (slice, then connection).
func dealFold(t *testing.T, r *workload.Replay) []foldPart {
	t.Helper()
	p := &workload.Plan{Replay: r}
	var out []foldPart
	for i, w := range r.Workers {
		if w.Stream == 0 {
			continue
		}
		d, err := (&Source{}).Dealer(p, 0, i, nil)
		if err != nil {
			t.Fatal(err)
		}
		part := foldPart{conn: w.Conn, slice: w.Slice}
		for range w.Statements {
			var dl deal.Deal
			if err := d.Deal(&dl); err != nil {
				t.Fatalf("connection %d slice %d: %v", w.Conn, w.Slice, err)
			}
			st := dl.Action.(*Statement)
			part.sqls = append(part.sqls, st.SQL)
			part.due = append(part.due, float64(st.Due)/1e6)
		}
		if err := d.(*replayDealer).Close(); err != nil {
			t.Fatal(err)
		}
		out = append(out, part)
	}
	slices.SortStableFunc(out, func(a, b foldPart) int {
		if a.slice != b.slice {
			return a.slice - b.slice
		}
		return int(a.conn) - int(b.conn)
	})
	return out
}

// What a fold does with a statement's text: a schema statement that
// succeeded runs first, not in its slice; one of a temporary object, one
// that failed or one the capture cut runs in its slice; a text of several
// runs its others in its slice.
func TestFoldText(t *testing.T) {
	for _, tt := range []struct {
		sql     string
		code    int
		flags   sqltrace.Flags
		hoisted bool
		rest    []string
	}{
		{"CREATE TABLE t (x)", 0, 0, true, nil},
		{"  drop index i", 0, 0, true, nil},
		{"ALTER TABLE t ADD y", 0, 0, true, nil},
		{"CREATE TEMP TABLE s (x)", 0, 0, false, nil},
		{"create temporary view v as select 1", 0, 0, false, nil},
		{"CREATE TABLE t (x)", 1, 0, false, nil},
		{"CREATE TABLE t (x)", 0, sqltrace.FlagCut, false, nil},
		{"INSERT INTO t VALUES (1)", 0, 0, false, nil},
		{"CREATE TABLE u (x); INSERT INTO u VALUES (1)", 0, 0, false, []string{"INSERT INTO u VALUES (1)"}},
		{"CREATE TABLE u (x); CREATE INDEX j ON u (x)", 0, 0, true, nil},
	} {
		got := newFoldTexts(nil).of(&sqltrace.Exec{SQL: tt.sql, Code: tt.code, Flags: tt.flags}, tempObjects{})
		if got.hoisted != tt.hoisted || len(got.rest) != len(tt.rest) || len(tt.rest) > 0 && strings.TrimSpace(got.rest[0]) != tt.rest[0] {
			t.Errorf("%q (code %d, flags %v): %+v, want hoisted %v, rest %q", tt.sql, tt.code, tt.flags, got, tt.hoisted, tt.rest)
		}
	}
}

// A fold of 1 is no fold; one of more slices than allowed and one in
// the order of commits are refused, each in one line.
func TestFoldRefused(t *testing.T) {
	b := windowTrace(windowStmts)
	r, _, err := Build(opener(b), Options{Trace: "/t.trace", Order: workload.ReplayRace, Fold: 1})
	if err != nil || r.TimeFold != nil {
		t.Fatalf("fold 1: %v, fold %+v: want none", err, r.TimeFold)
	}
	for _, tt := range []struct {
		o    Options
		want string
	}{
		{Options{Order: workload.ReplayRace, Fold: workload.MaxFold + 1}, "want the time slices of the capture to replay at once, from 1 (off) to"},
		{Options{Order: workload.ReplayRace, Fold: -1}, "--fold -1"},
		{Options{Order: workload.ReplayCommit, Fold: 2}, "--fold 2 runs in race order"},
	} {
		tt.o.Trace = "/t.trace"
		_, _, err := Build(opener(b), tt.o)
		if err == nil || !strings.Contains(err.Error(), tt.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%+v: %v, want one line with %q", tt.o, err, tt.want)
		}
	}
	// Scaled, a fold's workers are copied: each slice's part of a
	// connection once per copy.
	r, _, err = Build(opener(b), Options{Trace: "/t.trace", Order: workload.ReplayRace, Fold: 2, Scale: 3})
	if err != nil {
		t.Fatal(err)
	}
	if r.Runs() != 3*9 || workersOf(r) != 3*4 {
		t.Errorf("fold 2 at scale 3: %d runs on %d connections, want %d on %d", r.Runs(), workersOf(r), 3*9, 3*4)
	}
}

// workersOf counts r's workers that replay a connection.
func workersOf(r *workload.Replay) int {
	n := 0
	for _, w := range r.Workers {
		if w.Stream != 0 {
			n++
		}
	}
	return n
}

// A connection's temporary objects are its own: a fold or a window runs
// none of their schema statements first, on the replay's connection,
// where they do not exist (a DROP of one failed the whole replay), and
// deals them in their slice; another connection's DROP of the same name
// is of a table of the database.
func TestFoldTempObjects(t *testing.T) {
	mine := tempObjects{}
	for _, tt := range []struct {
		sql     string
		hoisted bool
	}{
		{"CREATE TABLE t (x)", true},
		{"CREATE TEMP TABLE s (x)", false},
		{"CREATE INDEX si ON s (x)", false},
		{"create unique index if not exists sj on \"s\"(x)", false},
		{"DROP INDEX si", false},
		{"DROP TABLE s", false},
		{"DROP TABLE s", true}, // dropped: another s is the database's
		{"CREATE TABLE temp.u (x)", false},
		{"CREATE TRIGGER tr AFTER INSERT ON u BEGIN SELECT 1; END", false},
		{"DROP TRIGGER tr", false},
		{"DROP TABLE IF EXISTS \"u\"", false},
		{"CREATE INDEX ti ON t (x)", true},
		{"DROP TABLE t", true},
		{"CREATE TEMP TABLE s2 (x);", false},
		{"DROP TABLE s2;", false}, // split from "DROP TABLE s2; SELECT 1"
	} {
		if got := newFoldTexts(nil).of(&sqltrace.Exec{SQL: tt.sql}, mine).hoisted; got != tt.hoisted {
			t.Errorf("%q: hoisted %v, want %v", tt.sql, got, tt.hoisted)
		}
	}

	b := windowTrace([]windowStmt{
		{1, 0, "CREATE TABLE t (x)", true, true},
		{1, 1, "CREATE TEMP TABLE s (x)", true, true},
		{1, 2, "INSERT INTO s VALUES (1)", true, true},
		{1, 3, "DROP TABLE s", true, true},
		{2, 4, "CREATE TABLE s (y)", true, true},
		{2, 5, "INSERT INTO t VALUES (1)", true, true},
		{2, 20, "DROP TABLE s", true, true},
	})
	r := buildOnFile(t, b, Options{Order: workload.ReplayRace, Fold: 2})
	stmts, err := schemaBefore(r)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range stmts {
		got = append(got, s.sql)
	}
	want := []string{"CREATE TABLE t (x)"} // connection 2's s the capture drops: the slices' own (TestFoldOwnObjects)
	if !slices.Equal(got, want) || r.TimeFold.Schema != 1 {
		t.Errorf("run first: %q (%d counted), want %q", got, r.TimeFold.Schema, want)
	}
	var dealt []string
	for _, p := range dealFold(t, r) {
		dealt = append(dealt, p.sqls...)
	}
	if !slices.Contains(dealt, "DROP TABLE s") || !slices.Contains(dealt, "CREATE TEMP TABLE s (x)") {
		t.Errorf("dealt %q: want connection 1's temporary table made and dropped in its slice", dealt)
	}
}

// Folded, the schema statements run once before the slices, in no copy:
// the remap's count of statements shared across copies (the report's
// keys: line, "they ran unchanged" in every copy) leaves them out.
func TestFoldRemapSharedLeavesSchemaOut(t *testing.T) {
	b := windowTrace([]windowStmt{
		{1, 0, "CREATE TABLE t (id INTEGER PRIMARY KEY, v)", true, true},
		{1, 5, "INSERT INTO t VALUES (1, 'a')", true, true},
		{2, 15, "INSERT INTO t VALUES (2, 'b')", true, true},
	})
	for _, tt := range []struct {
		fold   int
		shared int64
	}{{1, 3}, {2, 2}} {
		r := buildOnFile(t, b, Options{Order: workload.ReplayRace, Fold: tt.fold, Scale: 2})
		if r.Remap == nil || r.Remap.Shared != tt.shared {
			t.Errorf("fold %d: remap %+v, want %d statements shared", tt.fold, r.Remap, tt.shared)
		}
	}
}

// A table the capture makes and drops is the slices' own: its CREATE and
// DROP run in their slice, as captured, not first (where the DROP came
// before every statement on it); as do the CREATE and DROP of an index
// on it, and the DROP of a table the capture did not make. Each slice's
// part, run on a database with the schema run first, fails none.
func TestFoldOwnObjects(t *testing.T) {
	b := windowTrace([]windowStmt{
		{1, 0, "CREATE TABLE t (x)", true, true},
		{1, 1, "INSERT INTO t VALUES (1)", true, true},
		{2, 16, "CREATE TABLE tmp_report (x)", true, true},
		{2, 17, "CREATE INDEX ri ON tmp_report (x)", true, true},
		{2, 18, "INSERT INTO tmp_report SELECT x FROM t", true, true},
		{2, 19, "SELECT count(*) FROM tmp_report", true, true},
		{2, 20, "DROP TABLE tmp_report", true, true},
		{1, 30, "SELECT count(*) FROM t", true, true},
	})
	r := buildOnFile(t, b, Options{Order: workload.ReplayRace, Fold: 2})
	stmts, err := schemaBefore(r)
	if err != nil {
		t.Fatal(err)
	}
	if len(stmts) != 1 || stmts[0].sql != "CREATE TABLE t (x)" || r.TimeFold.Schema != 1 || !slices.Equal(r.TimeFold.Own, []string{"tmp_report"}) {
		t.Errorf("run first %+v (%d counted), own %q: want only t's CREATE, tmp_report the slices'", stmts, r.TimeFold.Schema, r.TimeFold.Own)
	}
	st := emptyStore(t)
	if err := ApplySchema(context.Background(), st, r); err != nil {
		t.Fatal(err)
	}
	p := &workload.Plan{Replay: r}
	for i, w := range r.Workers {
		if w.Stream != 0 {
			runPart(t, st, p, i)
		}
	}
}

// A text that drops one of the connection's temporary tables and does
// more is dealt whole in its slice: what the fold does with it is learnt
// once (learning notes the drop), not asked again when the statement is
// filled, where the table no longer counted as the connection's and the
// DROP was taken out as run before the slices.
func TestFoldDealsATemporaryDropOnce(t *testing.T) {
	b := windowTrace([]windowStmt{
		{1, 0, "CREATE TABLE t (x)", true, true},
		{1, 1, "CREATE TEMP TABLE s (x)", true, true},
		{1, 2, "SELECT 1; DROP TABLE s", true, true},
		{1, 20, "INSERT INTO t VALUES (1)", true, true},
	})
	r := buildOnFile(t, b, Options{Order: workload.ReplayRace, Fold: 2})
	p := &workload.Plan{Replay: r}
	found := false
	for i, w := range r.Workers {
		if w.Stream == 0 {
			continue
		}
		d, err := (&Source{}).Dealer(p, 0, i, nil)
		if err != nil {
			t.Fatal(err)
		}
		for range w.Statements {
			var dl deal.Deal
			if err := d.Deal(&dl); err != nil {
				t.Fatal(err)
			}
			if st := dl.Action.(*Statement); strings.HasSuffix(st.SQL, "DROP TABLE s") {
				found = true
				if st.Stmts != nil && !slices.ContainsFunc(st.Stmts, func(s string) bool { return strings.HasPrefix(s, "DROP TABLE s") }) {
					t.Errorf("dealt %q as %q: the temporary table's DROP taken out", st.SQL, st.Stmts)
				}
			}
		}
		if err := d.(*replayDealer).Close(); err != nil {
			t.Fatal(err)
		}
	}
	if !found {
		t.Fatal("the DROP's text was not dealt")
	}
}
