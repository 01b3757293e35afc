package sqlite

import (
	"context"
	"errors"
	"path/filepath"
	"testing"

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
