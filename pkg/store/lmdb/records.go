//go:build cgo

package lmdb

import (
	"context"

	mdb "github.com/PowerDNS/lmdb-go/lmdb"

	"github.com/gobench/gobench/pkg/store"
)

// Records of a table are kept in the environment's database under their
// text keys, each encoded as one value (store.AppendRecord). LMDB keeps
// keys in bytewise order, so a scan is a cursor walk.

// Tables reports record tables in key order: scans walk a cursor.
func (Driver) Tables() store.TableSupport { return store.TableSupport{Ordered: true} }

var (
	_ store.Tabular       = Driver{}
	_ store.Recorder      = (*conn)(nil)
	_ store.RecordScanner = (*conn)(nil)
)

// view runs fn in the open batch's transaction, or in the connection's
// read transaction, renewed for it.
func (c *conn) view(fn func(txn *mdb.Txn) error) error {
	if c.wtxn != nil {
		return wrap(fn(c.wtxn))
	}
	if err := c.rtxn.Renew(); err != nil {
		return wrap(err)
	}
	defer c.rtxn.Reset()
	return wrap(fn(c.rtxn))
}

// InsertRecord puts with MDB_NOOVERWRITE: an existing key fails with
// class constraint.
func (c *conn) InsertRecord(key []byte, values [][]byte) error {
	if _, err := c.table.RecordFields(values); err != nil {
		return err
	}
	c.rec = store.AppendRecord(c.rec[:0], values)
	return c.write(func(txn *mdb.Txn) error { return txn.Put(c.dbi, key, c.rec, mdb.NoOverwrite) })
}

// ReadRecord reads key's record in a read transaction.
func (c *conn) ReadRecord(key []byte, field int, dst [][]byte) ([][]byte, error) {
	n, err := c.table.FieldCount()
	if err != nil {
		return dst[:0], err
	}
	err = c.view(func(txn *mdb.Txn) error {
		v, err := txn.Get(c.dbi, key)
		if err != nil {
			return err
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
// field's, replaced, in one write transaction.
func (c *conn) UpdateRecord(key []byte, field int, values [][]byte) error {
	return c.ReadModifyWrite(key, -2, field, values)
}

// ReadModifyWrite reads key's record and writes it back updated in one
// write transaction (LMDB has one writer at a time: nothing comes
// between). A readField of -2 reads only what the update needs
// (UpdateRecord).
func (c *conn) ReadModifyWrite(key []byte, readField, writeField int, values [][]byte) error {
	n, err := c.table.FieldCount()
	if err != nil {
		return err
	}
	return c.write(func(txn *mdb.Txn) error {
		v, err := txn.Get(c.dbi, key)
		if err != nil {
			return err
		}
		if readField > -2 {
			if _, err := store.ReadEncoded(v, n, readField, nil); err != nil {
				return err
			}
		}
		if c.rec, err = store.UpdateEncoded(c.rec[:0], v, n, writeField, values); err != nil {
			return err
		}
		return txn.Put(c.dbi, key, c.rec, 0)
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
	err = c.view(func(txn *mdb.Txn) error {
		if n <= 0 {
			return nil
		}
		cur, err := txn.OpenCursor(c.dbi)
		if err != nil {
			return err
		}
		defer cur.Close()
		op := uint(mdb.SetRange)
		if len(from) == 0 {
			op = mdb.First // LMDB takes no empty key: the first key is at or above it
		}
		k, v, err := cur.Get(from, nil, op)
		for err == nil {
			read++
			if dst, err = store.ReadEncoded(v, fields, field, dst); err != nil {
				return err
			}
			if visit != nil {
				visit(k, dst)
			}
			if read == n {
				return nil
			}
			k, v, err = cur.Get(nil, nil, mdb.Next)
		}
		if mdb.IsNotFound(err) {
			return nil
		}
		return err
	})
	return read, err
}

var _ store.LiveCounter = (*db)(nil)

// Live counts the keys and records the environment holds, and their
// bytes, in one read transaction.
func (d *db) Live(context.Context) (store.Live, error) {
	env, dbi, err := d.open()
	if err != nil {
		return store.Live{}, err
	}
	var l store.Live
	err = env.View(func(txn *mdb.Txn) error {
		cur, err := txn.OpenCursor(dbi)
		if err != nil {
			return err
		}
		defer cur.Close()
		k, v, err := cur.Get(nil, nil, mdb.First)
		for ; err == nil; k, v, err = cur.Get(nil, nil, mdb.Next) {
			l.Keys++
			l.Bytes += int64(len(k) + len(v))
		}
		if mdb.IsNotFound(err) {
			return nil
		}
		return err
	})
	return l, wrap(err)
}
