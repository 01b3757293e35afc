package dbdigest

import (
	"path/filepath"
	"slices"
	"testing"
)

// newDB makes a database at dir/name by running stmts.
func newDB(t *testing.T, name string, stmts ...string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	db, conn, err := open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	defer conn.Close()
	for _, s := range stmts {
		if _, err := conn.ExecContext(t.Context(), s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	return path
}

const schema = "CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT, n REAL); CREATE TABLE w (k TEXT PRIMARY KEY, v) WITHOUT ROWID"

// The sums are of the content, not of the order it was written in; the
// sums a Rebuild keeps through inserts, updates, replaces and deletes are
// those of the database it ends as; a different value differs in its
// column alone.
func TestSums(t *testing.T) {
	cols := []string{"t.id", "t.v", "t.n", "w.k", "w.v"}
	a := newDB(t, "a.db", schema, "INSERT INTO t VALUES (1, 'x', 1.5), (2, 'y', NULL)", "INSERT INTO w VALUES ('k', 1)")
	b := newDB(t, "b.db", schema, "INSERT INTO w VALUES ('k', 1)", "INSERT INTO t VALUES (2, 'y', NULL)", "INSERT INTO t VALUES (1, 'x', 1.5)")
	sa, err := FileSums(a, cols)
	if err != nil {
		t.Fatal(err)
	}
	sb, err := FileSums(b, cols)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(sa, sb) {
		t.Errorf("the same rows written in another order: %v, %v", sa, sb)
	}
	c := newDB(t, "c.db", schema, "INSERT INTO t VALUES (1, 'x', 1.5), (2, 'z', NULL)", "INSERT INTO w VALUES ('k', 1)")
	sc, err := FileSums(c, cols)
	if err != nil {
		t.Fatal(err)
	}
	for i := range cols {
		if differ := sa[i] != sc[i]; differ != (cols[i] == "t.v") {
			t.Errorf("column %s: differs %v, want only t.v to", cols[i], differ)
		}
	}

	r, err := OpenRebuild(newDB(t, "r.db", schema, "INSERT INTO t VALUES (1, 'old', 0), (2, 'replaced', 0), (3, 'gone', 0)"))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	for _, s := range []string{"BEGIN", "UPDATE t SET v = 'x', n = :n WHERE id = 1", "INSERT OR REPLACE INTO t VALUES (2, 'y', NULL)",
		"DELETE FROM t WHERE id = 3", "INSERT INTO w VALUES ('k', 1)", "COMMIT"} {
		var names []string
		var args []any
		if s == "UPDATE t SET v = 'x', n = :n WHERE id = 1" {
			names, args = []string{"n"}, []any{1.5}
		}
		if err := r.Exec(s, names, args); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	changed, err := r.Settle()
	if err != nil || !changed {
		t.Fatalf("Settle = %v, %v; want changes", changed, err)
	}
	got := map[string]uint64{}
	for i, c := range r.Columns() {
		got[c] = r.Sums()[i]
	}
	for i, c := range cols {
		if got[c] != sa[i] {
			t.Errorf("column %s: the rebuild's sum %x, the database's %x", c, got[c], sa[i])
		}
	}
	if changed, err := r.Settle(); err != nil || changed {
		t.Errorf("a second Settle = %v, %v; want no changes", changed, err)
	}
}
