package replay

import (
	"bytes"
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

// selStmt is a captured statement of a selection test: a window test's
// (windowStmt), and what the trace recorded of its writes.
type selStmt struct {
	windowStmt
	changes bool // FlagChanges (an INSERT, UPDATE or DELETE), even of no row
	commit  bool // its commit made a state of the database
}

// selTrace writes a trace of one process whose connections ran stmts on
// /a.db (selTraceBytes), and returns its path.
func selTrace(t *testing.T, stmts []selStmt) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "s.trace")
	if err := os.WriteFile(path, selTraceBytes(stmts), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// selTraceBytes writes a trace of one process whose connections ran
// stmts on /a.db, each connection's in their order, and returns its
// bytes.
func selTraceBytes(stmts []selStmt) []byte {
	var buf bytes.Buffer
	w := snapshotTrace(&buf)
	s := w.Stream(1)
	s.Write(&sqltrace.Record{Kind: sqltrace.KindDB, DB: sqltrace.DB{ID: 1, Path: "/a.db"}})
	opened := map[uint64]bool{}
	for i, st := range stmts {
		if !opened[st.conn] {
			opened[st.conn] = true
			s.Write(&sqltrace.Record{Kind: sqltrace.KindOpen, Open: sqltrace.Open{Conn: st.conn, DB: 1}})
		}
		const origin = 1e9 // the capture's clock does not start at 0
		e := sqltrace.Exec{Conn: st.conn, SQL: st.sql, Start: origin + st.ms*int64(time.Millisecond), Span: 1000}
		for _, f := range []struct {
			on   bool
			flag sqltrace.Flags
		}{{st.before, sqltrace.FlagAutocommitBefore}, {st.after, sqltrace.FlagAutocommitAfter}, {st.changes, sqltrace.FlagChanges}} {
			if f.on {
				e.Flags |= f.flag
			}
		}
		if st.commit {
			e.Commit = sqltrace.State{Kind: sqltrace.StateFile, Value: uint64(i + 2)}
		}
		s.Write(&sqltrace.Record{Kind: sqltrace.KindExec, Exec: e})
	}
	w.Close()
	return buf.Bytes()
}

// selStmts: connection 1 runs a transaction of reads (5 to 7), one that
// runs an UPDATE that changed no row (10 to 13) and an autocommit read
// (20); connection 2 a transaction of reads whose commit made a state
// (a function wrote: 8 to 14) and an autocommit read (25); connection 3
// the index (1), after connection 1's table (0).
var selStmts = []selStmt{
	{windowStmt{1, 0, "CREATE TABLE t (x)", true, true}, false, true},
	{windowStmt{1, 5, "BEGIN", true, false}, false, false},
	{windowStmt{1, 6, "SELECT * FROM t", false, false}, false, false},
	{windowStmt{1, 7, "COMMIT", false, true}, false, false},
	{windowStmt{1, 10, "BEGIN", true, false}, false, false},
	{windowStmt{1, 11, "SELECT x FROM t WHERE x = 5", false, false}, false, false},
	{windowStmt{1, 12, "UPDATE t SET x = 2 WHERE x = 5", false, false}, true, false},
	{windowStmt{1, 13, "COMMIT", false, true}, false, false},
	{windowStmt{1, 20, "SELECT count(*) FROM t", true, true}, false, false},
	{windowStmt{2, 8, "BEGIN", true, false}, false, false},
	{windowStmt{2, 9, "SELECT x FROM t", false, false}, false, false},
	{windowStmt{2, 14, "SELECT bump()", false, false}, false, false},
	{windowStmt{2, 15, "COMMIT", false, true}, false, true},
	{windowStmt{2, 25, "SELECT max(x) FROM t", true, true}, false, false},
	{windowStmt{3, 1, "CREATE INDEX i ON t (x)", true, true}, false, true},
}

// A selection keeps or cuts whole transactions: --read-only those that
// wrote nothing by the trace's record (no change, no commit made, no
// writing verb), --filter those with a statement of a fingerprint (by id
// or the start of its text), or without one (-FP). The schema statements
// of the transactions cut run first; a window cuts first. Every
// connection's dealer deals what the tally counted.
func TestSelect(t *testing.T) {
	path := selTrace(t, selStmts)
	open := func() (io.ReadCloser, error) { return os.Open(path) }
	count := sqltrace.FingerprintID(sqltrace.Fingerprint("SELECT count(*) FROM t"))
	for _, tt := range []struct {
		name     string
		sel      workload.ReplaySelect
		window   *workload.ReplayWindow
		fold     int
		replayed [3][]string // by connection
		of, txns int64
		schema   []string // run first
		refused  string
	}{
		{name: "read-only", sel: workload.ReplaySelect{ReadOnly: true},
			replayed: [3][]string{{"BEGIN", "SELECT * FROM t", "COMMIT", "SELECT count(*) FROM t"}, {"SELECT max(x) FROM t"}},
			of:       15, txns: 3, schema: []string{"CREATE TABLE t (x)", "CREATE INDEX i ON t (x)"}},
		{name: "a fingerprint by id", sel: workload.ReplaySelect{Include: []string{count}},
			replayed: [3][]string{{"SELECT count(*) FROM t"}},
			of:       15, txns: 1, schema: []string{"CREATE TABLE t (x)", "CREATE INDEX i ON t (x)"}},
		{name: "a fingerprint by its text's start: whole transactions", sel: workload.ReplaySelect{Include: []string{"select x from t"}},
			replayed: [3][]string{{"BEGIN", "SELECT x FROM t WHERE x = 5", "UPDATE t SET x = 2 WHERE x = 5", "COMMIT"}, {"BEGIN", "SELECT x FROM t", "SELECT bump()", "COMMIT"}},
			of:       15, txns: 2, schema: []string{"CREATE TABLE t (x)", "CREATE INDEX i ON t (x)"}},
		{name: "a fingerprint excluded: the schema runs in place", sel: workload.ReplaySelect{Exclude: []string{"update"}},
			replayed: [3][]string{{"CREATE TABLE t (x)", "BEGIN", "SELECT * FROM t", "COMMIT", "SELECT count(*) FROM t"}, {"BEGIN", "SELECT x FROM t", "SELECT bump()", "COMMIT", "SELECT max(x) FROM t"}, {"CREATE INDEX i ON t (x)"}},
			of:       15, txns: 6},
		{name: "read-only and an exclusion", sel: workload.ReplaySelect{ReadOnly: true, Exclude: []string{"select max"}},
			replayed: [3][]string{{"BEGIN", "SELECT * FROM t", "COMMIT", "SELECT count(*) FROM t"}},
			of:       15, txns: 2, schema: []string{"CREATE TABLE t (x)", "CREATE INDEX i ON t (x)"}},
		{name: "read-only in a window", sel: workload.ReplaySelect{ReadOnly: true}, window: &workload.ReplayWindow{From: workload.Duration(6 * time.Millisecond)},
			replayed: [3][]string{{"SELECT count(*) FROM t"}, {"SELECT max(x) FROM t"}},
			of:       10, txns: 2, schema: []string{"CREATE TABLE t (x)", "CREATE INDEX i ON t (x)"}},
		{name: "read-only folded: each slice's part of what is kept", sel: workload.ReplaySelect{ReadOnly: true}, fold: 2,
			replayed: [3][]string{{"BEGIN", "SELECT * FROM t", "COMMIT", "SELECT count(*) FROM t"}, {"SELECT max(x) FROM t"}},
			of:       15, txns: 3, schema: []string{"CREATE TABLE t (x)", "CREATE INDEX i ON t (x)"}},
		{name: "an unknown fingerprint", sel: workload.ReplaySelect{Include: []string{"qdeadbeef"}}, refused: `"qdeadbeef" matches no statement's fingerprint`},
		{name: "nothing kept", sel: workload.ReplaySelect{ReadOnly: true, Include: []string{"update"}}, refused: "--read-only --filter update: no transaction of the 15 statements"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			sel := tt.sel
			r, _, err := Build(open, Options{Trace: path, Order: workload.ReplayRace, Select: &sel, Window: tt.window, Fold: tt.fold})
			if tt.refused != "" {
				if err == nil || !strings.Contains(err.Error(), tt.refused) {
					t.Fatalf("Build: %v, want %q", err, tt.refused)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var got [3][]string
			var n int
			dealtIn := map[int]bool{}
			for _, p := range dealFold(t, r) {
				got[p.conn-1] = append(got[p.conn-1], p.sqls...)
				n += len(p.sqls)
				dealtIn[p.slice] = true
			}
			if tt.fold > 1 && (r.TimeFold == nil || len(dealtIn) != tt.fold) {
				t.Errorf("folded in %d slices, dealt in %d", tt.fold, len(dealtIn))
			}
			for i := range got {
				if !slices.Equal(got[i], tt.replayed[i]) {
					t.Errorf("connection %d deals %q, want %q", i+1, got[i], tt.replayed[i])
				}
			}
			if s := r.Select; r.Statements != int64(n) || s.Of != tt.of || s.Transactions != tt.txns {
				t.Errorf("%d statements (%d dealt) of %d, %d transactions; want %d of %d, %d", r.Statements, n, s.Of, s.Transactions, n, tt.of, tt.txns)
			}
			stmts, err := schemaBefore(r)
			if err != nil {
				t.Fatal(err)
			}
			var schema []string
			for _, s := range stmts {
				schema = append(schema, s.sql)
			}
			if !slices.Equal(schema, tt.schema) {
				t.Errorf("schema run first: %q, want %q", schema, tt.schema)
			}
			if judged, _ := r.Judged(); judged {
				t.Error("a selection's divergence is judged")
			}
		})
	}
}

func TestParseFilter(t *testing.T) {
	for _, tt := range []struct {
		in               string
		include, exclude []string
		err              string
	}{
		{"q9c0651b9", []string{"q9c0651b9"}, nil, ""},
		{"q9c0651b9,-Q1A2B3C4D", []string{"q9c0651b9"}, []string{"q1a2b3c4d"}, ""},
		{" select x from t , - update ", []string{"select x from t"}, []string{"update"}, ""},
		{"q1,,q2", nil, nil, "want fingerprints separated by commas"},
		{"-", nil, nil, "want fingerprints"},
		{strings.Repeat("q1,", maxTerms) + "q1", nil, nil, "at most"},
	} {
		s, err := ParseFilter(tt.in)
		switch {
		case tt.err != "":
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("ParseFilter(%q): %v, want %q", tt.in, err, tt.err)
			}
		case err != nil:
			t.Errorf("ParseFilter(%q): %v", tt.in, err)
		case !slices.Equal(s.Include, tt.include) || !slices.Equal(s.Exclude, tt.exclude):
			t.Errorf("ParseFilter(%q) = %q, -%q; want %q, -%q", tt.in, s.Include, s.Exclude, tt.include, tt.exclude)
		}
	}
}

// A selection cuts transactions and needs every commit in the order of
// commits: refused there.
func TestSelectRefused(t *testing.T) {
	_, _, err := Build(opener(windowTrace(windowStmts)), Options{Trace: "/t.trace", Order: workload.ReplayCommit, Select: &workload.ReplaySelect{ReadOnly: true}})
	if err == nil || !strings.Contains(err.Error(), "--read-only and --filter run in race order") {
		t.Errorf("a selection in the order of commits: %v", err)
	}
}

// A statement writes by the trace's record (changes counted, a commit
// made) or by its text (a writing verb, the schema, a pragma set).
func TestWrites(t *testing.T) {
	a := sqltrace.FlagAutocommitAfter
	for _, tt := range []struct {
		e    sqltrace.Exec
		want bool
	}{
		{sqltrace.Exec{SQL: "SELECT 1"}, false},
		{sqltrace.Exec{SQL: "BEGIN IMMEDIATE"}, false},
		{sqltrace.Exec{SQL: "pragma journal_mode=wal"}, false}, // overridden: runs as a read
		{sqltrace.Exec{SQL: "PRAGMA user_version = 3"}, true},
		{sqltrace.Exec{SQL: "SELECT f()", Flags: a, Commit: sqltrace.State{Kind: sqltrace.StateWAL, Value: 3}}, true},
		{sqltrace.Exec{SQL: "SELECT f()", Commit: sqltrace.State{Kind: sqltrace.StateWAL, Value: 3}}, false}, // another's commit seen
		{sqltrace.Exec{SQL: "DELETE FROM t WHERE 0", Flags: sqltrace.FlagChanges}, true},
		{sqltrace.Exec{SQL: "with x as (select 1) insert into t select * from x", Flags: sqltrace.FlagChanges, Changes: 1}, true},
		{sqltrace.Exec{SQL: "insert into t values (1)", Code: 19}, true}, // failed when captured: may not on the snapshot
		{sqltrace.Exec{SQL: "SELECT 1; CREATE TABLE u (x)"}, true},
		{sqltrace.Exec{SQL: "  vacuum"}, true},
	} {
		if got := writes(&tt.e); got != tt.want {
			t.Errorf("writes(%q, flags %b) = %v, want %v", tt.e.SQL, tt.e.Flags, got, tt.want)
		}
	}
}
