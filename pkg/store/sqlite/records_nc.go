package sqlite

import (
	"errors"

	nsqlite "github.com/ncruces/go-sqlite3"

	"github.com/gobench/gobench/pkg/store"
)

var (
	_ store.Recorder      = (*ncConn)(nil)
	_ store.RecordScanner = (*ncConn)(nil)
	_ tableConn           = (*ncConn)(nil)
)

func (c *ncConn) prepareTable(t store.Table) error {
	return c.recs.prepareTable(t, func(sql string) (*nsqlite.Stmt, error) {
		s, _, err := c.c.Prepare(sql)
		return s, c.d.wrap(err)
	})
}

// finish reads a statement's error after its last step and resets it.
func finish(s *nsqlite.Stmt) error {
	err := s.Err()
	if rerr := s.Reset(); err == nil {
		err = rerr
	}
	return errors.Join(err, s.ClearBindings())
}

// InsertRecord runs the INSERT: an existing key fails with class
// constraint.
func (c *ncConn) InsertRecord(key []byte, values [][]byte) error {
	r := &c.recs
	if r.prepared == nil {
		return errNoTable
	}
	if len(values) != r.fields {
		return store.ErrFieldCount(len(values), r.fields)
	}
	return c.write(r.insert, false, func(s *nsqlite.Stmt) error {
		err := s.BindRawText(1, key)
		for i, v := range values {
			if err == nil {
				err = s.BindRawText(i+2, v)
			}
		}
		return err
	})
}

// ReadRecord runs the SELECT of every column.
func (c *ncConn) ReadRecord(key []byte, field int, dst [][]byte) ([][]byte, error) {
	if c.recs.prepared == nil {
		return dst[:0], errNoTable
	}
	if err := c.recs.checkField(field); err != nil {
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
func (c *ncConn) readRecord(key []byte, field int, dst [][]byte) ([][]byte, error) {
	s := c.recs.read
	if err := s.BindRawText(1, key); err != nil {
		return dst, err
	}
	found := s.Step()
	if found {
		dst = pick(c.recs.fields, field, dst, func(i int) []byte { return s.ColumnRawText(i + 1) })
	}
	err := finish(s)
	if err == nil && !found {
		err = store.ErrNotFound
	}
	return dst, err
}

// bindUpdate binds an update's values and key.
func (c *ncConn) bindUpdate(s *nsqlite.Stmt, key []byte, values [][]byte) error {
	var err error
	for i, v := range values {
		if err == nil {
			err = s.BindRawText(i+1, v)
		}
	}
	if err == nil {
		err = s.BindRawText(len(values)+1, key)
	}
	return err
}

// UpdateRecord runs the UPDATE of one field or of every field.
func (c *ncConn) UpdateRecord(key []byte, field int, values [][]byte) error {
	if c.recs.prepared == nil {
		return errNoTable
	}
	s, err := c.recs.update(field, values)
	if err != nil {
		return err
	}
	return c.write(s, true, func(s *nsqlite.Stmt) error { return c.bindUpdate(s, key, values) })
}

// ReadModifyWrite runs the read and the update in one BEGIN IMMEDIATE …
// COMMIT (or inside the open batch).
func (c *ncConn) ReadModifyWrite(key []byte, readField, writeField int, values [][]byte) error {
	if c.recs.prepared == nil {
		return errNoTable
	}
	if err := c.recs.checkField(readField); err != nil {
		return err
	}
	s, err := c.recs.update(writeField, values)
	if err != nil {
		return err
	}
	var dst [][]byte
	return c.txn.write(func() error {
		var err error
		if dst, err = c.readRecord(key, readField, dst); err != nil {
			return err
		}
		if err = c.bindUpdate(s, key, values); err == nil {
			err = s.Exec()
		}
		if cerr := s.ClearBindings(); err == nil {
			err = cerr
		}
		if err == nil && c.c.Changes() == 0 {
			err = store.ErrNotFound
		}
		return err
	})
}

// ScanRecords runs the range SELECT.
func (c *ncConn) ScanRecords(from []byte, n int, field int, visit func(key []byte, values [][]byte)) (int, error) {
	r := &c.recs
	if r.prepared == nil {
		return 0, errNoTable
	}
	if err := r.checkField(field); err != nil {
		return 0, err
	}
	s := r.scan
	read := 0
	var dst [][]byte
	err := c.txn.read(func() error {
		read = 0
		if err := errors.Join(s.BindRawText(1, from), s.BindInt64(2, int64(n))); err != nil {
			return err
		}
		for s.Step() {
			read++
			if visit != nil {
				dst = pick(r.fields, field, dst, func(i int) []byte { return s.ColumnRawText(i + 1) })
				visit(s.ColumnRawText(0), dst)
				continue
			}
			for i := range r.fields {
				_ = s.ColumnRawText(i + 1)
			}
		}
		return finish(s)
	})
	return read, err
}
