package e2e

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// theirDB makes, outside gobench, another program's database at path: a
// users table of 50 rows, a notes table whose rowids have gaps (a VACUUM
// would renumber them), and the tables of extra.
func theirDB(t *testing.T, path string, extra ...string) {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path+"?mode=rwc")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, q := range append([]string{
		"CREATE TABLE users(id INTEGER PRIMARY KEY, name TEXT)",
		"WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 50) INSERT INTO users SELECT i, 'user ' || i FROM n",
		"CREATE TABLE notes(x)",
		"INSERT INTO notes VALUES ('a'), ('b'), ('c'), ('d')",
		"DELETE FROM notes WHERE x IN ('a', 'c')",
	}, extra...) {
		if _, err := db.ExecContext(context.Background(), q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
}

// theirTables dumps, read outside gobench, every table of the database
// at path that gobench did not create: its definition and every row with
// its rowid.
func theirTables(t *testing.T, path string) string {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	rows, err := db.QueryContext(ctx, "SELECT name, sql FROM sqlite_schema WHERE type = 'table' AND instr(sql, '/* created by gobench */') = 0 ORDER BY name")
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	var names []string
	for rows.Next() {
		var name, def string
		if err := rows.Scan(&name, &def); err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "%s\n", def)
		names = append(names, name)
	}
	rows.Close()
	for _, name := range names {
		var dump string
		if err := db.QueryRowContext(ctx, fmt.Sprintf("SELECT group_concat(t, ' ') FROM (SELECT rowid || ':' || quote(%s) AS t FROM %s ORDER BY rowid)", map[string]string{"users": "name", "notes": "x"}[name], name)).Scan(&dump); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		fmt.Fprintf(&b, "%s: %s\n", name, dump)
	}
	return b.String()
}

// Every command that takes --reuse leaves another program's tables in the
// database it reuses as they were (definition, rows, rowids), run after
// run; and where a table gobench would drop and create is another
// program's (of the record table's name, from -p, a property file or a
// plan file; kv; a built-in schema's), it exits 2 before touching the
// database, which stays byte for byte as it was.
func TestReuseKeepsTheirTables(t *testing.T) {
	bin := gobenchBinary(t)
	dir := t.TempDir()
	small := []string{"--procs", "1", "-q"}
	ycsbSmall := []string{"-p", "recordcount=20", "-p", "operationcount=20", "-p", "threadcount=1", "-q"}
	if err := os.WriteFile(filepath.Join(dir, "users.properties"), []byte("workload=site.ycsb.workloads.CoreWorkload\nrecordcount=20\noperationcount=20\ntable=users\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	plan := func(name string, args ...string) string {
		r := runGobench(t, bin, dir, dir, nil, append(args, "--dry-run")...)
		if r.code != 0 {
			t.Fatalf("%s --dry-run: exit %d: %s", args, r.code, r.stderr)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(r.stdout), 0o644); err != nil {
			t.Fatal(err)
		}
		return name
	}
	usersPlan := plan("users-plan.json", append([]string{"ycsb", "run", "a", "-p", "table=users"}, ycsbSmall...)...)
	mixPlan := plan("mix-plan.json", "mix", "--procs", "1", "--queries", "20", "--keys", "20")

	t.Run("refused", func(t *testing.T) {
		for _, tt := range []struct {
			name  string
			extra []string // their tables besides users and notes
			args  []string
		}{
			{"ycsb -p table", nil, append([]string{"ycsb", "run", "a", "-p", "table=users"}, ycsbSmall...)},
			{"ycsb -p table in other case", nil, append([]string{"ycsb", "run", "a", "-p", "table=USERS"}, ycsbSmall...)},
			{"ycsb property file", nil, []string{"ycsb", "load", "users.properties", "-q"}},
			{"ycsb their usertable", []string{"CREATE TABLE usertable(YCSB_KEY TEXT PRIMARY KEY, FIELD0 TEXT)"}, append([]string{"ycsb", "run", "a"}, ycsbSmall...)},
			{"run a plan file's table", nil, []string{"run", usersPlan, "-q"}},
			{"mix their kv", []string{"CREATE TABLE kv(k, v)"}, append([]string{"mix", "--queries", "20", "--keys", "20"}, small...)},
			{"run their kv", []string{"CREATE TABLE kv(k, v)"}, []string{"run", mixPlan, "-q"}},
			{"sql their pgbench table", []string{"CREATE TABLE pgbench_history(x)"}, append([]string{"sql", "--builtin", "tpcb-like", "--queries", "5"}, small...)},
		} {
			t.Run(tt.name, func(t *testing.T) {
				db := filepath.Join(t.TempDir(), "app.db")
				theirDB(t, db, tt.extra...)
				before, err := os.ReadFile(db)
				if err != nil {
					t.Fatal(err)
				}
				r := runGobench(t, bin, dir, dir, nil, append(tt.args, "--db", db, "--reuse")...)
				assertBadInput(t, r, "was not created by gobench")
				if after, _ := os.ReadFile(db); !bytes.Equal(after, before) {
					t.Error("the refused database changed")
				}
			})
		}
	})

	t.Run("taken", func(t *testing.T) {
		for _, tt := range []struct {
			name string
			args []string
		}{
			{"ycsb", append([]string{"ycsb", "run", "a"}, ycsbSmall...)},
			{"mix", append([]string{"mix", "--queries", "20", "--keys", "20"}, small...)},
			{"sql built-in", append([]string{"sql", "--builtin", "tpcb-like", "--queries", "5"}, small...)},
			{"run", []string{"run", mixPlan, "-q"}},
		} {
			t.Run(tt.name, func(t *testing.T) {
				db := filepath.Join(t.TempDir(), "app.db")
				theirDB(t, db)
				want := theirTables(t, db)
				for run := range 2 { // the second run replaces the first's tables
					r := runGobench(t, bin, dir, dir, nil, append(tt.args, "--db", db, "--reuse")...)
					if r.code != 0 {
						t.Fatalf("run %d: exit %d: %s", run, r.code, r.stderr)
					}
					if got := theirTables(t, db); got != want {
						t.Fatalf("run %d changed their tables:\n%s\nwant:\n%s", run, got, want)
					}
				}
			})
		}
	})
}
