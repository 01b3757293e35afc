package replay

import (
	"slices"
	"testing"

	"github.com/gobench/gobench/pkg/sqltrace/mask"
	"github.com/gobench/gobench/pkg/workload"
)

// remapSchema is a shop's: users with an INTEGER PRIMARY KEY and a
// UNIQUE email, orders referencing users, a keyless log.
var remapSchema = &workload.ReplayRemap{Span: 1000, Tables: []workload.RemapTable{
	{Name: "users", Columns: []string{"id", "name", "email"}, Keys: []string{"id", "email"}, Alias: "id"},
	{Name: "orders", Columns: []string{"id", "user_id", "qty"}, Keys: []string{"id", "user_id"}, Alias: "id"},
	{Name: "Log", Columns: []string{"at", "what"}},
}}

func TestAnalyzeRemap(t *testing.T) {
	tables := keyTables(remapSchema)
	for _, c := range []struct {
		name, sql       string
		touches, shared bool
		keys            []int
		rowid           bool
	}{
		{"insert with column list, key given", "INSERT INTO users(id, name, email) VALUES (?, ?, ?)", true, false, []int{1, 3}, false},
		{"insert leaving the id to SQLite", "INSERT INTO users (name, email) VALUES (?, ?)", true, false, []int{2}, true},
		{"insert without column list", "insert into users values (?, ?, ?)", true, false, []int{1, 3}, false},
		{"insert of a foreign key", "INSERT INTO orders(user_id, qty) VALUES (?, ?)", true, false, []int{1}, true},
		{"update by id", "UPDATE users SET name = ? WHERE id = ?", true, false, []int{2}, false},
		{"update of a key by key", "UPDATE orders SET user_id = ?, qty = ? WHERE id = ?", true, false, []int{1, 3}, false},
		{"delete by id", "DELETE FROM orders WHERE id = ?", true, false, []int{1}, false},
		{"select by key and more", "SELECT qty FROM orders WHERE user_id = ? AND qty = ? LIMIT ?", true, false, []int{1}, false},
		{"select by IN list", "SELECT name FROM users WHERE id IN (?, ?)", true, false, []int{1, 2}, false},
		{"join by alias", "SELECT u.name, count(o.id) FROM users u LEFT JOIN orders o ON o.user_id = u.id WHERE u.id = :uid GROUP BY u.id", true, false, []int{1}, false},
		{"upsert", "INSERT INTO users(id, name, email) VALUES (?, ?, ?) ON CONFLICT(id) DO UPDATE SET name = ?", true, false, []int{1, 3}, false},
		{"upsert on a text key", "INSERT INTO users(name, email) VALUES (?, ?) ON CONFLICT(email) DO UPDATE SET name = excluded.name", true, false, []int{2}, true},
		{"insert into a keyless table", "INSERT INTO log(at, what) VALUES (?, ?)", true, false, nil, false},
		{"a literal key", "UPDATE users SET name = ? WHERE id = 5", true, true, nil, false},
		{"a literal key inserted", "INSERT INTO users(id, name, email) VALUES (7, ?, ?)", true, true, []int{2}, false},
		{"a range of keys", "SELECT name FROM users WHERE id > ?", true, true, nil, false},
		{"a negated key", "DELETE FROM users WHERE id != ?", true, true, nil, false},
		{"a value written by an expression", "UPDATE orders SET qty = qty + ? WHERE id = ?", true, false, []int{2}, false},
		{"a key written by an expression", "UPDATE orders SET user_id = user_id + ? WHERE id = ?", true, true, []int{2}, false},
		{"a parameter in an expression", "SELECT qty FROM orders WHERE id = ? AND qty = abs(?)", true, true, []int{1}, false},
		{"no key restricts it", "SELECT max(id) FROM users", true, true, nil, false},
		{"by a column that is no key", "UPDATE users SET email = ? WHERE name = ?", true, true, []int{1}, false},
		{"a key set, none compared", "UPDATE orders SET user_id = ?", true, true, []int{1}, false},
		{"insert ... select", "INSERT INTO orders(user_id, qty) SELECT id, 1 FROM users WHERE id = ?", true, true, []int{1}, false},
		{"several rows leaving the id to SQLite", "INSERT INTO users(name, email) VALUES (?, ?), (?, ?)", true, true, []int{2, 4}, false},
		{"schema", "CREATE TABLE t (x INTEGER PRIMARY KEY)", true, true, nil, false},
		{"transaction control", "BEGIN IMMEDIATE", false, false, nil, false},
		{"a pragma", "PRAGMA journal_mode = wal", false, false, nil, false},
		{"no table", "SELECT 1", false, false, nil, false},
		{"several statements", "INSERT INTO log(at) VALUES (1); DELETE FROM log", true, true, nil, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := analyzeRemap(c.sql, tables)
			if p.touches != c.touches || p.shared != c.shared || !slices.Equal(p.keys, c.keys) || (p.rowid != nil) != c.rowid {
				t.Errorf("%s: touches %v shared %v keys %v rowid %v, want %v %v %v %v", c.sql, p.touches, p.shared, p.keys, p.rowid != nil, c.touches, c.shared, c.keys, c.rowid)
			}
		})
	}
}

