package sqlite

import (
	"fmt"
	"io"
	"strings"

	"github.com/gobench/gobench/pkg/store"
)

// A record table (store.Table) is the table YCSB's JDBC binding creates
// and the statements it runs, one per shape, prepared once per
// connection:
//
//	CREATE TABLE usertable /* created by gobench */ (YCSB_KEY TEXT PRIMARY KEY, FIELD0 TEXT, …)
//	SELECT * FROM usertable WHERE YCSB_KEY = ?
//	SELECT * FROM usertable WHERE YCSB_KEY >= ? ORDER BY YCSB_KEY LIMIT ?
//	INSERT INTO usertable (YCSB_KEY,FIELD0,…) VALUES(?,?,…)
//	UPDATE usertable SET FIELD0=?, FIELD1=?, … WHERE YCSB_KEY = ?
//	UPDATE usertable SET FIELD3=? WHERE YCSB_KEY = ?   (one per field)
//
// As in the binding, reads and scans select every column, whatever fields
// the workload asks for. Keys and values are bound as text. Writes run in
// BEGIN IMMEDIATE … COMMIT (txn), a read-modify-write as one such
// transaction.

// Tables reports record tables in key order: SQLite's index on the key
// orders scans, by text (bytewise, with the default BINARY collation).
func (d *Driver) Tables() store.TableSupport { return store.TableSupport{Ordered: true} }

var _ store.Tabular = (*Driver)(nil)

// tableSQL is the SQL of one record table.
type tableSQL struct {
	create, drop                  string
	read, scan, insert, updateAll string
	updateField                   []string
}

func newTableSQL(t store.Table) tableSQL {
	cols := make([]string, t.Fields)
	defs := make([]string, t.Fields)
	sets := make([]string, t.Fields)
	for i := range cols {
		cols[i] = t.FieldName(i)
		defs[i] = cols[i] + " TEXT"
		sets[i] = cols[i] + "=?"
	}
	s := tableSQL{
		create:    fmt.Sprintf("CREATE TABLE %s %s (%s TEXT PRIMARY KEY, %s)", t.Name, store.OwnMark, t.Key, strings.Join(defs, ", ")),
		drop:      fmt.Sprintf("DROP TABLE IF EXISTS %s", t.Name),
		read:      fmt.Sprintf("SELECT * FROM %s WHERE %s = ?", t.Name, t.Key),
		scan:      fmt.Sprintf("SELECT * FROM %s WHERE %s >= ? ORDER BY %s LIMIT ?", t.Name, t.Key, t.Key),
		insert:    fmt.Sprintf("INSERT INTO %s (%s,%s) VALUES(?%s)", t.Name, t.Key, strings.Join(cols, ","), strings.Repeat(",?", t.Fields)),
		updateAll: fmt.Sprintf("UPDATE %s SET %s WHERE %s = ?", t.Name, strings.Join(sets, ", "), t.Key),
	}
	for i := range cols {
		s.updateField = append(s.updateField, fmt.Sprintf("UPDATE %s SET %s=? WHERE %s = ?", t.Name, cols[i], t.Key))
	}
	return s
}

// recStatements are one connection's prepared record statements, of the
// binding's statement type S.
type recStatements[S io.Closer] struct {
	fields                        int
	read, scan, insert, updateAll S
	updateField                   []S
	prepared                      []S // every statement prepared, to close
}

// prepareTable prepares every statement of table t with prep. On an
// error it closes those already prepared.
func (r *recStatements[S]) prepareTable(t store.Table, prep func(sql string) (S, error)) error {
	q := newTableSQL(t)
	r.fields = t.Fields
	one := func(dst *S, sql string) error {
		s, err := prep(sql)
		if err != nil {
			_ = r.closeAll()
			return fmt.Errorf("preparing %q: %w", sql, err)
		}
		*dst = s
		r.prepared = append(r.prepared, s)
		return nil
	}
	for _, p := range []struct {
		dst *S
		sql string
	}{{&r.read, q.read}, {&r.scan, q.scan}, {&r.insert, q.insert}, {&r.updateAll, q.updateAll}} {
		if err := one(p.dst, p.sql); err != nil {
			return err
		}
	}
	r.updateField = make([]S, t.Fields)
	for i, sql := range q.updateField {
		if err := one(&r.updateField[i], sql); err != nil {
			return err
		}
	}
	return nil
}

// closeAll closes the prepared statements; a second call closes nothing.
func (r *recStatements[S]) closeAll() error {
	var first error
	for _, s := range r.prepared {
		if err := s.Close(); err != nil && first == nil {
			first = err
		}
	}
	r.prepared = nil
	return first
}

// update returns the update statement of field (every field when
// negative) and checks the number of values.
func (r *recStatements[S]) update(field int, values [][]byte) (S, error) {
	var zero S
	switch {
	case field < 0 && len(values) == r.fields:
		return r.updateAll, nil
	case field < 0:
		return zero, store.ErrFieldCount(len(values), r.fields)
	case field >= r.fields || len(values) != 1:
		return zero, fmt.Errorf("%w: an update of field %d takes one value (got %d) in a table of %d fields", store.ErrInvalid, field, len(values), r.fields)
	}
	return r.updateField[field], nil
}

// checkField refuses a field the table does not have.
func (r *recStatements[S]) checkField(field int) error {
	if field >= r.fields {
		return fmt.Errorf("%w: field %d of a table of %d", store.ErrInvalid, field, r.fields)
	}
	return nil
}

// pick copies column values, as a read returns them (every field, or
// field alone), into dst: col(i) is field i's value.
func pick(fields, field int, dst [][]byte, col func(i int) []byte) [][]byte {
	dst = store.FieldSlots(dst, fields, field)
	if field >= 0 {
		dst[0] = append(dst[0][:0], col(field)...)
		return dst
	}
	for i := range dst {
		dst[i] = append(dst[i][:0], col(i)...)
	}
	return dst
}

// tableConn is an op connection that prepares a record table's
// statements (every binding's).
type tableConn interface {
	prepareTable(t store.Table) error
}

// errNoTable is a record op on a connection of a store without a table.
var errNoTable = store.Wrap(store.Other, store.ErrNoTable)
