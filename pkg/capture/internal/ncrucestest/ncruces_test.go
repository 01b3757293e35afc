// Package ncrucestest tests the capture around ncruces's driver, which
// registers itself as "sqlite3" as mattn's does, in a test binary of its
// own.
package ncrucestest

import (
	"database/sql"
	"os"
	"path/filepath"
	"testing"

	ndriver "github.com/ncruces/go-sqlite3/driver"

	"github.com/gobench/gobench/pkg/capture"
	"github.com/gobench/gobench/pkg/sqltrace"
)

// TestNcruces: statements through ncruces's driver are recorded with
// their parameters, changes, rows and the extended code of an error.
func TestNcruces(t *testing.T) {
	dir := t.TempDir()
	tracePath := filepath.Join(dir, "app.trace")
	c, err := capture.Create(tracePath)
	if err != nil {
		t.Fatal(err)
	}
	sql.Register("captured-ncruces", c.Driver(&ndriver.SQLite{}))
	db, err := sql.Open("captured-ncruces", filepath.Join(dir, "app.db"))
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{`CREATE TABLE t (k INTEGER PRIMARY KEY, v TEXT)`, `INSERT INTO t VALUES (1, 'a'), (2, 'b')`} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := db.Exec(`INSERT INTO t VALUES (?, ?)`, 1, "dup"); err == nil {
		t.Fatal("a duplicate key was inserted")
	}
	rows, err := db.Query(`SELECT v FROM t WHERE k >= ?`, 1)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
	}
	rows.Close()
	db.Close()
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(tracePath)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r := sqltrace.NewReader(f)
	var es []sqltrace.Exec
	for r.Next() {
		if r.Record().Kind == sqltrace.KindExec {
			e := r.Record().Exec
			e.Params = append([]sqltrace.Value(nil), e.Params...)
			es = append(es, e)
		}
	}
	if err := r.Err(); err != nil || len(es) != 4 {
		t.Fatalf("%d execs, %v", len(es), err)
	}
	if es[1].Changes != 2 || es[2].Code != 1555 || es[2].Params[0].Int != 1 || es[3].Rows != 2 || es[3].Flags&sqltrace.FlagDone == 0 {
		t.Errorf("execs %+v", es)
	}
}
