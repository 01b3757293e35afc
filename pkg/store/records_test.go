package store_test

import (
	"errors"
	"testing"

	"github.com/gobench/gobench/pkg/store"
)

// A record write to a store without a table, or with another number of
// values than the table has fields, fails with the class the engines
// report; a whole record passes.
func TestRecordFields(t *testing.T) {
	t.Parallel()
	var none *store.Table
	if _, err := none.FieldCount(); !errors.Is(err, store.ErrNoTable) || store.Classify(err) != store.Other {
		t.Errorf("no table: %v (class %v), want ErrNoTable of class other", err, store.Classify(err))
	}
	table := &store.Table{Name: "usertable", Fields: 2}
	for _, tt := range []struct {
		values [][]byte
		want   error
	}{
		{[][]byte{[]byte("a"), []byte("b")}, nil},
		{[][]byte{[]byte("a")}, store.ErrInvalid},
		{nil, store.ErrInvalid},
	} {
		n, err := table.RecordFields(tt.values)
		if n != 2 || !errors.Is(err, tt.want) || (tt.want == nil) != (err == nil) {
			t.Errorf("RecordFields(%d values) = %d, %v; want 2, %v", len(tt.values), n, err, tt.want)
		}
	}
	if _, err := none.RecordFields(nil); !errors.Is(err, store.ErrNoTable) {
		t.Errorf("no table: %v, want ErrNoTable", err)
	}
}
