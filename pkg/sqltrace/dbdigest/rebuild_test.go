package dbdigest

import (
	"reflect"
	"testing"

	"github.com/gobench/gobench/pkg/sqltrace/tracetest"
)

// TestRebuildBindsByIndex: a replay's statements run again on the
// rebuild's copy with their arguments as a trace keeps them, by SQLite's
// parameter index, whatever form the parameters take (the replay binds
// them so); each row holds the values the parameters were bound to.
func TestRebuildBindsByIndex(t *testing.T) {
	tests := tracetest.BindCases()
	path := newDB(t, "b.db", tracetest.BindSchema)
	r, err := OpenRebuild(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range tests {
		if err := r.Exec(tt.SQL, nil, tt.Args); err != nil {
			t.Errorf("%s: %s: %v", tt.Name, tt.SQL, err)
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
		t.Run(tt.Name, func(t *testing.T) {
			got := make([]any, 3)
			err := conn.QueryRowContext(t.Context(), "SELECT a, b, c FROM b WHERE name = ?", tt.Name).Scan(&got[0], &got[1], &got[2])
			if err != nil {
				t.Fatalf("reading the row: %v", err)
			}
			if !reflect.DeepEqual(got, tt.Want) {
				t.Errorf("%s with %v wrote %v; want %v", tt.SQL, tt.Args, got, tt.Want)
			}
		})
	}
}
