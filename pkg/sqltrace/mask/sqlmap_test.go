package mask

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gobench/gobench/pkg/sqltrace"
)

// slotString renders a slot as "p1=users.email" or "'lit'=users.email".
func slotString(sql string, s Slot) string {
	what := sql[s.Start:s.End]
	if s.Param > 0 {
		what = fmt.Sprintf("p%d", s.Param)
	}
	return what + "=" + s.Table + "." + s.Column
}

func TestParse(t *testing.T) {
	schema := map[string][]string{"users": {"id", "name", "email"}}
	cases := []struct {
		sql    string
		tables string
		slots  string // each slot, deduplicated, in order found
	}{
		{"INSERT INTO users (name, email) VALUES (?, ?)", "users", "p1=users.name p2=users.email"},
		{"insert into main.Users(\"Email\", [name]) values (:e, :n), (:e2, 'bob')", "users", "p1=users.email p2=users.name p3=users.email 'bob'=users.name"},
		{"INSERT INTO users VALUES (10, 'Dave', ?)", "users", "10=users.id 'Dave'=users.name p1=users.email"},
		{"INSERT INTO users VALUES (?, lower(?), ?)", "users", "p1=users.id p3=users.email"},
		{"INSERT OR REPLACE INTO users (id, email) VALUES (?1, ?1)", "users", "p1=users.id p1=users.email"},
		{"UPDATE users SET email = ?, name = upper(?) WHERE id = ?", "users", "p1=users.email p3=users.id"},
		{"UPDATE OR IGNORE users SET name=? WHERE email=?", "users", "p1=users.name p2=users.email"},
		{"SELECT id FROM users WHERE email = ?", "users", "p1=users.email"},
		{"SELECT id FROM users WHERE ? = email AND name IS NOT ?", "users", "p1=users.email p2=users.name"},
		{"SELECT * FROM users u JOIN orders o ON o.user_id = u.id WHERE u.email IN (?, ?, 'x')", "users orders", "p1=users.email p2=users.email 'x'=users.email"},
		{"SELECT * FROM users u, orders o WHERE email = ? AND o.item <> @item", "users orders", "p1=.email p2=orders.item"},
		{"SELECT * FROM users WHERE lower(email) = lower(?)", "users", ""},
		{"SELECT * FROM users WHERE email LIKE ?", "users", ""},
		{"SELECT * FROM users WHERE id = -5 -- email = 'no'", "users", "-5=users.id"},
		{"DELETE FROM users WHERE email NOT IN ($a, $b)", "users", "p1=users.email p2=users.email"},
		{"UPDATE users SET name = ?, email = ? WHERE id$x = ?", "users", "p1=users.name p2=users.email p3=users.id$x"}, // $ inside a name is the name's, as SQLite reads it
		{"INSERT INTO t(a) VALUES (?) ON CONFLICT(a) DO UPDATE SET b = ?", "t", "p1=t.a p2=t.b"},
		{"SELECT 'it''s' FROM users WHERE name = 'O''Brien'", "users", "'O''Brien'=users.name"},
		{"", "", ""},
		{"INSERT INTO", "", ""},
		{"SELECT ?5", "", ""},
	}
	for _, c := range cases {
		st := Parse(c.sql, func(t string) []string { return schema[t] })
		var got []string
		seen := map[string]bool{}
		for _, s := range st.Slots {
			if k := slotString(c.sql, s); !seen[k] {
				seen[k] = true
				got = append(got, k)
			}
		}
		if g := strings.Join(got, " "); g != c.slots {
			t.Errorf("Parse(%q) slots = %q, want %q", c.sql, g, c.slots)
		}
		if g := strings.Join(st.Tables, " "); g != c.tables {
			t.Errorf("Parse(%q) tables = %q, want %q", c.sql, g, c.tables)
		}
	}
}