// TestRemapApply: a copy moves its key parameters (integers by the span,
// text suffixed), leaves the others, and gives an INSERT the next id of
// its range; copy 0 keeps its values; a shared statement runs unchanged.
func TestRemapApply(t *testing.T) {
	r := &workload.Replay{Scale: 3, Remap: remapSchema}
	for _, c := range []struct {
		copy     int
		sql      string
		args     []any
		wantSQL  string
		wantArgs []any
	}{
		{2, "UPDATE users SET name = ? WHERE email = ?", []any{"ann", "ann@x"}, "UPDATE users SET name = ? WHERE email = ?", []any{"ann", "ann@x#2"}},
		{1, "DELETE FROM orders WHERE id = ?", []any{int64(7)}, "DELETE FROM orders WHERE id = ?", []any{int64(1007)}},
		{0, "DELETE FROM orders WHERE id = ?", []any{int64(7)}, "DELETE FROM orders WHERE id = ?", []any{int64(7)}},
		{1, "SELECT max(id) FROM users WHERE name = ?", []any{"ann"}, "SELECT max(id) FROM users WHERE name = ?", []any{"ann"}},
		{1, "INSERT INTO orders(user_id, qty) VALUES (?, ?)", []any{int64(3), int64(2)},
			`INSERT INTO orders(user_id, qty, "id") VALUES (?, ?, coalesce((SELECT "id" FROM "orders" WHERE "id" >= 1000 AND "id" < 2000 ORDER BY "id" DESC LIMIT 1), 1000) + 1)`, []any{int64(1003), int64(2)}},
		{1, "INSERT INTO users(name, email) VALUES (?, ?)", []any{"b", []byte("b@x")}, "", []any{"b", []byte("b@x#1")}},
	} {
		m := newRemapper(r, c.copy)
		rd := &Statement{SQL: c.sql, Args: c.args}
		m.apply(rd)
		if c.wantSQL != "" && rd.SQL != c.wantSQL {
			t.Errorf("copy %d of %s: text %s, want %s", c.copy, c.sql, rd.SQL, c.wantSQL)
		}
		for i := range c.wantArgs {
			if b, ok := c.wantArgs[i].([]byte); ok {
				if string(rd.Args[i].([]byte)) != string(b) {
					t.Errorf("copy %d of %s: arg %d %q, want %q", c.copy, c.sql, i, rd.Args[i], b)
				}
			} else if rd.Args[i] != c.wantArgs[i] {
				t.Errorf("copy %d of %s: arg %d %v, want %v", c.copy, c.sql, i, rd.Args[i], c.wantArgs[i])
			}
		}
	}
	if newRemapper(&workload.Replay{Scale: 1, Remap: remapSchema}, 0) != nil {
		t.Error("a replay at scale 1 remaps")
	}
}

// FuzzAnalyzeRemap: any text is analysed without a panic; a key
// parameter is one of the text's; an INSERT given an id reads back as an
// INSERT of the id's column.
func FuzzAnalyzeRemap(f *testing.F) {
	for _, s := range []string{"INSERT INTO users(name, email) VALUES (?, ?)", "UPDATE orders SET qty = qty + ? WHERE id = ?", "SELECT * FROM users u JOIN orders o ON o.user_id = u.id WHERE u.id IN (?, ?) LIMIT ?", "DELETE FROM log WHERE at < ?"} {
		f.Add(s)
	}
	tables := keyTables(remapSchema)
	f.Fuzz(func(t *testing.T, sql string) {
		p := analyzeRemap(sql, tables)
		params := len(mask.Params(sql))
		for _, k := range p.keys {
			if k < 1 || params == 0 {
				t.Fatalf("%q: key parameter %d of %d", sql, k, params)
			}
		}
		if p.rowid == nil || p.shared {
			return
		}
		ins, ok := mask.ParseInsert(p.rowidText(sql, 2, 1000))
		if !ok || !slices.Contains(ins.Columns, p.rowid.Alias) {
			t.Fatalf("%q: given an id, %q reads as %+v", sql, p.rowidText(sql, 2, 1000), ins)
		}
	})
}
