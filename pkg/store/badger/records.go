package badger

import (
	"errors"

	"github.com/dgraph-io/badger/v4"

	"github.com/gobench/gobench/pkg/store"
)

// Records of a table live under 'r' + their text key, each one value
// (store.AppendRecord); badger keeps keys in bytewise order, so a scan is
// an iterator's walk.

var (
	_ store.Recorder      = (*conn)(nil)
	_ store.RecordScanner = (*conn)(nil)
)

// rk returns the badger key of a record, in a new slice.
func rk(key []byte) []byte { return append([]byte{recPrefix}, key...) }

// InsertRecord adds a new record; an existing key is class constraint.
func (c *conn) InsertRecord(key []byte, values [][]byte) error {
	if _, err := c.table.RecordFields(values); err != nil {
		return err
	}
	k, rec := rk(key), store.AppendRecord(nil, values)
	return c.update(func(txn *badger.Txn) error {
		ok, err := exists(txn, k)
		switch {
		case err != nil:
			return err
		case ok:
			return store.Wrap(store.Constraint, errors.New("the record exists"))
		}
		return txn.Set(k, rec)
	})
}

// ReadRecord reads key's record.
func (c *conn) ReadRecord(key []byte, field int, dst [][]byte) ([][]byte, error) {
	n, err := c.table.FieldCount()
	if err != nil {
		return dst[:0], err
	}
	k := rk(key)
	err = c.view(func(txn *badger.Txn) error {
		item, err := txn.Get(k)
		if err != nil {
			return err
		}
		return item.Value(func(v []byte) (err error) {
			dst, err = store.ReadEncoded(v, n, field, dst)
			return err
		})
	})
	if err != nil {
		return dst[:0], err
	}
	return dst, nil
}

// UpdateRecord rewrites key's record with one field's value, or every
// field's, replaced, in one transaction.
func (c *conn) UpdateRecord(key []byte, field int, values [][]byte) error {
	return c.ReadModifyWrite(key, -2, field, values)
}

// ReadModifyWrite reads key's record and writes it back updated in one
// transaction: one that another's write to the key came between fails
// busy at its commit. A readField of -2 reads only what the update needs
// (UpdateRecord).
func (c *conn) ReadModifyWrite(key []byte, readField, writeField int, values [][]byte) error {
	n, err := c.table.FieldCount()
	if err != nil {
		return err
	}
	k := rk(key)
	return c.update(func(txn *badger.Txn) error {
		old, err := get(txn, k, nil)
		if err != nil {
			return err
		}
		if readField > -2 {
			if _, err := store.ReadEncoded(old, n, readField, nil); err != nil {
				return err
			}
		}
		rec, err := store.UpdateEncoded(nil, old, n, writeField, values)
		if err != nil {
			return err
		}
		return txn.Set(k, rec)
	})
}

// ScanRecords walks an iterator from the first record at or above from.
func (c *conn) ScanRecords(from []byte, n int, field int, visit func(key []byte, values [][]byte)) (int, error) {
	fields, err := c.table.FieldCount()
	if err != nil {
		return 0, err
	}
	var dst [][]byte
	return c.scan(recPrefix, rk(from), n, true, func(item *badger.Item) error {
		return item.Value(func(v []byte) (err error) {
			if dst, err = store.ReadEncoded(v, fields, field, dst); err == nil && visit != nil {
				visit(item.Key()[1:], dst)
			}
			return err
		})
	})
}
