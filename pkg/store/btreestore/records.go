package btreestore

import (
	"github.com/gobench/gobench/pkg/store"
)

// record is one record of the table: its key and its fields, encoded as
// one value (store.AppendRecord).
type record struct {
	key string
	rec []byte
}

func lessRecord(a, b record) bool { return a.key < b.key }

// Tables reports record tables kept in key order: scans walk the tree.
func (Driver) Tables() store.TableSupport { return store.TableSupport{Ordered: true} }

var (
	_ store.Tabular       = Driver{}
	_ store.Recorder      = conn{}
	_ store.RecordScanner = conn{}
)

// InsertRecord adds key's record; an existing key is a constraint error.
func (c conn) InsertRecord(key []byte, values [][]byte) error {
	if _, err := c.d.table.RecordFields(values); err != nil {
		return err
	}
	r := record{key: string(key), rec: store.AppendRecord(nil, values)}
	c.d.mu.Lock()
	defer c.d.mu.Unlock()
	if c.d.recs.Has(r) {
		return store.Wrap(store.Constraint, store.ErrConstraint)
	}
	c.d.recs.ReplaceOrInsert(r)
	return nil
}

// ReadRecord reads key's fields.
func (c conn) ReadRecord(key []byte, field int, dst [][]byte) ([][]byte, error) {
	n, err := c.d.table.FieldCount()
	if err != nil {
		return dst[:0], err
	}
	c.d.mu.RLock()
	defer c.d.mu.RUnlock()
	r, ok := c.d.recs.Get(record{key: string(key)})
	if !ok {
		return dst[:0], store.ErrNotFound
	}
	return store.ReadEncoded(r.rec, n, field, dst)
}

// UpdateRecord replaces one field's value, or every field's.
func (c conn) UpdateRecord(key []byte, field int, values [][]byte) error {
	return c.ReadModifyWrite(key, -2, field, values)
}

// ReadModifyWrite reads and updates key's record under the tree's write
// lock: no other write comes between them. A readField of -2 reads
// nothing (UpdateRecord).
func (c conn) ReadModifyWrite(key []byte, readField, writeField int, values [][]byte) error {
	n, err := c.d.table.FieldCount()
	if err != nil {
		return err
	}
	c.d.mu.Lock()
	defer c.d.mu.Unlock()
	r, ok := c.d.recs.Get(record{key: string(key)})
	if !ok {
		return store.ErrNotFound
	}
	if readField > -2 {
		if _, err := store.ReadEncoded(r.rec, n, readField, nil); err != nil {
			return err
		}
	}
	upd, err := store.UpdateEncoded(nil, r.rec, n, writeField, values)
	if err != nil {
		return err
	}
	r.rec = upd
	c.d.recs.ReplaceOrInsert(r)
	return nil
}

// ScanRecords walks the tree from the first key at or above from.
func (c conn) ScanRecords(from []byte, n int, field int, visit func(key []byte, values [][]byte)) (int, error) {
	fields, err := c.d.table.FieldCount()
	if err != nil {
		return 0, err
	}
	read := 0
	var dst [][]byte
	c.d.mu.RLock()
	defer c.d.mu.RUnlock()
	if n <= 0 {
		return 0, nil
	}
	c.d.recs.AscendGreaterOrEqual(record{key: string(from)}, func(r record) bool {
		read++
		if dst, err = store.ReadEncoded(r.rec, fields, field, dst); err != nil {
			return false
		}
		if visit != nil {
			visit([]byte(r.key), dst)
		}
		return read < n
	})
	return read, err
}
