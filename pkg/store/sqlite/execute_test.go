package sqlite

import (
	"context"
	"errors"
	"path/filepath"
	"testing"

	"github.com/gobench/gobench/pkg/sqltrace"
	"github.com/gobench/gobench/pkg/sqltrace/tracetest"
	"github.com/gobench/gobench/pkg/store"
)

// TestExecute: statements given as text run with their arguments by
// position, report rows (through at most as many as asked) and changes,
// run the transactions they open and close, and are guarded as the user's
// scripts are.
func TestExecute(t *testing.T) {
	forEachDriver(t, func(t *testing.T, d *Driver) {
		dir := t.TempDir()
		st := openInit(t, d, store.Config{Path: filepath.Join(dir, "run.db"), Options: DefaultOptions().Encode()})
		defer st.Close()
		c, err := st.Conn(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		ex, ok := c.(store.Executor)
		if !ok {
			t.Fatalf("driver %s's connections are not Executors", d.Name())
		}
		run := func(sql string, args []any, maxRows int64, changes bool) store.Outcome {
			t.Helper()
			out, err := ex.Execute(sql, args, maxRows, changes)
			if err != nil {
				t.Fatalf("%s: %v", sql, err)
			}
			return out
		}
		run("CREATE TABLE u (id INTEGER PRIMARY KEY, name TEXT, score REAL, pic BLOB)", nil, -1, false)
		run("BEGIN IMMEDIATE", nil, -1, false)
		for i := range 5 {
			if out := run("INSERT INTO u (name, score, pic) VALUES (?, ?, ?)", []any{"n", float64(i), []byte{byte(i)}}, -1, true); out.Changes != 1 || !out.Done {
				t.Fatalf("insert: %+v", out)
			}
		}
		if !c.(store.TxProber).InTx() {
			t.Fatal("BEGIN IMMEDIATE opened no transaction")
		}
		run("COMMIT", nil, -1, false)
		if out := run("UPDATE u SET score = score + ?2 WHERE id > ?1", []any{int64(2), 1.5}, -1, true); out.Changes != 3 {
			t.Errorf("update changed %d rows, want 3", out.Changes)
		}
		if out := run("SELECT * FROM u WHERE name = :n", []any{"n"}, -1, false); out.Rows != 5 || !out.Done {
			t.Errorf("select to the end: %+v", out)
		}
		if out := run("SELECT * FROM u WHERE name = :n", []any{"n"}, 2, false); out.Rows != 2 || out.Done {
			t.Errorf("select through 2 rows: %+v", out)
		}
		// A parameter the application never bound is NULL.
		if out := run("SELECT * FROM u WHERE name IS ?", nil, -1, false); out.Rows != 0 || !out.Done {
			t.Errorf("select with an unbound parameter: %+v", out)
		}
		_, err = ex.Execute("INSERT INTO u (id) VALUES (?)", []any{int64(1)}, -1, true)
		if store.Classify(err) != store.Constraint {
			t.Errorf("duplicate key: %v, want a constraint error", err)
		}
		for _, bad := range []string{"ATTACH DATABASE 'x.db' AS x", "PRAGMA journal_mode = delete"} {
			_, err := ex.Execute(bad, nil, -1, false)
			if !errors.Is(err, ErrRefused) {
				t.Errorf("%s: %v, want a refusal", bad, err)
			}
		}
	})
}

// TestExecuteDigest: every driver digests a statement's rows as package
// sqltrace does (the capture's digest), values and types, and only the
// rows stepped through; a bare store (a replay's) has no kv table.
func TestExecuteDigest(t *testing.T) {
	row := func(vals ...any) uint64 {
		h, ok := sqltrace.Row(vals)
		if !ok {
			t.Fatalf("row %v: no digest", vals)
		}
		return h
	}
	r1, r2 := row(int64(1), "ann", 2.5, []byte{0, 1}, nil), row(int64(2), "bob", -0.5, []byte{}, nil)
	all, first := sqltrace.NewRowsDigest(), sqltrace.NewRowsDigest()
	all.Add(r1)
	all.Add(r2)
	first.Add(r1)
	forEachDriver(t, func(t *testing.T, d *Driver) {
		st := openInit(t, d, store.Config{Path: filepath.Join(t.TempDir(), "run.db"), Options: DefaultOptions().Encode(), Bare: true})
		defer st.Close()
		c, err := st.Conn(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		ex := c.(store.Executor)
		for _, q := range []string{"CREATE TABLE u (id INTEGER PRIMARY KEY, name TEXT, score REAL, pic BLOB, none)",
			"INSERT INTO u VALUES (1, 'ann', 2.5, x'0001', NULL), (2, 'bob', -0.5, x'', NULL)"} {
			if _, err := ex.Execute(q, nil, -1, false); err != nil {
				t.Fatalf("%s: %v", q, err)
			}
		}
		out, err := ex.Execute("SELECT * FROM u ORDER BY id", nil, -1, false)
		if err != nil {
			t.Fatal(err)
		}
		if !out.Digested || out.Unordered != all.Unordered || out.Ordered != all.Ordered {
			t.Errorf("both rows: %+v, want digests %x, %x", out, all.Unordered, all.Ordered)
		}
		if out, _ := ex.Execute("SELECT * FROM u ORDER BY id DESC", nil, -1, false); out.Unordered != all.Unordered || out.Ordered == all.Ordered {
			t.Errorf("the rows in another order: %+v: want the same unordered digest, another ordered one", out)
		}
		if out, _ := ex.Execute("SELECT * FROM u ORDER BY id", nil, 1, false); out.Ordered != first.Ordered {
			t.Errorf("through 1 row: %+v, want the first row's digest %x", out, first.Ordered)
		}
		if out, _ := ex.Execute("SELECT count(*) FROM sqlite_schema WHERE name = 'kv'", nil, -1, false); out.Unordered != row(int64(0)) {
			t.Errorf("a bare store has a kv table")
		}
	})
}

// TestExecuteBindsByIndex: every driver binds a statement given as text
// its arguments as a trace keeps them, by SQLite's parameter index,
// whatever form its parameters take (sqltrace.Binding): each row holds
// the values its parameters were bound to.
func TestExecuteBindsByIndex(t *testing.T) {
	forEachDriver(t, func(t *testing.T, d *Driver) {
		st := openInit(t, d, store.Config{Path: filepath.Join(t.TempDir(), "run.db"), Options: DefaultOptions().Encode()})
		defer st.Close()
		c, err := st.Conn(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		ex := c.(store.Executor)
		if _, err := ex.Execute(tracetest.BindSchema, nil, -1, false); err != nil {
			t.Fatal(err)
		}
		for _, tt := range tracetest.BindCases() {
			if _, err := ex.Execute(tt.SQL, tt.Args, -1, true); err != nil {
				t.Errorf("%s: %s: %v", tt.Name, tt.SQL, err)
				continue
			}
			want, ok := sqltrace.Row(tt.Want)
			if !ok {
				t.Fatalf("%s: no digest of %v", tt.Name, tt.Want)
			}
			out, err := ex.Execute("SELECT a, b, c FROM b WHERE name = ?", []any{tt.Name}, -1, false)
			if err != nil || out.Rows != 1 || out.Unordered != want {
				t.Errorf("%s: %s with %v: read back %+v, %v; want the row %v", tt.Name, tt.SQL, tt.Args, out, err, tt.Want)
			}
		}
	})
}