func TestParseParams(t *testing.T) {
	for sql, want := range map[string]int{"?": 1, "? ?": 2, "?3 ?": 4, ":a :b :a": 2, "@x ?7 $y": 8, "'?' ?": 1} {
		if got := Parse(sql, nil).Params; got != want {
			t.Errorf("Parse(%q).Params = %d, want %d", sql, got, want)
		}
	}
}

func TestCreateColumns(t *testing.T) {
	cases := map[string]string{
		"CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT, email TEXT UNIQUE)":                 "users: id name email",
		"create table if not exists main.\"T\" (a, b varchar(10, 2), PRIMARY KEY (a), CHECK (b>0))": "t: a b",
		"CREATE INDEX i ON t(a)":     ": ",
		"CREATE TABLE t AS SELECT 1": ": ",
	}
	for sql, want := range cases {
		tbl, cols := createColumns(sql)
		if got := tbl + ": " + strings.Join(cols, " "); got != want {
			t.Errorf("createColumns(%q) = %q, want %q", sql, got, want)
		}
	}
}

func TestValue(t *testing.T) {
	k, other := Key("k1"), Key("k2")
	vals := []sqltrace.Value{
		{Type: sqltrace.ValueText, Bytes: []byte("alice@example.org")},
		{Type: sqltrace.ValueText, Bytes: []byte("a")},
		{Type: sqltrace.ValueBlob, Bytes: []byte{1, 2, 3}},
		{Type: sqltrace.ValueInt, Int: 42},
		{Type: sqltrace.ValueInt, Int: -42},
		{Type: sqltrace.ValueFloat, Float: 1.5},
	}
	for _, v := range vals {
		a, b := k.Value(v), k.Value(v)
		if fmt.Sprint(a) != fmt.Sprint(b) {
			t.Errorf("%v: two substitutes %v and %v", v, a, b)
		}
		if a.Type != v.Type {
			t.Errorf("%v: substitute of type %v", v, a.Type)
		}
		if fmt.Sprint(a) == fmt.Sprint(v) || fmt.Sprint(a) == fmt.Sprint(other.Value(v)) {
			t.Errorf("%v: substitute %v is the value, or the same under another key", v, a)
		}
		if (v.Type == sqltrace.ValueText || v.Type == sqltrace.ValueBlob) && len(a.Bytes) != max(len(v.Bytes), minLen) {
			t.Errorf("%v: substitute of %d bytes", v, len(a.Bytes))
		}
		if v.Type == sqltrace.ValueInt && (a.Int < 0) != (v.Int < 0) {
			t.Errorf("%v: substitute %d of another sign", v, a.Int)
		}
	}
	null := sqltrace.Value{Type: sqltrace.ValueNull}
	if k.Value(null).Type != sqltrace.ValueNull {
		t.Error("NULL was replaced")
	}
}

func TestParseColumns(t *testing.T) {
	cols, err := ParseColumns("Users.Email, users.name")
	if err != nil || len(cols) != 2 || cols[0].String() != "users.email" || cols[1].String() != "users.name" {
		t.Fatalf("ParseColumns = %v, %v", cols, err)
	}
	for _, bad := range []string{"", "users", "users.", ".email", "a.b.c", "users.email,"} {
		if _, err := ParseColumns(bad); err == nil {
			t.Errorf("ParseColumns(%q) took it", bad)
		}
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"INSERT INTO users (name, email) VALUES (?, ?)", "UPDATE t SET a = ?1 WHERE b IN (:x, 'y', X'00')", "SELECT * FROM a x JOIN b ON x.c = ? -- '", "'unterminated", "[x", "/* c"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, sql string) {
		st := Parse(sql, func(string) []string { return []string{"a", "b"} })
		for _, s := range append(st.Slots, st.Literals...) {
			if s.Start < 0 || s.End > len(sql) || s.Start > s.End {
				t.Fatalf("slot %+v outside the text of %d bytes", s, len(sql))
			}
			if s.Param > st.Params {
				t.Fatalf("slot %+v beyond the %d parameters", s, st.Params)
			}
		}
		createColumns(sql)
		for _, l := range st.Literals {
			literalValue(sql[l.Start:l.End])
		}
	})
}
