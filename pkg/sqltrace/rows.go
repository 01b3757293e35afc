package sqltrace

import (
	"encoding/binary"
	"math"
	"strings"
)

// A statement's rows, hashed (Exec.Digest): what a replay compares, row
// for row, beside how many there were. Each row is hashed by FNV-1a (64
// bits) over its values in column order, each value as
//
//	type      1 byte: 1 integer, 2 float, 3 text, 4 blob, 5 null
//	integer   8 bytes, little-endian two's complement
//	float     8 bytes, little-endian IEEE 754 bits
//	text/blob 8 bytes of length, little-endian, then the bytes (text
//	          as UTF-8)
//
// and the row's hash is mixed (splitmix64's finaliser). A statement's
// rows are combined in any order (the sum of the rows' hashes, modulo
// 2^64: two runs that return the same rows in another order agree),
// unless the statement orders them (ORDER BY: FlagOrdered), when each
// row's hash is folded in turn (digest = (digest XOR row) × FNV prime,
// from FNV's offset). The C capture library computes the same.

// Column types of a row's values, as a RowHash hashes them (SQLite's
// fundamental datatypes, numbered as sqlite3_column_type numbers them).
const (
	ColumnInt   = 1
	ColumnFloat = 2
	ColumnText  = 3
	ColumnBlob  = 4
	ColumnNull  = 5
)

const (
	fnvOffset = 14695981039346656037
	fnvPrime  = 1099511628211
)

// RowHash hashes one row; the zero value is not ready: call Begin.
type RowHash struct{ h uint64 }

// Begin starts a row.
func (r *RowHash) Begin() { r.h = fnvOffset }

func (r *RowHash) byte1(b byte) { r.h = (r.h ^ uint64(b)) * fnvPrime }

func (r *RowHash) u64(v uint64) {
	for i := 0; i < 8; i++ {
		r.byte1(byte(v >> (8 * i)))
	}
}

// Int adds an integer value.
func (r *RowHash) Int(v int64) { r.byte1(ColumnInt); r.u64(uint64(v)) }

// Float adds a float value.
func (r *RowHash) Float(v float64) { r.byte1(ColumnFloat); r.u64(math.Float64bits(v)) }

// Text adds a text value.
func (r *RowHash) Text(s string) {
	r.byte1(ColumnText)
	r.u64(uint64(len(s)))
	for i := 0; i < len(s); i++ {
		r.byte1(s[i])
	}
}

// Blob adds a blob value.
func (r *RowHash) Blob(b []byte) {
	r.byte1(ColumnBlob)
	r.u64(uint64(len(b)))
	for _, c := range b {
		r.byte1(c)
	}
}

// Null adds a NULL.
func (r *RowHash) Null() { r.byte1(ColumnNull) }

// Value adds a value as a database/sql driver returns it: nil, int64,
// float64, string (a text) or []byte (a blob). It reports false for any
// other type (a time.Time or a bool a driver made of a column's declared
// type), whose value as SQLite returned it is not known: the row has no
// digest then.
func (r *RowHash) Value(v any) bool {
	switch v := v.(type) {
	case nil:
		r.Null()
	case int64:
		r.Int(v)
	case float64:
		r.Float(v)
	case string:
		r.Text(v)
	case []byte:
		r.Blob(v)
	default:
		return false
	}
	return true
}

// Row hashes a row of values as a database/sql driver returns them (see
// Value), or reports false.
func Row[V any](vals []V) (uint64, bool) {
	var r RowHash
	r.Begin()
	for _, v := range vals {
		if !r.Value(v) {
			return 0, false
		}
	}
	return r.Sum(), true
}

// Sum returns the row's hash, mixed.
func (r *RowHash) Sum() uint64 {
	z := r.h
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// RowsDigest combines the hashes of a statement's rows, both ways: in any
// order and in order (see FlagOrdered). Its zero value is not ready:
// NewRowsDigest returns one.
type RowsDigest struct {
	Unordered, Ordered uint64
}

// NewRowsDigest returns the digest of no rows.
func NewRowsDigest() RowsDigest { return RowsDigest{Ordered: fnvOffset} }

// Add adds a row's hash (RowHash.Sum).
func (d *RowsDigest) Add(row uint64) {
	d.Unordered += row
	d.Ordered = (d.Ordered ^ row) * fnvPrime
}

// Of returns the digest an Exec of flags records: ordered with
// FlagOrdered.
func (d RowsDigest) Of(flags Flags) uint64 {
	if flags&FlagOrdered != 0 {
		return d.Ordered
	}
	return d.Unordered
}

// Ordered reports whether a statement orders its rows, as the capture
// decides it (FlagOrdered): its text holds the words ORDER BY, in any
// case, separated by white space only (a word: ASCII letters, digits, _,
// $ and bytes of UTF-8 sequences).
func Ordered(sql string) bool {
	prevOrder := false
	for i := 0; i < len(sql); {
		if !isWordByte(sql[i]) {
			if !isSpace(sql[i]) {
				prevOrder = false
			}
			i++
			continue
		}
		j := i
		for j < len(sql) && isWordByte(sql[j]) {
			j++
		}
		w := sql[i:j]
		if prevOrder && strings.EqualFold(w, "by") {
			return true
		}
		prevOrder = strings.EqualFold(w, "order")
		i = j
	}
	return false
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}

// nonDeterministic are the words of SQLite's functions and keywords whose
// result changes from run to run, lower-case.
var nonDeterministic = []string{"random(", "randomblob(", "'now'", "\"now\"", "current_timestamp", "current_date", "current_time"}

// NonDeterministic reports whether a statement's text calls a function
// whose result changes from run to run (random(), randomblob(), the
// date and time functions of 'now', CURRENT_TIMESTAMP …): its rows, or
// what it writes, differ in a replay whatever the order.
func NonDeterministic(sql string) bool {
	s := strings.ToLower(sql)
	s = strings.NewReplacer(" (", "(", "\t(", "(", "\n(", "(").Replace(s)
	for _, w := range nonDeterministic {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}

// appendDigest appends an Exec's digest of its rows.
func appendDigest(b []byte, d uint64) []byte { return binary.LittleEndian.AppendUint64(b, d) }
