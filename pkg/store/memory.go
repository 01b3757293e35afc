package store

import (
	"context"
	"sync"
)

// InProcess is the base of a Driver whose data lives in the memory of
// one process (the map and btree ceilings): embed it for Share and
// InMemory.
type InProcess struct{}

var (
	_ Sharer   = InProcess{}
	_ Resident = InProcess{}
)

// Share reports that the data lives in one process's memory.
func (InProcess) Share() Share { return ShareInMemory }

// InMemory reports that the data lives in memory, whatever cfg says.
func (InProcess) InMemory(Config) bool { return true }

// MemIndex is where a MemStore keeps values by key: a map, a B-tree.
// MemStore's lock guards it.
type MemIndex[K any] interface {
	// Get returns key's value.
	Get(key K) ([]byte, bool)
	// Set stores key's value, which it may keep.
	Set(key K, v []byte)
	// Delete removes key, reporting whether it was there.
	Delete(key K) bool
	// Clear removes every key.
	Clear()
}

// MapIndex is a MemIndex in a Go map.
type MapIndex[K comparable] map[K][]byte

// Get returns key's value.
func (m MapIndex[K]) Get(key K) ([]byte, bool) { v, ok := m[key]; return v, ok }

// Set stores key's value.
func (m MapIndex[K]) Set(key K, v []byte) { m[key] = v }

// Delete removes key, reporting whether it was there.
func (m MapIndex[K]) Delete(key K) bool {
	_, ok := m[key]
	delete(m, key)
	return ok
}

// Clear removes every key.
func (m MapIndex[K]) Clear() { clear(m) }

// MemStore is a store kept in one process's memory: values by key, and a
// record table's records each encoded as one value (AppendRecord), in
// two indexes behind one lock, so that a read-modify-write has no other
// write between its read and its write. Its connections are MemConns.
type MemStore struct {
	mu    sync.RWMutex
	kv    MemIndex[uint64]
	recs  MemIndex[string]
	table *Table
}

var _ Store = (*MemStore)(nil)

// NewMemStore returns an empty store over the two indexes; table is the
// record table, if any.
func NewMemStore(kv MemIndex[uint64], recs MemIndex[string], table *Table) *MemStore {
	return &MemStore{kv: kv, recs: recs, table: table}
}

// Init empties the store.
func (s *MemStore) Init(context.Context) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.kv.Clear()
	s.recs.Clear()
	return nil
}

// Conn returns a connection.
func (s *MemStore) Conn(context.Context) (Conn, error) { return MemConn{s}, nil }

// Close does nothing: the data goes with the store.
func (s *MemStore) Close() error { return nil }

// Reading runs f under the store's read lock: a scan of an index.
func (s *MemStore) Reading(f func()) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	f()
}

// MemConn is a connection to a MemStore: every op takes the store's lock.
type MemConn struct{ s *MemStore }

var (
	_ Conn     = MemConn{}
	_ Updater  = MemConn{}
	_ Deleter  = MemConn{}
	_ Inserter = MemConn{}
	_ Recorder = MemConn{}
)

// Insert adds key; an existing key is a constraint error.
func (c MemConn) Insert(key uint64, value []byte) error {
	v := append([]byte(nil), value...) // the caller reuses value
	c.s.mu.Lock()
	defer c.s.mu.Unlock()
	if _, ok := c.s.kv.Get(key); ok {
		return Wrap(Constraint, ErrConstraint)
	}
	c.s.kv.Set(key, v)
	return nil
}

// Get reads key's value into dst.
func (c MemConn) Get(key uint64, dst []byte) ([]byte, error) {
	c.s.mu.RLock()
	v, ok := c.s.kv.Get(key)
	dst = append(dst[:0], v...)
	c.s.mu.RUnlock()
	if !ok {
		return dst, ErrNotFound
	}
	return dst, nil
}

// Put stores key's value.
func (c MemConn) Put(key uint64, value []byte) error {
	v := append([]byte(nil), value...)
	c.s.mu.Lock()
	c.s.kv.Set(key, v)
	c.s.mu.Unlock()
	return nil
}

// Update replaces an existing key's value.
func (c MemConn) Update(key uint64, value []byte) error {
	v := append([]byte(nil), value...)
	c.s.mu.Lock()
	defer c.s.mu.Unlock()
	if _, ok := c.s.kv.Get(key); !ok {
		return ErrNotFound
	}
	c.s.kv.Set(key, v)
	return nil
}

// Delete removes an existing key.
func (c MemConn) Delete(key uint64) error {
	c.s.mu.Lock()
	defer c.s.mu.Unlock()
	if !c.s.kv.Delete(key) {
		return ErrNotFound
	}
	return nil
}

// Close does nothing.
func (c MemConn) Close() error { return nil }

// InsertRecord adds key's record; an existing key is a constraint error.
func (c MemConn) InsertRecord(key []byte, values [][]byte) error {
	if _, err := c.s.table.RecordFields(values); err != nil {
		return err
	}
	rec := AppendRecord(nil, values)
	c.s.mu.Lock()
	defer c.s.mu.Unlock()
	if _, ok := c.s.recs.Get(string(key)); ok {
		return Wrap(Constraint, ErrConstraint)
	}
	c.s.recs.Set(string(key), rec)
	return nil
}

// ReadRecord reads key's fields.
func (c MemConn) ReadRecord(key []byte, field int, dst [][]byte) ([][]byte, error) {
	n, err := c.s.table.FieldCount()
	if err != nil {
		return dst[:0], err
	}
	c.s.mu.RLock()
	defer c.s.mu.RUnlock()
	rec, ok := c.s.recs.Get(string(key))
	if !ok {
		return dst[:0], ErrNotFound
	}
	return ReadEncoded(rec, n, field, dst)
}

// UpdateRecord replaces one field's value, or every field's.
func (c MemConn) UpdateRecord(key []byte, field int, values [][]byte) error {
	return c.ReadModifyWrite(key, -2, field, values)
}

// ReadModifyWrite reads and updates key's record under the store's write
// lock: no other write comes between them. A readField of -2 reads
// nothing (UpdateRecord).
func (c MemConn) ReadModifyWrite(key []byte, readField, writeField int, values [][]byte) error {
	n, err := c.s.table.FieldCount()
	if err != nil {
		return err
	}
	c.s.mu.Lock()
	defer c.s.mu.Unlock()
	rec, ok := c.s.recs.Get(string(key))
	if !ok {
		return ErrNotFound
	}
	if readField > -2 {
		if _, err := ReadEncoded(rec, n, readField, nil); err != nil {
			return err
		}
	}
	upd, err := UpdateEncoded(nil, rec, n, writeField, values)
	if err != nil {
		return err
	}
	c.s.recs.Set(string(key), upd)
	return nil
}
