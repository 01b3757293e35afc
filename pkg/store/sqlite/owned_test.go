package sqlite

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gobench/gobench/pkg/store"
)

// theirUsers is another program's table: 50 rows that must outlive every
// run that reuses its database.
var theirUsers = []string{
	"CREATE TABLE users(id INTEGER PRIMARY KEY, name TEXT)",
	"WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 50) INSERT INTO users SELECT i, 'u' || i FROM n",
}

// recordTable is a record table of name.
func recordTable(name string) *store.Table {
	return &store.Table{Name: name, Key: "YCSB_KEY", Field: "FIELD", Fields: 2}
}

// A table of a name the run would drop and create, that gobench did not
// create, is refused (ErrForeign) by Precheck and by Init, and the
// database is left byte for byte as it was: another program's table of
// the record table's name (whatever its case), its kv, an index or a
// view of the name (even one that quotes gobench's mark), a table of a
// built-in schema's name, and the table of a database that a killed run
// left with gobench's application_id.
func TestRefusesTheirTables(t *testing.T) {
	t.Parallel()
	killed := append([]string{"PRAGMA application_id=1734504035", schemaSQL}, theirUsers...)
	for _, tt := range []struct {
		name  string
		setup []string
		cfg   store.Config
	}{
		{"record table", theirUsers, store.Config{Reuse: true, Table: recordTable("users")}},
		{"record table in other case", theirUsers, store.Config{Reuse: true, Table: recordTable("USERS")}},
		{"their usertable", append(theirUsers, "CREATE TABLE usertable(YCSB_KEY TEXT PRIMARY KEY, FIELD0 TEXT, FIELD1 TEXT)"), store.Config{Reuse: true, Table: recordTable("usertable")}},
		{"their kv", append(theirUsers, "CREATE TABLE kv(k INTEGER PRIMARY KEY, v BLOB NOT NULL)"), store.Config{Reuse: true}},
		{"an index of the name", append(theirUsers, "CREATE INDEX usertable ON users(name)"), store.Config{Reuse: true, Table: recordTable("usertable")}},
		{"a view that quotes the mark", append(theirUsers, "CREATE VIEW usertable AS SELECT '"+store.OwnMark+"' AS x"), store.Config{Reuse: true, Table: recordTable("usertable")}},
		{"a built-in schema's table", append(theirUsers, "CREATE TABLE pgbench_accounts(aid INTEGER PRIMARY KEY)"), store.Config{Reuse: true, Replaces: []string{"pgbench_branches", "pgbench_accounts"}}},
		{"left by a killed run, without reuse", killed, store.Config{Table: recordTable("users")}},
		{"left by a killed run, with reuse", killed, store.Config{Reuse: true, Table: recordTable("users")}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			forEachDriver(t, func(t *testing.T, d *Driver) {
				c := tt.cfg
				c.Path = filepath.Join(t.TempDir(), "app.db")
				rawDB(t, d, c.Path, tt.setup...).Close()
				before, err := os.ReadFile(c.Path)
				if err != nil {
					t.Fatal(err)
				}
				if err := precheckOf(t, d, c); !errors.Is(err, store.ErrForeign) || !strings.Contains(err.Error(), "was not created by gobench") {
					t.Errorf("Precheck: %v, want ErrForeign", err)
				}
				st, err := d.Open(context.Background(), c)
				if err != nil {
					t.Fatal(err)
				}
				err = st.Init(context.Background())
				if cerr := st.Close(); cerr != nil {
					t.Error(cerr)
				}
				if !errors.Is(err, store.ErrForeign) {
					t.Fatalf("Init: %v, want ErrForeign", err)
				}
				t.Log(err)
				if after, _ := os.ReadFile(c.Path); !bytes.Equal(after, before) {
					t.Error("the refused database changed")
				}
				assertUsers(t, d, c.Path)
			})
		})
	}
}

// assertUsers checks that theirUsers is whole at path.
func assertUsers(t *testing.T, d *Driver, path string) {
	t.Helper()
	c := rawDB(t, d, path)
	defer c.Close()
	if got, err := c.queryString("SELECT count(*) || ' ' || sum(id) || ' ' || max(name) FROM users"); err != nil || got != "50 1275 u9" {
		t.Errorf("their users table: %q (%v), want 50 rows as they were", got, err)
	}
	if got, err := c.queryString("SELECT sql FROM sqlite_schema WHERE name = 'users'"); err != nil || got != theirUsers[0] {
		t.Errorf("their users table's definition: %q (%v)", got, err)
	}
}

