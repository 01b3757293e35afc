package sqlite

import (
	"database/sql/driver"
	"io"
	"unsafe"

	"github.com/gobench/gobench/pkg/store"
)

// sqlRecs is a record table's statements on a database/sql/driver
// connection (mattn, modernc), and the argument and row buffers they
// reuse.
type sqlRecs struct {
	stmts recStatements[stmt]
	args  []driver.NamedValue // the key and a value per field
	dest  []driver.Value      // a row: the key and every field
}

var (
	_ store.Recorder      = (*conn)(nil)
	_ store.RecordScanner = (*conn)(nil)
	_ tableConn           = (*conn)(nil)
)

// text returns b as a string without copying it: the drivers copy a
// bound string before the call returns.
func text(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }

// bytesOf returns a column value as the drivers return text.
func bytesOf(v driver.Value) []byte {
	switch v := v.(type) {
	case []byte:
		return v
	case string:
		return unsafe.Slice(unsafe.StringData(v), len(v))
	}
	return nil
}

func (c *conn) prepareTable(t store.Table) error {
	if err := c.recs.stmts.prepareTable(t, c.prepareStmt); err != nil {
		return err
	}
	c.recs.args = make([]driver.NamedValue, t.Fields+1)
	for i := range c.recs.args {
		c.recs.args[i].Ordinal = i + 1
	}
	c.recs.dest = make([]driver.Value, t.Fields+1)
	return nil
}

// InsertRecord runs the INSERT: an existing key fails with class
// constraint.
func (c *conn) InsertRecord(key []byte, values [][]byte) error {
	r := &c.recs
	if r.args == nil {
		return errNoTable
	}
	if len(values) != r.stmts.fields {
		return store.ErrFieldCount(len(values), r.stmts.fields)
	}
	r.args[0].Value = text(key)
	for i, v := range values {
		r.args[i+1].Value = text(v)
	}
	return c.write(r.stmts.insert, r.args, false)
}

// ReadRecord runs the SELECT of every column.
func (c *conn) ReadRecord(key []byte, field int, dst [][]byte) ([][]byte, error) {
	if c.recs.args == nil {
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

// readRecord runs the read statement once.
func (c *conn) readRecord(key []byte, field int, dst [][]byte) ([][]byte, error) {
	r := &c.recs
	c.args1[0].Value = text(key)
	rows, err := r.stmts.read.QueryContext(bg, c.args1[:])
	if err != nil {
		return dst, err
	}
	err = rows.Next(r.dest)
	if err == nil {
		dst = pick(r.stmts.fields, field, dst, func(i int) []byte { return bytesOf(r.dest[i+1]) })
	}
	cerr := rows.Close()
	switch {
	case err == io.EOF:
		return dst, store.ErrNotFound
	case err != nil:
		return dst, err
	}
	return dst, cerr
}

// UpdateRecord runs the UPDATE of one field or of every field.
func (c *conn) UpdateRecord(key []byte, field int, values [][]byte) error {
	args, s, err := c.updateArgs(key, field, values)
	if err != nil {
		return err
	}
	return c.write(s, args, true)
}

// updateArgs binds an update's values and key.
func (c *conn) updateArgs(key []byte, field int, values [][]byte) ([]driver.NamedValue, stmt, error) {
	r := &c.recs
	if r.args == nil {
		return nil, nil, errNoTable
	}
	s, err := r.stmts.update(field, values)
	if err != nil {
		return nil, nil, err
	}
	args := r.args[:len(values)+1]
	for i, v := range values {
		args[i].Value = text(v)
	}
	args[len(values)].Value = text(key)
	return args, s, nil
}

// ReadModifyWrite runs the read and the update in one BEGIN IMMEDIATE …
// COMMIT (or inside the open batch).
func (c *conn) ReadModifyWrite(key []byte, readField, writeField int, values [][]byte) error {
	if err := c.recs.stmts.checkField(readField); c.recs.args != nil && err != nil {
		return err
	}
	args, s, err := c.updateArgs(key, writeField, values)
	if err != nil {
		return err
	}
	var dst [][]byte
	return c.txn.write(func() error {
		var err error
		if dst, err = c.readRecord(key, readField, dst); err != nil {
			return err
		}
		res, err := s.ExecContext(bg, args)
		if err == nil {
			var n int64
			if n, err = res.RowsAffected(); err == nil && n == 0 {
				err = store.ErrNotFound
			}
		}
		return err
	})
}

// ScanRecords runs the range SELECT.
func (c *conn) ScanRecords(from []byte, n int, field int, visit func(key []byte, values [][]byte)) (int, error) {
	r := &c.recs
	if r.args == nil {
		return 0, errNoTable
	}
	if err := r.stmts.checkField(field); err != nil {
		return 0, err
	}
	c.args2[0].Value = text(from)
	c.args2[1].Value = int64(n)
	read := 0
	var dst [][]byte
	err := c.txn.read(func() error {
		read = 0
		rows, err := r.stmts.scan.QueryContext(bg, c.args2[:])
		if err != nil {
			return err
		}
		for {
			if err = rows.Next(r.dest); err != nil {
				break
			}
			read++
			if visit != nil {
				dst = pick(r.stmts.fields, field, dst, func(i int) []byte { return bytesOf(r.dest[i+1]) })
				visit(bytesOf(r.dest[0]), dst)
			}
		}
		cerr := rows.Close()
		if err != io.EOF {
			return err
		}
		return cerr
	})
	return read, err
}
