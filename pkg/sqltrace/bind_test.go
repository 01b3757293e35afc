package sqltrace

import (
	"database/sql/driver"
	"reflect"
	"testing"
)

// TestBinding: a captured statement's arguments, kept by SQLite's
// parameter index, bind again each at its index and, at a named
// parameter's, with the parameter's name (its prefix cut), whatever the
// parameters' form; arguments are padded with NULLs or cut to the
// parameters.
func TestBinding(t *testing.T) {
	nv := func(ord int, name string, v any) driver.NamedValue {
		return driver.NamedValue{Ordinal: ord, Name: name, Value: v}
	}
	tests := []struct {
		name string
		sql  string
		args []any
		n    int
		want []driver.NamedValue
	}{
		{"positional", "INSERT INTO t VALUES (?, ?)", []any{int64(1), "a"}, -1,
			[]driver.NamedValue{nv(1, "", int64(1)), nv(2, "", "a")}},
		{"numbered", "INSERT INTO t VALUES (?3, ?1)", []any{"x", nil, "z"}, -1,
			[]driver.NamedValue{nv(1, "", "x"), nv(2, "", nil), nv(3, "", "z")}},
		{"colon", "UPDATE t SET v = :v WHERE id = :id AND w = :v", []any{"a", int64(7)}, -1,
			[]driver.NamedValue{nv(1, "v", "a"), nv(2, "id", int64(7))}},
		{"at", "UPDATE t SET v = @v WHERE id = @id", []any{"a", int64(7)}, -1,
			[]driver.NamedValue{nv(1, "v", "a"), nv(2, "id", int64(7))}},
		{"dollar", "UPDATE t SET v = $v WHERE id = $id", []any{"a", int64(7)}, -1,
			[]driver.NamedValue{nv(1, "v", "a"), nv(2, "id", int64(7))}},
		{"mix", "SELECT ?, :a, ?4, @b, ?, $c -- :d", []any{int64(1), int64(2), nil, int64(4), int64(5), int64(6), int64(7)}, -1,
			[]driver.NamedValue{nv(1, "", int64(1)), nv(2, "a", int64(2)), nv(3, "", nil), nv(4, "", int64(4)), nv(5, "b", int64(5)), nv(6, "", int64(6)), nv(7, "c", int64(7))}},
		{"unbound is NULL", "SELECT :a, :b", []any{"a"}, -1,
			[]driver.NamedValue{nv(1, "a", "a"), nv(2, "b", nil)}},
		{"extra cut", "SELECT ?", []any{"a", "b"}, -1,
			[]driver.NamedValue{nv(1, "", "a")}},
		{"driver's count", "SELECT :a", []any{"a"}, 2,
			[]driver.NamedValue{nv(1, "a", "a"), nv(2, "", nil)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := NewBinding(tt.sql)
			if got := b.Bind(tt.args, tt.n); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("NewBinding(%q).Bind(%v, %d) = %v; want %v", tt.sql, tt.args, tt.n, got, tt.want)
			}
		})
	}
}
