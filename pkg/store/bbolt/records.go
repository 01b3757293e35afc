package bbolt

import (
	"errors"

	bolt "go.etcd.io/bbolt"

	"github.com/gobench/gobench/pkg/store"
)

// Records of a table live in bucket "records" under their text keys,
// each one value (store.AppendRecord); bbolt keeps keys in bytewise
// order, so a scan is a cursor walk.

var (
	_ store.Recorder      = (*conn)(nil)
	_ store.RecordScanner = (*conn)(nil)
)

// owned returns key and values as a write may keep them (see keep).
func (c *conn) owned(key []byte, values [][]byte) ([]byte, [][]byte) {
	if c.tx == nil && !c.batch {
		return key, values
	}
	vs := make([][]byte, len(values))
	for i, v := range values {
		vs[i] = c.keep(v)
	}
	return c.keep(key), vs
}

// InsertRecord adds a new record; an existing key is class constraint.
func (c *conn) InsertRecord(key []byte, values [][]byte) error {
	if _, err := c.table.RecordFields(values); err != nil {
		return err
	}
	key, values = c.owned(key, values)
	return c.write(recordsBucket, func(b *bolt.Bucket) error {
		if b.Get(key) != nil {
			return store.Wrap(store.Constraint, errors.New("the record exists"))
		}
		return b.Put(key, store.AppendRecord(nil, values))
	})
}

// ReadRecord reads key's record in a read-only transaction.
func (c *conn) ReadRecord(key []byte, field int, dst [][]byte) ([][]byte, error) {
	n, err := c.table.FieldCount()
	if err != nil {
		return dst[:0], err
	}
	err = c.view(recordsBucket, func(b *bolt.Bucket) error {
		v := b.Get(key)
		if v == nil {
			return store.ErrNotFound
		}
		dst, err = store.ReadEncoded(v, n, field, dst)
		return err
	})
	if err != nil {
		return dst[:0], err
	}
	return dst, nil
}

// UpdateRecord rewrites key's record with one field's value, or every
// field's, replaced, in one read-write transaction.
func (c *conn) UpdateRecord(key []byte, field int, values [][]byte) error {
	return c.ReadModifyWrite(key, -2, field, values)
}

// ReadModifyWrite reads key's record and writes it back updated in one
// read-write transaction (bbolt has one writer at a time: nothing comes
// between). A readField of -2 reads only what the update needs
// (UpdateRecord).
func (c *conn) ReadModifyWrite(key []byte, readField, writeField int, values [][]byte) error {
	n, err := c.table.FieldCount()
	if err != nil {
		return err
	}
	key, values = c.owned(key, values)
	return c.write(recordsBucket, func(b *bolt.Bucket) error {
		v := b.Get(key)
		if v == nil {
			return store.ErrNotFound
		}
		if readField > -2 {
			if _, err := store.ReadEncoded(v, n, readField, nil); err != nil {
				return err
			}
		}
		rec, err := store.UpdateEncoded(nil, v, n, writeField, values)
		if err != nil {
			return err
		}
		return b.Put(key, rec)
	})
}

// ScanRecords walks a cursor from the first key at or above from.
func (c *conn) ScanRecords(from []byte, n int, field int, visit func(key []byte, values [][]byte)) (int, error) {
	fields, err := c.table.FieldCount()
	if err != nil {
		return 0, err
	}
	read := 0
	var dst [][]byte
	err = c.view(recordsBucket, func(b *bolt.Bucket) error {
		cur := b.Cursor()
		for k, v := cur.Seek(from); k != nil && read < n; k, v = cur.Next() {
			read++
			if dst, err = store.ReadEncoded(v, fields, field, dst); err != nil {
				return err
			}
			if visit != nil {
				visit(k, dst)
			}
		}
		return nil
	})
	return read, err
}
