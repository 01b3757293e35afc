package sqlite

import (
	"context"
	"strings"
	"testing"

	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/store/conformance"
)

// The record table is the JDBC binding's, to the letter of its SQL, with
// gobench's mark in its definition.
func TestTableSQL(t *testing.T) {
	q := newTableSQL(store.Table{Name: "usertable", Key: "YCSB_KEY", Field: "FIELD", Fields: 3})
	for _, tt := range []struct{ got, want string }{
		{q.create, "CREATE TABLE usertable /* created by gobench */ (YCSB_KEY TEXT PRIMARY KEY, FIELD0 TEXT, FIELD1 TEXT, FIELD2 TEXT)"},
		{q.read, "SELECT * FROM usertable WHERE YCSB_KEY = ?"},
		{q.scan, "SELECT * FROM usertable WHERE YCSB_KEY >= ? ORDER BY YCSB_KEY LIMIT ?"},
		{q.insert, "INSERT INTO usertable (YCSB_KEY,FIELD0,FIELD1,FIELD2) VALUES(?,?,?,?)"},
		{q.updateAll, "UPDATE usertable SET FIELD0=?, FIELD1=?, FIELD2=? WHERE YCSB_KEY = ?"},
		{q.updateField[2], "UPDATE usertable SET FIELD2=? WHERE YCSB_KEY = ?"},
	} {
		if tt.got != tt.want {
			t.Errorf("got  %s\nwant %s", tt.got, tt.want)
		}
	}
}

// Records land in the SQL table as text, key and fields alike, on every
// driver, and a second Init empties the table.
func TestRecordsAreText(t *testing.T) {
	forEachDriver(t, func(t *testing.T, d *Driver) {
		c := cfg(t, DefaultOptions())
		table := conformance.TestTable
		c.Table = &table
		st := openInit(t, d, c)
		defer st.Close()
		conn, err := st.Conn(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		r := conn.(store.Recorder)
		if err := r.InsertRecord([]byte("user42"), [][]byte{[]byte("a"), []byte("bb"), []byte("")}); err != nil {
			t.Fatal(err)
		}
		raw, err := d.be.open(dsn(c.Path, "rw"))
		if err != nil {
			t.Fatal(err)
		}
		defer raw.Close()
		schema, err := raw.queryString("SELECT sql FROM sqlite_schema WHERE name='usertable'")
		if err != nil || !strings.HasPrefix(schema, "CREATE TABLE usertable /* created by gobench */ (YCSB_KEY TEXT PRIMARY KEY") {
			t.Fatalf("schema %q, %v", schema, err)
		}
		types, err := raw.queryString("SELECT typeof(YCSB_KEY)||typeof(FIELD0)||typeof(FIELD1)||typeof(FIELD2)||FIELD1 FROM usertable WHERE YCSB_KEY='user42'")
		if err != nil || types != "texttexttexttextbb" {
			t.Fatalf("stored as %q, %v; want every column text", types, err)
		}
		conn.Close()
		if err := st.Init(context.Background()); err != nil {
			t.Fatal(err)
		}
		if n, err := raw.queryString("SELECT count(*) FROM usertable"); err != nil || n != "0" {
			t.Errorf("after a second Init the table holds %s rows (%v), want 0", n, err)
		}
	})
}
