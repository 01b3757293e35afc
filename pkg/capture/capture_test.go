package capture

import (
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/mattn/go-sqlite3"
	msqlite "modernc.org/sqlite"

	"github.com/gobench/gobench/pkg/sqltrace"
)

// drivers are the drivers the capture is tested around here (ncruces's
// registers itself as "sqlite3", as mattn's does, so it is tested in a
// binary of its own: ncruces_test).
var drivers = []struct {
	name string
	d    driver.Driver
}{
	{"mattn", &sqlite3.SQLiteDriver{}},
	{"modernc", &msqlite.Driver{}},
}

var registered sync.Map

// open registers c's driver around d under a new name and opens path.
func open(t *testing.T, c *Capture, d driver.Driver, dsn string) *sql.DB {
	t.Helper()
	name := fmt.Sprintf("captured-%s-%p", t.Name(), c)
	if _, dup := registered.LoadOrStore(name, true); !dup {
		sql.Register(name, c.Driver(d))
	}
	db, err := sql.Open(name, dsn)
	if err != nil {
		t.Fatal(err)
	}
	return db
}

// traceOf reads a trace's records (params copied).
func traceOf(t *testing.T, path string) []sqltrace.Record {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r := sqltrace.NewReader(f)
	var out []sqltrace.Record
	for r.Next() {
		rec := *r.Record()
		rec.Exec.Params = slices.Clone(rec.Exec.Params)
		for i := range rec.Exec.Params {
			rec.Exec.Params[i].Bytes = slices.Clone(rec.Exec.Params[i].Bytes)
		}
		rec.Data = slices.Clone(rec.Data)
		out = append(out, rec)
	}
	if err := r.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

func execs(recs []sqltrace.Record) []sqltrace.Exec {
	var out []sqltrace.Exec
	for _, r := range recs {
		if r.Kind == sqltrace.KindExec {
			out = append(out, r.Exec)
		}
	}
	return out
}

// TestRecords: on every driver, what a program runs is recorded with its
// parameters by index and type, its rows and changes, its result code, its
// transaction's boundaries and its place in the order of commits; and the
// database's snapshot is its content before the program ran.
func TestRecords(t *testing.T) {
	for _, d := range drivers {
		t.Run(d.name, func(t *testing.T) {
			dir := t.TempDir()
			dbPath := filepath.Join(dir, "app.db")
			pre, err := sql.Open("sqlite3", dbPath)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := pre.Exec(`CREATE TABLE kv (k TEXT PRIMARY KEY, v BLOB, n INTEGER, f REAL); INSERT INTO kv VALUES ('old', x'00', 1, 0.5)`); err != nil {
				t.Fatal(err)
			}
			pre.Close()
			tracePath := filepath.Join(dir, "app.trace")
			c, err := Create(tracePath)
			if err != nil {
				t.Fatal(err)
			}
			db := open(t, c, d.d, dbPath)
			db.SetMaxOpenConns(1)
			mustExec(t, db, `INSERT INTO kv (k, v, n, f) VALUES (?, ?, ?, ?)`, "a", []byte{1, 2}, int64(-7), 2.25)
			tx, err := db.Begin()
			if err != nil {
				t.Fatal(err)
			}
			if _, err := tx.Exec(`UPDATE kv SET n = n + 1 WHERE k = :k OR k = @j`, sql.Named("j", "old"), sql.Named("k", "a")); err != nil {
				t.Fatal(err)
			}
			if err := tx.Commit(); err != nil {
				t.Fatal(err)
			}
			var n int
			if err := db.QueryRow(`SELECT count(*) FROM kv WHERE n > ?`, 0).Scan(&n); err != nil || n != 1 {
				t.Fatalf("count %d, %v", n, err)
			}
			_, dupErr := db.Exec(`INSERT INTO kv (k) VALUES ('a')`)
			if dupErr == nil {
				t.Fatal("a duplicate key was inserted")
			}
			db.Close()
			if err := c.Close(); err != nil {
				t.Fatal(err)
			}
			recs := traceOf(t, tracePath)
			checkExecs(t, execs(recs))
			checkSnapshot(t, recs, dir)
		})
	}
}

func mustExec(t *testing.T, db *sql.DB, q string, args ...any) {
	t.Helper()
	if _, err := db.Exec(q, args...); err != nil {
		t.Fatal(err)
	}
}

func checkExecs(t *testing.T, es []sqltrace.Exec) {
	t.Helper()
	var got []string
	for _, e := range es {
		got = append(got, firstKeyword(e.SQL))
	}
	if want := []string{"INSERT", "BEGIN", "UPDATE", "COMMIT", "SELECT", "INSERT"}; !slices.Equal(got, want) {
		t.Fatalf("statements %v, want %v", got, want)
	}
	ins, begin, upd, commit, sel, dup := es[0], es[1], es[2], es[3], es[4], es[5]
	wantParams := []sqltrace.Value{{Type: sqltrace.ValueText, Bytes: []byte("a")}, {Type: sqltrace.ValueBlob, Bytes: []byte{1, 2}},
		{Type: sqltrace.ValueInt, Int: -7}, {Type: sqltrace.ValueFloat, Float: 2.25}}
	if fmt.Sprint(ins.Params) != fmt.Sprint(wantParams) || ins.Changes != 1 || ins.Flags&sqltrace.FlagChanges == 0 || ins.Code != 0 {
		t.Errorf("insert: %+v", ins)
	}
	if ins.Commit != (sqltrace.State{Kind: sqltrace.StateSeq, Value: 1, At: ins.Commit.At}) || ins.Snap.Value != 0 || ins.Flags&sqltrace.FlagAutocommitAfter == 0 {
		t.Errorf("insert's place: snap %+v commit %+v flags %b", ins.Snap, ins.Commit, ins.Flags)
	}
	// :k is parameter 1, @j parameter 2, whatever order the arguments came in.
	if len(upd.Params) != 2 || string(upd.Params[0].Bytes) != "a" || string(upd.Params[1].Bytes) != "old" || upd.Changes != 2 {
		t.Errorf("update: %+v", upd)
	}
	if begin.Flags&sqltrace.FlagAutocommitBefore == 0 || begin.Flags&sqltrace.FlagAutocommitAfter != 0 || upd.Flags&(sqltrace.FlagAutocommitBefore|sqltrace.FlagAutocommitAfter) != 0 {
		t.Errorf("transaction boundaries: begin %b update %b", begin.Flags, upd.Flags)
	}
	// The transaction wrote: its first statement's snapshot is the state
	// just before its commit.
	if upd.Snap.Kind != sqltrace.StateSeq || upd.Snap.Value != 1 || commit.Commit.Value != 2 || commit.Flags&sqltrace.FlagAutocommitAfter == 0 {
		t.Errorf("transaction's place: update's snap %+v, commit's %+v", upd.Snap, commit.Commit)
	}
	// QueryRow reads one row and closes: the statement did not run to its
	// end.
	if sel.Rows != 1 || sel.Flags&sqltrace.FlagDone != 0 || sel.Snap.Value != 2 || sel.Commit.Kind != sqltrace.StateNone {
		t.Errorf("select: %+v", sel)
	}
	if dup.Code&0xff != 19 || dup.Commit.Kind != sqltrace.StateNone {
		t.Errorf("duplicate insert: code %d commit %+v, want a constraint error (19) and no commit", dup.Code, dup.Commit)
	}
	for _, e := range es {
		if e.Span < e.InSQLite || e.Start == 0 {
			t.Errorf("%s: start %d span %d in SQLite %d", e.SQL, e.Start, e.Span, e.InSQLite)
		}
	}
}

// checkSnapshot: the trace's snapshot is a database holding what the
// database held before the program ran.
func checkSnapshot(t *testing.T, recs []sqltrace.Record, dir string) {
	t.Helper()
	var data []byte
	var snaps []sqltrace.Snapshot
	for _, r := range recs {
		switch r.Kind {
		case sqltrace.KindData:
			data = append(data, r.Data...)
		case sqltrace.KindSnapshot:
			snaps = append(snaps, r.Snapshot)
		}
	}
	if len(snaps) != 1 || snaps[0].Error != "" || snaps[0].Size != uint64(len(data)) {
		t.Fatalf("snapshots %+v, %d bytes", snaps, len(data))
	}
	p := filepath.Join(dir, "snap.db")
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("sqlite3", p)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var keys string
	if err := db.QueryRow(`SELECT group_concat(k) FROM kv`).Scan(&keys); err != nil || keys != "old" {
		t.Errorf("the snapshot holds keys %q (%v), want only the one before the capture", keys, err)
	}
}

// TestPart: under gobench capture (EnvDir set), a process writes its part
// and the snapshot to the capture's directory, as the C library does.
func TestPart(t *testing.T) {
	dir := t.TempDir()
	t.Setenv(EnvDir, dir)
	c, err := FromEnv(filepath.Join(dir, "unused.trace"))
	if err != nil {
		t.Fatal(err)
	}
	dbPath := filepath.Join(dir, "app.db")
	db := open(t, c, &sqlite3.SQLiteDriver{}, dbPath)
	mustExec(t, db, `CREATE TABLE t (x)`)
	db.Close()
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	parts, _ := filepath.Glob(filepath.Join(dir, "part-*.trace"))
	base := filepath.Join(dir, snapName(dbPath))
	for _, f := range []string{".lock", ".db", ".done"} {
		if _, err := os.Stat(base + f); err != nil {
			t.Errorf("snapshot file: %v", err)
		}
	}
	if len(parts) != 1 {
		t.Fatalf("parts %v", parts)
	}
	f, _ := os.Open(parts[0])
	defer f.Close()
	var out strings.Builder
	st, err := sqltrace.Merge(&out, []sqltrace.Part{{Name: parts[0], R: f}}, func(name string) (io.ReadCloser, error) {
		return os.Open(filepath.Join(dir, name))
	}, nil)
	if err != nil || st.Snapshots != 1 || len(st.Notes) != 0 {
		t.Errorf("merge: %+v %v", st, err)
	}
}

// TestRecordingFails: a capture that cannot write does not fail the
// program; Close says what went wrong.
func TestRecordingFails(t *testing.T) {
	dir := t.TempDir()
	c, err := Create(filepath.Join(dir, "t.trace"))
	if err != nil {
		t.Fatal(err)
	}
	c.fail(errors.New("disk full"))
	db := open(t, c, &sqlite3.SQLiteDriver{}, filepath.Join(dir, "x.db"))
	mustExec(t, db, `CREATE TABLE t (x)`)
	db.Close()
	if err := c.Close(); err == nil || !strings.Contains(err.Error(), "disk full") {
		t.Errorf("Close: %v", err)
	}
}

// TestLongStatement: through the Go wrapper, a statement longer than
// sqltrace.MaxText is kept as its first MaxText bytes and marked cut, and a
// parameter longer than sqltrace.MaxValue is kept as its type and length:
// the trace says what it does not hold.
func TestLongStatement(t *testing.T) {
	dir := t.TempDir()
	tracePath := filepath.Join(dir, "long.trace")
	c, err := Create(tracePath)
	if err != nil {
		t.Fatal(err)
	}
	db := open(t, c, &sqlite3.SQLiteDriver{}, filepath.Join(dir, "long.db"))
	db.SetMaxOpenConns(1)
	mustExec(t, db, `CREATE TABLE t (v BLOB)`)
	long := `INSERT INTO t VALUES ('` + strings.Repeat("y", sqltrace.MaxText) + `')`
	mustExec(t, db, long)
	mustExec(t, db, `INSERT INTO t VALUES (?)`, make([]byte, sqltrace.MaxValue+1))
	db.Close()
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	es := execs(traceOf(t, tracePath))
	if len(es) != 3 {
		t.Fatalf("%d execs, want 3", len(es))
	}
	if e := es[1]; e.Flags&sqltrace.FlagCut == 0 || e.SQL != long[:sqltrace.MaxText] {
		t.Errorf("the long statement: flags %v, %d bytes kept", e.Flags, len(e.SQL))
	}
	if e := es[2]; e.Flags&sqltrace.FlagCut != 0 || !e.Omits() || e.Params[0].Int != sqltrace.MaxValue+1 {
		t.Errorf("the long parameter: flags %v, params %+v", e.Flags, e.Params)
	}
	if es[0].Flags&sqltrace.FlagCut != 0 || es[0].Omits() {
		t.Errorf("a short statement marked: %+v", es[0])
	}
}

// TestRowsDigest: a query's rows are digested as package sqltrace
// defines it (their values and types; in order with ORDER BY), as far as
// the program read them; a value a driver turned into another type (a
// time.Time of a column declared DATETIME) leaves the query without one.
func TestRowsDigest(t *testing.T) {
	row := func(vals ...any) uint64 { h, _ := sqltrace.Row(vals); return h }
	for _, d := range drivers {
		t.Run(d.name, func(t *testing.T) {
			dir := t.TempDir()
			c, err := Create(filepath.Join(dir, "app.trace"))
			if err != nil {
				t.Fatal(err)
			}
			db := open(t, c, d.d, filepath.Join(dir, "app.db"))
			db.SetMaxOpenConns(1)
			mustExec(t, db, `CREATE TABLE t (k INTEGER, s TEXT, b BLOB, at DATETIME)`)
			mustExec(t, db, `INSERT INTO t VALUES (1, 'a', x'01', '2024-01-02 03:04:05'), (2, NULL, x'', '2024-01-02 03:04:05')`)
			for _, q := range []string{`SELECT k, s, b FROM t`, `SELECT k, s, b FROM t ORDER BY k DESC`, `SELECT at FROM t`} {
				rows, err := db.Query(q)
				if err != nil {
					t.Fatal(err)
				}
				for rows.Next() {
				}
				rows.Close()
			}
			rows, err := db.Query(`SELECT k, s, b FROM t ORDER BY k`)
			if err != nil {
				t.Fatal(err)
			}
			rows.Next() // the program reads one row of two
			rows.Close()
			db.Close()
			if err := c.Close(); err != nil {
				t.Fatal(err)
			}
			r1, r2 := row(int64(1), "a", []byte{1}), row(int64(2), nil, []byte{})
			both, desc, first := sqltrace.NewRowsDigest(), sqltrace.NewRowsDigest(), sqltrace.NewRowsDigest()
			both.Add(r1)
			both.Add(r2)
			desc.Add(r2)
			desc.Add(r1)
			first.Add(r1)
			want := map[string]struct {
				flags  sqltrace.Flags
				digest uint64
			}{
				`SELECT k, s, b FROM t`:                 {sqltrace.FlagDigest, both.Unordered},
				`SELECT k, s, b FROM t ORDER BY k DESC`: {sqltrace.FlagDigest | sqltrace.FlagOrdered, desc.Ordered},
				`SELECT k, s, b FROM t ORDER BY k`:      {sqltrace.FlagDigest | sqltrace.FlagOrdered, first.Ordered},
			}
			seen := 0
			for _, e := range execs(traceOf(t, filepath.Join(dir, "app.trace"))) {
				w, ok := want[e.SQL]
				switch {
				case e.SQL == `SELECT at FROM t` && d.name == "mattn":
					seen++
					if e.Flags&sqltrace.FlagDigest != 0 {
						t.Errorf("%s: a digest of values mattn made time.Time of", e.SQL)
					}
				case ok:
					seen++
					if e.Flags&(sqltrace.FlagDigest|sqltrace.FlagOrdered) != w.flags || e.Digest != w.digest {
						t.Errorf("%s: flags %b digest %x, want flags %b digest %x", e.SQL, e.Flags, e.Digest, w.flags, w.digest)
					}
				}
			}
			if want := len(want) + map[bool]int{true: 1}[d.name == "mattn"]; seen != want {
				t.Errorf("%d queries checked, want %d", seen, want)
			}
		})
	}
}
