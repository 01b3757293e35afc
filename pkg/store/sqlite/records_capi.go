//go:build cgo

package sqlite

import (
	"errors"

	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/store/sqlite/internal/capi"
)

// capiRecs is a record table's statements through the C API shim, and
// the row buffers its calls copy values through: every op one call into
// C, as for the kv statements.
type capiRecs struct {
	stmts recStatements[*capi.Stmt]
	in    capi.Row // the values of a write, end to end
	out   capi.Row // the row a read copies out
	cols  [][]byte // out's columns
}

var (
	_ store.Recorder      = (*capiConn)(nil)
	_ store.RecordScanner = (*capiConn)(nil)
	_ tableConn           = (*capiConn)(nil)
)

func (c *capiConn) prepareTable(t store.Table) error {
	return c.recs.stmts.prepareTable(t, func(sql string) (*capi.Stmt, error) {
		s, _, err := c.c.Prepare(sql)
		return s, c.d.wrap(err)
	})
}

// rowOf lays values end to end in the write buffer.
func (r *capiRecs) rowOf(values [][]byte) *capi.Row {
	r.in.Data = r.in.Data[:0]
	r.in.Lens = r.in.Lens[:0]
	for _, v := range values {
		r.in.Data = append(r.in.Data, v...)
		r.in.Lens = capi.AppendLen(r.in.Lens, len(v))
	}
	return &r.in
}

// InsertRecord runs the INSERT in one call: an existing key fails with
// class constraint.
func (c *capiConn) InsertRecord(key []byte, values [][]byte) error {
	r := &c.recs
	if r.stmts.prepared == nil {
		return errNoTable
	}
	if len(values) != r.stmts.fields {
		return store.ErrFieldCount(len(values), r.stmts.fields)
	}
	row := r.rowOf(values)
	return c.txn.write(func() error {
		_, err := r.stmts.insert.WriteRow(key, 1, row, 2)
		return err
	})
}

// ReadRecord runs the SELECT of every column, in one call.
func (c *capiConn) ReadRecord(key []byte, field int, dst [][]byte) ([][]byte, error) {
	if c.recs.stmts.prepared == nil {
		return dst[:0], errNoTable
	}
	if err := c.recs.stmts.checkField(field); err != nil {
		return dst[:0], err
	}
	err := c.txn.read(func() error {
		var err error
		dst, err = c.readRecord(key, field, dst)
		return err
	})
	if err != nil {
		return dst[:0], err
	}
	return dst, nil
}

// readRecord runs the read statement once: the fields are columns 1 on.
func (c *capiConn) readRecord(key []byte, field int, dst [][]byte) ([][]byte, error) {
	r := &c.recs
	if err := r.stmts.read.ReadRow(key, 1, r.stmts.fields, &r.out); err != nil {
		return dst, notFound(err)
	}
	r.cols = r.out.Columns(r.cols)
	return pick(r.stmts.fields, field, dst, func(i int) []byte { return r.cols[i] }), nil
}

// UpdateRecord runs the UPDATE of one field or of every field, in one
// call.
func (c *capiConn) UpdateRecord(key []byte, field int, values [][]byte) error {
	r := &c.recs
	if r.stmts.prepared == nil {
		return errNoTable
	}
	s, err := r.stmts.update(field, values)
	if err != nil {
		return err
	}
	row := r.rowOf(values)
	return c.txn.write(func() error { return c.updateRow(s, key, row) })
}

// updateRow runs an update statement once; no row changed is
// ErrNotFound.
func (c *capiConn) updateRow(s *capi.Stmt, key []byte, row *capi.Row) error {
	changes, err := s.WriteRow(key, len(row.Lens)+1, row, 1)
	if err == nil && changes == 0 {
		err = store.ErrNotFound
	}
	return err
}

// ReadModifyWrite runs the read and the update in one BEGIN IMMEDIATE …
// COMMIT (or inside the open batch).
func (c *capiConn) ReadModifyWrite(key []byte, readField, writeField int, values [][]byte) error {
	r := &c.recs
	if r.stmts.prepared == nil {
		return errNoTable
	}
	if err := r.stmts.checkField(readField); err != nil {
		return err
	}
	s, err := r.stmts.update(writeField, values)
	if err != nil {
		return err
	}
	row := r.rowOf(values)
	var dst [][]byte
	return c.txn.write(func() error {
		var err error
		if dst, err = c.readRecord(key, readField, dst); err != nil {
			return err
		}
		return c.updateRow(s, key, row)
	})
}

// ScanRecords runs the range SELECT in one call; with visit, the rows are
// copied out and visited after it.
func (c *capiConn) ScanRecords(from []byte, n int, field int, visit func(key []byte, values [][]byte)) (int, error) {
	r := &c.recs
	if r.stmts.prepared == nil {
		return 0, errNoTable
	}
	if err := r.stmts.checkField(field); err != nil {
		return 0, err
	}
	read := 0
	err := c.txn.read(func() error {
		var err error
		if visit == nil {
			read, err = r.stmts.scan.ScanRows(from, n, 1, r.stmts.fields, nil)
			return err
		}
		var rows capi.Row
		cols := r.stmts.fields + 1 // the key, then the fields
		if read, err = r.stmts.scan.ScanRows(from, n, 0, cols, &rows); err != nil {
			return err
		}
		var dst [][]byte
		all := rows.Columns(nil)
		for i := range read {
			at := all[i*cols : (i+1)*cols]
			dst = pick(r.stmts.fields, field, dst, func(f int) []byte { return at[f+1] })
			visit(at[0], dst)
		}
		return nil
	})
	if errors.Is(err, capi.ErrNoRow) {
		err = store.ErrNotFound
	}
	return read, err
}