// A table that only the -wal file holds yet (a WAL database whose writer
// is still open) escapes Precheck, which reads the database file alone,
// and is refused by Init, which reads it under its write lock.
func TestRefusesTheirTableInWAL(t *testing.T) {
	t.Parallel()
	forEachDriver(t, func(t *testing.T, d *Driver) {
		path := filepath.Join(t.TempDir(), "app.db")
		holder := rawDB(t, d, path, "PRAGMA journal_mode=wal", "CREATE TABLE notes(x)")
		defer holder.Close()
		for _, q := range theirUsers {
			if err := holder.exec(q); err != nil {
				t.Fatal(err)
			}
		}
		o := DefaultOptions()
		o.Journal = "wal"
		c := store.Config{Path: path, Reuse: true, Table: recordTable("users"), Options: o.Encode()}
		if err := precheckOf(t, d, c); err != nil {
			t.Fatalf("Precheck found the table in the -wal file: %v", err)
		}
		st, err := d.Open(context.Background(), c)
		if err != nil {
			t.Fatal(err)
		}
		err = st.Init(context.Background())
		if cerr := st.Close(); cerr != nil {
			t.Error(cerr)
		}
		if !errors.Is(err, store.ErrForeign) {
			t.Fatalf("Init: %v, want ErrForeign", err)
		}
		assertUsers(t, d, path)
	})
}

// gobench's own tables are replaced on a reused database, run after run,
// and every other table keeps its rows and their rowids (no VACUUM, which
// renumbers them, runs on a database taken from another program). A
// database of an earlier gobench, whose tables carry no mark, is still
// gobench's own.
func TestReplacesOwnTables(t *testing.T) {
	t.Parallel()
	forEachDriver(t, func(t *testing.T, d *Driver) {
		path := filepath.Join(t.TempDir(), "app.db")
		rawDB(t, d, path, append(theirUsers,
			"CREATE TABLE notes(x)", "INSERT INTO notes VALUES (1), (2), (3), (4)", "DELETE FROM notes WHERE x IN (1, 3)")...).Close()
		const rowids = "SELECT group_concat(rowid || ':' || x) FROM notes"
		for run := range 2 {
			st := openInit(t, d, store.Config{Path: path, Reuse: true, Table: recordTable("usertable")})
			c, err := st.Conn(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if err := c.(store.Recorder).InsertRecord([]byte("k"), [][]byte{[]byte("a"), []byte("b")}); err != nil {
				t.Fatalf("run %d: %v", run, err)
			}
			c.Close()
			if err := st.Close(); err != nil {
				t.Fatal(err)
			}
		}
		assertUsers(t, d, path)
		raw := rawDB(t, d, path)
		if got, _ := raw.queryString(rowids); got != "2:2,4:4" {
			t.Errorf("their notes: %s, want 2:2,4:4 (rowids kept)", got)
		}
		if got, _ := raw.queryString("SELECT count(*) FROM usertable"); got != "1" {
			t.Errorf("the record table holds %s rows after its second run, want 1 (replaced)", got)
		}
		raw.Close()

		legacy := filepath.Join(t.TempDir(), "old.db")
		rawDB(t, d, legacy, "PRAGMA application_id=1734504035", "CREATE TABLE kv(k INTEGER PRIMARY KEY, v BLOB NOT NULL)",
			"CREATE TABLE usertable(YCSB_KEY TEXT PRIMARY KEY, FIELD0 TEXT, FIELD1 TEXT)").Close()
		if err := openInit(t, d, store.Config{Path: legacy, Table: recordTable("usertable")}).Close(); err != nil {
			t.Fatal(err)
		}
	})
}

// Table names SQLite keeps for itself or gobench's kv holds are refused
// at Open (ErrInvalid: bad input), before anything touches a file.
func TestRefusesReservedNames(t *testing.T) {
	t.Parallel()
	d := testDrivers[0]
	for _, c := range []store.Config{
		{Table: recordTable("sqlite_master")},
		{Table: recordTable("SQLite_x")},
		{Table: recordTable("kv")},
		{Table: recordTable("KV")},
		{Table: &store.Table{Name: "t", Key: "F1", Field: "f", Fields: 2}},
		{Replaces: []string{"x'; DROP TABLE users; --"}},
		{Replaces: []string{"sqlite_sequence"}},
	} {
		c.Path = filepath.Join(t.TempDir(), "x.db")
		if _, err := d.Open(context.Background(), c); !errors.Is(err, store.ErrInvalid) {
			t.Errorf("%+v %v: %v, want ErrInvalid", c.Table, c.Replaces, err)
		}
	}
}

// A database moved away during a run, another put in its place, keeps
// its settings: Close restores the file the run took alone, and says so.
func TestReuseRestoresItsOwnFile(t *testing.T) {
	t.Parallel()
	forEachDriver(t, func(t *testing.T, d *Driver) {
		dir := t.TempDir()
		path := filepath.Join(dir, "app.db")
		rawDB(t, d, path, "PRAGMA application_id=305419896", "CREATE TABLE notes(x)").Close()
		st := openInit(t, d, store.Config{Path: path, Reuse: true})
		if err := os.Rename(path, filepath.Join(dir, "moved.db")); err != nil {
			t.Fatal(err)
		}
		rawDB(t, d, path, "PRAGMA application_id=7", "CREATE TABLE other(x)").Close()
		if err := st.Close(); err == nil || !strings.Contains(err.Error(), "moved or replaced") {
			t.Errorf("Close: %v, want the file named as replaced", err)
		}
		raw := rawDB(t, d, path)
		defer raw.Close()
		if id, _ := raw.queryString("PRAGMA application_id"); id != "7" {
			t.Errorf("the file moved into place has application_id %s, want its own 7", id)
		}
	})
}
