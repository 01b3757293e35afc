package replay

import (
	"context"
	"database/sql"
	"io"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/gobench/gobench/pkg/sqltrace"
	"github.com/gobench/gobench/pkg/workload"
)

// TestRemapSeed: Build at a scale reads the keys of the snapshot's tables
// and of one the capture created (INTEGER PRIMARY KEY, UNIQUE, FOREIGN
// KEY, a WITHOUT ROWID table's blob key), a span above the largest key,
// and counts the statements remapped and shared; the install gives each
// copy the snapshot's rows, keys moved, other columns as they were.
func TestRemapSeed(t *testing.T) {
	dir := t.TempDir()
	trace := writeTrace(t, dir, `
CREATE TABLE u (id INTEGER PRIMARY KEY, email TEXT UNIQUE, n INT);
CREATE TABLE o (id INTEGER PRIMARY KEY, u INTEGER REFERENCES u(id), qty INT);
CREATE TABLE kv (k BLOB PRIMARY KEY, v) WITHOUT ROWID;
CREATE TABLE log (msg TEXT);
INSERT INTO u VALUES (1, 'a@x', 10), (2, 'b@x', 20), (700, 'c@x', 30);
INSERT INTO o VALUES (1, 700, 5);
INSERT INTO kv VALUES (x'01', 'one');
INSERT INTO log VALUES ('hello');`, []traceConn{{stream: 1, conn: 1, execs: []sqltrace.Exec{
		{SQL: "CREATE TABLE later (id INTEGER PRIMARY KEY, name TEXT UNIQUE)", Flags: done},
		{SQL: "INSERT INTO u(email, n) VALUES (?, ?)", Params: []sqltrace.Value{{Type: sqltrace.ValueText, Bytes: []byte("d@x")}, {Type: sqltrace.ValueInt, Int: 1}}, Flags: done},
		{SQL: "UPDATE u SET n = ? WHERE id = 2", Params: []sqltrace.Value{{Type: sqltrace.ValueInt, Int: 2}}, Flags: done},
		{SQL: "SELECT v FROM kv WHERE k = ?", Params: []sqltrace.Value{{Type: sqltrace.ValueBlob, Bytes: []byte{1}}}, Flags: done},
	}}}, "")
	r, _, err := Build(func() (io.ReadCloser, error) { return os.Open(trace) }, Options{Trace: trace, Order: workload.ReplayRace, Scale: 3})
	if err != nil {
		t.Fatal(err)
	}
	m := r.Remap
	if m == nil || m.Span != 1000 || m.Remapped != 2 || m.Shared != 2 || m.SharedFingerprints != 2 || !r.Remapping() {
		t.Fatalf("remap %+v, want span 1000, 2 remapped, 2 shared of 2 fingerprints", m)
	}
	want := map[string]workload.RemapTable{
		"u":     {Keys: []string{"id", "email"}, Alias: "id", Rows: true},
		"o":     {Keys: []string{"id", "u"}, Alias: "id", Rows: true},
		"kv":    {Keys: []string{"k"}, Rows: true},
		"log":   {Rows: true},
		"later": {Keys: []string{"id", "name"}, Alias: "id"},
	}
	for _, tb := range m.Tables {
		w, ok := want[tb.Name]
		if !ok || !slices.Equal(tb.Keys, w.Keys) || tb.Alias != w.Alias || tb.Rows != w.Rows {
			t.Errorf("table %s: keys %v alias %q rows %v, want %+v", tb.Name, tb.Keys, tb.Alias, tb.Rows, w)
		}
		delete(want, tb.Name)
	}
	if len(want) > 0 {
		t.Errorf("tables not read: %v", want)
	}
	db := filepath.Join(dir, "replay.db")
	if _, err := InstallSnapshot(r, db); err != nil {
		t.Fatal(err)
	}
	n, err := seedCopies(context.Background(), r, db)
	if err != nil || n != 2*6 {
		t.Fatalf("seeded %d rows (%v), want 2 copies of 6", n, err)
	}
	conn, err := sql.Open("sqlite", db)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	for q, want := range map[string]int64{
		"SELECT count(*) FROM u": 9,
		"SELECT count(*) FROM u WHERE id BETWEEN 2000 AND 2999 AND email LIKE '%@x#2'":         3,
		"SELECT count(*) FROM u WHERE id = 1700 AND email = 'c@x#1' AND n = 30":                1,
		"SELECT count(*) FROM o WHERE id = 2001 AND u = 2700 AND qty = 5":                      1,
		"SELECT count(*) FROM kv WHERE k = CAST(x'01' || '#1' AS BLOB) AND typeof(k) = 'blob'": 1,
		"SELECT count(*) FROM log WHERE msg = 'hello'":                                         3,
	} {
		var got int64
		if err := conn.QueryRow(q).Scan(&got); err != nil || got != want {
			t.Errorf("%s: %d (%v), want %d", q, got, err, want)
		}
	}
}
