package dbdigest

import (
	"reflect"
	"testing"
)

// TestRebuildBindsByIndex: a replay's statements run again on the
// rebuild's copy with their arguments as a trace keeps them, by SQLite's
// parameter index, whatever form the parameters take (the replay binds
// them so); each row holds the values the parameters were bound to.
func TestRebuildBindsByIndex(t *testing.T) {
	tests := []struct {
		name string
		sql  string
		args []any
		want []any // the row's a, b, c
	}{
		{"positional", "INSERT INTO b VALUES ('positional', ?, ?, ?)", []any{int64(1), "x", 2.5}, []any{int64(1), "x", 2.5}},
		{"numbered", "INSERT INTO b VALUES ('numbered', ?3, ?1, ?2)", []any{"x", "y", "z"}, []any{"z", "x", "y"}},
		{"colon", "INSERT INTO b VALUES ('colon', :u, :v, :u)", []any{int64(7), "v"}, []any{int64(7), "v", int64(7)}},
		{"at", "INSERT INTO b VALUES ('at', @u, @v, NULL)", []any{int64(7), "v"}, []any{int64(7), "v", nil}},
		{"dollar", "INSERT INTO b VALUES ('dollar', $u, $v, $_w)", []any{int64(7), "v", "w"}, []any{int64(7), "v", "w"}},
		{"mix", "INSERT INTO b VALUES ('mix', ?, :u, ?4)", []any{int64(1), "u", nil, "four"}, []any{int64(1), "u", "four"}},
		{"unbound", "INSERT INTO b VALUES ('unbound', :u, :v, ?)", []any{"u"}, []any{"u", nil, nil}},
	}
	path := newDB(t, "b.db", "CREATE TABLE b (name TEXT PRIMARY KEY, a, b, c)")
	r, err := OpenRebuild(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range tests {
		if err := r.Exec(tt.sql, nil, tt.args); err != nil {
			t.Errorf("%s: %s: %v", tt.name, tt.sql, err)
		}
	}
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	db, conn, err := open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	defer conn.Close()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := make([]any, 3)
			err := conn.QueryRowContext(t.Context(), "SELECT a, b, c FROM b WHERE name = ?", tt.name).Scan(&got[0], &got[1], &got[2])
			if err != nil {
				t.Fatalf("reading the row: %v", err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("%s with %v wrote %v; want %v", tt.sql, tt.args, got, tt.want)
			}
		})
	}
}
