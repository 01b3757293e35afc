package mask

import (
	"bytes"
	"database/sql"
	"os"
	"path/filepath"
	"testing"

	"github.com/gobench/gobench/pkg/sqltrace"
)

// testDB makes a database of users at path.
func testDB(t *testing.T, path string) {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, s := range []string{
		"CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT, email TEXT UNIQUE)",
		"CREATE INDEX users_name ON users(name)",
		"CREATE TABLE orders (id INTEGER PRIMARY KEY, user_id INTEGER, item TEXT)",
		"INSERT INTO users VALUES (1, 'Alice Original', 'alice.original@example.org'), (2, 'Bob Original', 'bob.original@example.org')",
		"INSERT INTO orders VALUES (1, 1, 'widget-kept')",
	} {
		if _, err := db.Exec(s); err != nil {
			t.Fatal(err)
		}
	}
}

func text(s string) sqltrace.Value { return sqltrace.Value{Type: sqltrace.ValueText, Bytes: []byte(s)} }

// testTrace writes a trace of the database at path (its snapshot and end)
// and of statements on it.
func testTrace(t *testing.T, path string) []byte {
	t.Helper()
	var buf bytes.Buffer
	w, _ := sqltrace.NewWriter(&buf)
	p := w.Stream(1)
	execs := []sqltrace.Exec{
		{SQL: "INSERT INTO users (name, email) VALUES (?, ?)", Params: []sqltrace.Value{text("Carol Original"), text("carol.original@example.org")}},
		{SQL: "SELECT id FROM users WHERE email = ?", Params: []sqltrace.Value{text("alice.original@example.org")}},
		{SQL: "SELECT id FROM users WHERE name = 'Bob Original'"},
		{SQL: "SELECT count(*) FROM users WHERE lower(email) = lower(?) AND id = ?", Params: []sqltrace.Value{text("carol.original@example.org"), {Type: sqltrace.ValueInt, Int: 1}}},
		{SQL: "SELECT ? || 'x'", Params: []sqltrace.Value{text("Bob Original")}},
		{SQL: "SELECT * FROM orders WHERE item = ?", Params: []sqltrace.Value{text("widget-kept")}},
	}
	p.Write(&sqltrace.Record{Kind: sqltrace.KindProcess, Process: sqltrace.Process{PID: 1, Command: "app"}})
	p.Write(&sqltrace.Record{Kind: sqltrace.KindDB, DB: sqltrace.DB{ID: 1, Path: path}})
	for i := range execs {
		execs[i].Start = int64(i)
		p.Write(&sqltrace.Record{Kind: sqltrace.KindExec, Exec: execs[i]})
	}
	own := w.Stream(0)
	own.Write(&sqltrace.Record{Kind: sqltrace.KindDB, DB: sqltrace.DB{ID: 1, Path: path}})
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	n, err := w.WriteSnapshot(1, f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	own.Write(&sqltrace.Record{Kind: sqltrace.KindSnapshot, Snapshot: sqltrace.Snapshot{DB: 1, Number: 1, Size: uint64(n)}})
	own.Write(&sqltrace.Record{Kind: sqltrace.KindDigest, Digest: sqltrace.Digest{DB: 1, Tables: []sqltrace.TableDigest{{Name: "users", Rows: 2, Hash: "0"}}}})
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestRewrite(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "app.db")
	testDB(t, path)
	in := filepath.Join(dir, "raw.trace")
	raw := testTrace(t, path)
	if err := os.WriteFile(in, raw, 0o600); err != nil {
		t.Fatal(err)
	}
	originals := []string{"Alice Original", "alice.original@", "Bob Original", "bob.original@", "Carol Original", "carol.original@"}
	for _, o := range originals {
		if !bytes.Contains(raw, []byte(o)) {
			t.Fatalf("the raw trace lacks %q: the test proves nothing", o)
		}
	}
	cols, _ := ParseColumns("users.email,users.name")
	var out bytes.Buffer
	st, err := Rewrite(in, dir, &out, cols, Key("seed"))
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range originals {
		if bytes.Contains(out.Bytes(), []byte(o)) {
			t.Errorf("the masked trace still holds %q", o)
		}
	}
	if !bytes.Contains(out.Bytes(), []byte("widget-kept")) {
		t.Error("a value of no masked column was masked")
	}
	if st.Snapshots != 1 || st.Literals != 1 || st.Params != 5 {
		t.Errorf("stats %+v, want 1 snapshot, 1 literal, 5 parameters", st)
	}
	alice := Key("seed").Value(text("alice.original@example.org"))
	if !bytes.Contains(out.Bytes(), alice.Bytes) {
		t.Error("the masked trace lacks alice's substitute")
	}
	checkMasked(t, out.Bytes(), alice)
}

// checkMasked reads the masked trace: its note, its integer kept, its
// snapshot holding the same substitute its lookup binds.
func checkMasked(t *testing.T, trace []byte, alice sqltrace.Value) {
	t.Helper()
	r := sqltrace.NewReader(bytes.NewReader(trace))
	var note string
	var snap []byte
	var digest []sqltrace.TableDigest
	for r.Next() {
		rec := r.Record()
		switch rec.Kind {
		case sqltrace.KindNote:
			note, _ = sqltrace.ParseMaskNote(rec.Note)
		case sqltrace.KindData:
			snap = append(snap, rec.Data...)
		case sqltrace.KindDigest:
			digest = rec.Digest.Tables
		case sqltrace.KindExec:
			if e := rec.Exec; len(e.Params) == 2 && e.Params[1].Type == sqltrace.ValueInt && e.Params[1].Int != 1 {
				t.Errorf("%s: the integer of an unmapped parameter was masked", e.SQL)
			}
		}
	}
	if r.Err() != nil {
		t.Fatal(r.Err())
	}
	if note != "users.email, users.name" {
		t.Errorf("mask note %q", note)
	}
	if len(digest) != 2 {
		t.Errorf("the end digest was not read again, masked: %v", digest)
	}
	f := filepath.Join(t.TempDir(), "snap.db")
	os.WriteFile(f, snap, 0o600)
	db, err := sql.Open("sqlite", "file:"+f+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var id int
	if err := db.QueryRow("SELECT id FROM users WHERE email = ?", string(alice.Bytes)).Scan(&id); err != nil || id != 1 {
		t.Errorf("the lookup by the substitute found %d, %v; want alice's row 1", id, err)
	}
}
