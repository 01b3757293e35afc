package pebble

import (
	"errors"

	"github.com/gobench/gobench/pkg/store"
)

// Records of a table live under 'r' + their text key, each one value
// (store.AppendRecord); pebble keeps keys in bytewise order, so a scan is
// an iterator's walk.

var (
	_ store.Recorder      = (*conn)(nil)
	_ store.RecordScanner = (*conn)(nil)
)

// rk returns the pebble key of a record, in a new slice (pebble's batch
// keeps no reference to it past the call, but keys of records vary in
// length).
func rk(key []byte) []byte { return append([]byte{recPrefix}, key...) }

// InsertRecord adds a new record; an existing key is class constraint.
func (c *conn) InsertRecord(key []byte, values [][]byte) error {
	if _, err := c.d.table.RecordFields(values); err != nil {
		return err
	}
	k := rk(key)
	return c.guarded(k, func() error {
		ok, err := c.exists(k)
		switch {
		case err != nil:
			return err
		case ok:
			return store.Wrap(store.Constraint, errors.New("the record exists"))
		}
		c.rec = store.AppendRecord(c.rec[:0], values)
		return c.set(k, c.rec)
	})
}

// ReadRecord reads key's record.
func (c *conn) ReadRecord(key []byte, field int, dst [][]byte) ([][]byte, error) {
	n, err := c.d.table.FieldCount()
	if err != nil {
		return dst[:0], err
	}
	if c.rec, err = c.get(rk(key), c.rec); err != nil {
		return dst[:0], err
	}
	return store.ReadEncoded(c.rec, n, field, dst)
}

// UpdateRecord rewrites key's record with one field's value, or every
// field's, replaced.
func (c *conn) UpdateRecord(key []byte, field int, values [][]byte) error {
	return c.ReadModifyWrite(key, -2, field, values)
}

// ReadModifyWrite reads key's record and writes it back updated, holding
// key's lock between the two outside a batch. A readField of -2 reads only
// what the update needs (UpdateRecord).
func (c *conn) ReadModifyWrite(key []byte, readField, writeField int, values [][]byte) error {
	n, err := c.d.table.FieldCount()
	if err != nil {
		return err
	}
	k := rk(key)
	return c.guarded(k, func() error {
		old, err := c.get(k, nil)
		if err != nil {
			return err
		}
		if readField > -2 {
			if _, err := store.ReadEncoded(old, n, readField, nil); err != nil {
				return err
			}
		}
		if c.rec, err = store.UpdateEncoded(c.rec[:0], old, n, writeField, values); err != nil {
			return err
		}
		return c.set(k, c.rec)
	})
}

// ScanRecords walks an iterator from the first record at or above from.
func (c *conn) ScanRecords(from []byte, n int, field int, visit func(key []byte, values [][]byte)) (int, error) {
	fields, err := c.d.table.FieldCount()
	if err != nil {
		return 0, err
	}
	it, err := c.iter(rk(from), []byte{recPrefix + 1})
	if err != nil {
		return 0, wrap(err)
	}
	read := 0
	var dst [][]byte
	for ok := it.First(); ok && read < n; ok = it.Next() {
		read++
		v, err := it.ValueAndErr()
		if err == nil {
			dst, err = store.ReadEncoded(v, fields, field, dst)
		}
		if err != nil {
			it.Close()
			return read, wrap(err)
		}
		if visit != nil {
			visit(it.Key()[1:], dst)
		}
	}
	return read, wrap(errors.Join(it.Error(), it.Close()))
}
