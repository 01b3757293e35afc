package store

import (
	"encoding/binary"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// Table is a table of records a store keeps besides its key-value data:
// text keys, each with Fields text fields, as YCSB's JDBC binding creates
// it (CREATE TABLE usertable(YCSB_KEY TEXT PRIMARY KEY, FIELD0 TEXT, …)).
// A store opened with Config.Table set creates the table in Init (empty)
// and hands out connections that implement Recorder. Engines without
// SQL keep a record as one value (the fields encoded) under its key;
// only SQL engines use the names.
type Table struct {
	// Name is the table's name (usertable), Key its key column
	// (YCSB_KEY), and Field the prefix of its field columns (FIELD: the
	// columns are FIELD0, FIELD1, …).
	Name  string `json:"name"`
	Key   string `json:"key"`
	Field string `json:"field"`
	// Fields is the number of fields of every record.
	Fields int `json:"fields"`
}

// OwnMark is the comment a SQL engine writes into the definition of
// every table gobench creates (CREATE TABLE usertable /* created by
// gobench */ (…)), where SQLite keeps it: it tells gobench's own tables,
// which a run drops and creates anew, from another program's of the same
// name, which it never touches.
const OwnMark = "/* created by gobench */"

// MaxFields bounds a table's fields: every field is a column, and SQLite
// allows 2,000 by default; each connection prepares a statement per field.
const MaxFields = 1000

// MaxRecordKey bounds a record key's length in bytes (LMDB's default
// limit on keys is 511).
const MaxRecordKey = 500

// identifier is an SQL name gobench writes into statements unquoted.
var identifier = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]{0,63}$`)

// IsPlainName reports whether name is a plain SQL name (letters, digits
// and _, not first a digit, at most 64), which gobench writes into
// statements unquoted.
func IsPlainName(name string) bool { return identifier.MatchString(name) }

// FieldName returns the column name of field i.
func (t Table) FieldName(i int) string { return t.Field + strconv.Itoa(i) }

// Validate checks the names (plain SQL identifiers) and the field count.
func (t Table) Validate() error {
	for _, n := range []struct{ what, v string }{{"table name", t.Name}, {"key column", t.Key}, {"field prefix", t.Field}} {
		if !identifier.MatchString(n.v) {
			return fmt.Errorf("record table: %s %q is not a plain SQL name (letters, digits and _, not first a digit)", n.what, n.v)
		}
	}
	if t.Fields < 1 || t.Fields > MaxFields {
		return fmt.Errorf("record table: %d fields is out of range (want 1 to %d)", t.Fields, MaxFields)
	}
	for i := range t.Fields {
		if strings.EqualFold(t.FieldName(i), t.Key) {
			return fmt.Errorf("record table: the key column %q is also the name of field %d (give the key or the field prefix another name)", t.Key, i)
		}
	}
	return nil
}

// TableSupport is what an engine's record tables can do.
type TableSupport struct {
	// Ordered: the engine keeps records in key order (bytewise, as
	// strings sort), and its connections implement RecordScanner.
	Ordered bool
}

// Tabular is implemented by a Driver whose stores keep a Config.Table
// and whose connections then implement Recorder (and RecordScanner, when
// Ordered). Plans that need records are refused before anything runs on
// a driver without it, and scans on one that keeps no key order; the
// conformance suite holds a driver to what it declares.
type Tabular interface {
	Tables() TableSupport
}

// TablesOf returns what d's record tables can do, and false when d keeps
// none.
func TablesOf(d Driver) (TableSupport, bool) {
	t, ok := d.(Tabular)
	if !ok {
		return TableSupport{}, false
	}
	return t.Tables(), true
}

// Recorder is implemented by the Conn of a store opened with a Table: the
// operations of YCSB's core workload. Keys and values are the caller's,
// valid only during the call, as for Put. Outside a batch (Batcher) every
// write is its own transaction, acknowledged when the method returns nil;
// inside one, it is acknowledged by the batch's Commit.
type Recorder interface {
	// InsertRecord adds key with one value per field, in field order; an
	// existing key fails with class Constraint and changes nothing.
	InsertRecord(key []byte, values [][]byte) error
	// ReadRecord reads key's fields: every field in order with field < 0,
	// else field alone, into dst (dst[i] appended to from dst[i][:0], dst
	// grown as needed), and returns them: Fields values, or one. An engine
	// may read more than asked (the JDBC binding selects every column). A
	// missing key is ErrNotFound.
	ReadRecord(key []byte, field int, dst [][]byte) ([][]byte, error)
	// UpdateRecord replaces field's value with values[0] or, with field <
	// 0, every field's with values; other fields keep theirs. A missing
	// key is ErrNotFound.
	UpdateRecord(key []byte, field int, values [][]byte) error
	// ReadModifyWrite reads key as ReadRecord(key, readField) does, then
	// updates it as UpdateRecord(key, writeField, values) does, both in
	// one transaction that takes the write lock up front where the engine
	// has locks (so that no other write comes between them); outside a
	// batch it is acknowledged when it returns nil. A missing key is
	// ErrNotFound, and nothing is written.
	ReadModifyWrite(key []byte, readField, writeField int, values [][]byte) error
}

// RecordScanner is implemented by the Conn of a store opened with a Table
// on an engine that keeps records in key order (TableSupport.Ordered).
type RecordScanner interface {
	// ScanRecords reads up to n records in key order from the first key at
	// or above from, each with every field (field < 0) or field alone,
	// and returns how many it read. visit, when not nil, sees each key and
	// its values, valid only during the call; the measured path passes
	// nil.
	ScanRecords(from []byte, n int, field int, visit func(key []byte, values [][]byte)) (int, error)
}

// AppendRecord appends a record's values, encoded as one value (each a
// uvarint length and its bytes, in field order), to dst: how engines
// without columns keep a record under its key.
func AppendRecord(dst []byte, values [][]byte) []byte {
	for _, v := range values {
		dst = binary.AppendUvarint(dst, uint64(len(v)))
		dst = append(dst, v...)
	}
	return dst
}

// errRecord is a stored record that does not decode.
var errRecord = errors.New("a stored record does not decode")

// FieldSlots returns dst sized for a read of a table of fields fields,
// as Recorder.ReadRecord returns it: every field with field < 0, else
// field alone; the buffers dst holds are kept for reuse.
func FieldSlots(dst [][]byte, fields, field int) [][]byte {
	n := fields
	if field >= 0 {
		n = 1
	}
	for len(dst) < n {
		dst = append(dst, nil)
	}
	return dst[:n]
}

// ReadEncoded decodes a record that AppendRecord encoded into dst, as
// Recorder.ReadRecord returns it: every field with field < 0, else field
// alone; fields is the table's field count.
func ReadEncoded(rec []byte, fields, field int, dst [][]byte) ([][]byte, error) {
	if field >= fields {
		return dst[:0], fmt.Errorf("%w: field %d of a table of %d", ErrInvalid, field, fields)
	}
	dst = FieldSlots(dst, fields, field)
	for i := 0; i < fields; i++ {
		l, k := binary.Uvarint(rec)
		if k <= 0 || l > uint64(len(rec)-k) {
			return dst[:0], Wrap(Other, errRecord)
		}
		v := rec[k : k+int(l)]
		rec = rec[k+int(l):]
		switch {
		case field < 0:
			dst[i] = append(dst[i][:0], v...)
		case i == field:
			dst[0] = append(dst[0][:0], v...)
		}
	}
	if len(rec) != 0 {
		return dst[:0], Wrap(Other, errRecord)
	}
	return dst, nil
}

// UpdateEncoded appends to dst the record rec (encoded by AppendRecord,
// of fields fields) with field's value replaced by values[0], or every
// field's by values with field < 0.
func UpdateEncoded(dst, rec []byte, fields, field int, values [][]byte) ([]byte, error) {
	if field < 0 {
		if len(values) != fields {
			return dst, fmt.Errorf("%w: %d values for a table of %d fields", ErrInvalid, len(values), fields)
		}
		return AppendRecord(dst, values), nil
	}
	if field >= fields || len(values) != 1 {
		return dst, fmt.Errorf("%w: an update of field %d takes one value (got %d) in a table of %d fields", ErrInvalid, field, len(values), fields)
	}
	for i := 0; i < fields; i++ {
		l, k := binary.Uvarint(rec)
		if k <= 0 || l > uint64(len(rec)-k) {
			return dst, Wrap(Other, errRecord)
		}
		v := rec[k : k+int(l)]
		rec = rec[k+int(l):]
		if i == field {
			v = values[0]
		}
		dst = binary.AppendUvarint(dst, uint64(len(v)))
		dst = append(dst, v...)
	}
	return dst, nil
}

// ErrNoTable is a record operation on a store opened without a Table.
var ErrNoTable = errors.New("no record table: the store was opened without one")

// ErrFieldCount is the error of a write that gives a record another
// number of values than its table has fields.
func ErrFieldCount(got, fields int) error {
	return fmt.Errorf("%w: %d values for a record of %d fields", ErrInvalid, got, fields)
}

// FieldCount returns the table's number of fields; on a nil table (a
// store opened without one) it is ErrNoTable, class Other.
func (t *Table) FieldCount() (int, error) {
	if t == nil {
		return 0, Wrap(Other, ErrNoTable)
	}
	return t.Fields, nil
}

// RecordFields is FieldCount for a write of a whole record: values must
// hold one value per field (ErrFieldCount).
func (t *Table) RecordFields(values [][]byte) (int, error) {
	n, err := t.FieldCount()
	if err == nil && len(values) != n {
		err = ErrFieldCount(len(values), n)
	}
	return n, err
}
