package mask

import (
	"slices"
	"testing"
)

func TestParseInsert(t *testing.T) {
	for _, c := range []struct {
		sql    string
		ok     bool
		table  string
		cols   []string
		rows   int
		colEnd string // the text from ColumnsEnd
		rowEnd string // the text from RowEnd
	}{
		{"INSERT INTO users(name, email) VALUES (?, ?)", true, "users", []string{"name", "email"}, 1, ") VALUES (?, ?)", ")"},
		{`insert or replace into main."Users" ("Name") values (lower(?)) on conflict do nothing`, true, "users", []string{"name"}, 1, ") values (lower(?)) on conflict do nothing", ") on conflict do nothing"},
		{"INSERT INTO t VALUES (1, 'a,b'), (2, ?)", true, "t", nil, 2, "", ")"},
		{"INSERT INTO t(a) SELECT 1", false, "", nil, 0, "", ""},
		{"INSERT INTO t DEFAULT VALUES", false, "", nil, 0, "", ""},
		{"INSERT INTO t(a, b", false, "", nil, 0, "", ""},
		{"UPDATE t SET a = ?", false, "", nil, 0, "", ""},
	} {
		ins, ok := ParseInsert(c.sql)
		if ok != c.ok {
			t.Errorf("%s: ok %v, want %v", c.sql, ok, c.ok)
			continue
		}
		if !ok {
			continue
		}
		if ins.Table != c.table || !slices.Equal(ins.Columns, c.cols) || ins.Rows != c.rows {
			t.Errorf("%s: %+v, want table %s columns %v rows %d", c.sql, ins, c.table, c.cols, c.rows)
		}
		if c.colEnd != "" && c.sql[ins.ColumnsEnd:] != c.colEnd || c.colEnd == "" && ins.ColumnsEnd != -1 {
			t.Errorf("%s: columns end at %d", c.sql, ins.ColumnsEnd)
		}
		if c.sql[ins.RowEnd:] != c.rowEnd && !(c.rows > 1 && c.sql[ins.RowEnd] == ')') {
			t.Errorf("%s: row ends at %d (%q)", c.sql, ins.RowEnd, c.sql[ins.RowEnd:])
		}
	}
}

func TestPagingParams(t *testing.T) {
	for _, c := range []struct {
		sql  string
		want []int
	}{
		{"SELECT a FROM t WHERE b = ? LIMIT ? OFFSET ?", []int{2, 3}},
		{"SELECT a FROM t LIMIT ?, ?", []int{1, 2}},
		{"SELECT a FROM t WHERE b = ? LIMIT 5", nil},
		{"SELECT a FROM t WHERE limit_ = ?", nil},
	} {
		if got := PagingParams(c.sql); !slices.Equal(got, c.want) {
			t.Errorf("%s: %v, want %v", c.sql, got, c.want)
		}
	}
}

// FuzzParseInsert: any text parses without a panic, and the offsets it
// gives are parentheses of the text, in order.
func FuzzParseInsert(f *testing.F) {
	for _, s := range []string{"INSERT INTO t(a, b) VALUES (?, ?)", "insert into t values (1), (2)", "INSERT INTO t(", "INSERT INTO t() VALUES ("} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, sql string) {
		ins, ok := ParseInsert(sql)
		Params(sql)
		PagingParams(sql)
		if !ok {
			return
		}
		if ins.RowEnd < 0 || ins.RowEnd >= len(sql) || sql[ins.RowEnd] != ')' {
			t.Fatalf("%q: row end %d", sql, ins.RowEnd)
		}
		if ins.ColumnsEnd >= 0 && (ins.ColumnsEnd >= ins.RowEnd || sql[ins.ColumnsEnd] != ')') {
			t.Fatalf("%q: columns end %d, row end %d", sql, ins.ColumnsEnd, ins.RowEnd)
		}
	})
}
