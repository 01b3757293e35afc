package mapstore

import (
	"github.com/gobench/gobench/pkg/store"
)

// Tables reports record tables kept in a map: in no key order, so no
// scans.
func (Driver) Tables() store.TableSupport { return store.TableSupport{} }

var (
	_ store.Tabular  = Driver{}
	_ store.Recorder = conn{}
)

// InsertRecord adds key's record; an existing key is a constraint error.
func (c conn) InsertRecord(key []byte, values [][]byte) error {
	if _, err := c.d.table.RecordFields(values); err != nil {
		return err
	}
	rec := store.AppendRecord(nil, values)
	c.d.mu.Lock()
	defer c.d.mu.Unlock()
	if _, ok := c.d.recs[string(key)]; ok {
		return store.Wrap(store.Constraint, store.ErrConstraint)
	}
	c.d.recs[string(key)] = rec
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
	rec, ok := c.d.recs[string(key)]
	if !ok {
		return dst[:0], store.ErrNotFound
	}
	return store.ReadEncoded(rec, n, field, dst)
}

// UpdateRecord replaces one field's value, or every field's.
func (c conn) UpdateRecord(key []byte, field int, values [][]byte) error {
	return c.ReadModifyWrite(key, -2, field, values)
}

// ReadModifyWrite reads and updates key's record under the map's lock:
// no other write comes between them. A readField of -2 reads nothing
// (UpdateRecord).
func (c conn) ReadModifyWrite(key []byte, readField, writeField int, values [][]byte) error {
	n, err := c.d.table.FieldCount()
	if err != nil {
		return err
	}
	c.d.mu.Lock()
	defer c.d.mu.Unlock()
	rec, ok := c.d.recs[string(key)]
	if !ok {
		return store.ErrNotFound
	}
	if readField > -2 {
		var dst [1][]byte
		if _, err := store.ReadEncoded(rec, n, readField, dst[:0]); err != nil {
			return err
		}
	}
	upd, err := store.UpdateEncoded(nil, rec, n, writeField, values)
	if err != nil {
		return err
	}
	c.d.recs[string(key)] = upd
	return nil
}
