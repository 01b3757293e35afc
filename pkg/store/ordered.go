package store

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"syscall"
)

// Space is where an ordered key-value engine keeps one kind of key: the
// key-value data (8-byte big-endian keys, so that they sort numerically)
// or a record table's records (under their text keys). An engine keeps
// each in a bucket, or under a prefix, of its own.
type Space uint8

// The spaces of an ordered engine.
const (
	SpaceKV Space = iota
	SpaceRecords
)

// Prefix is the byte an engine that keeps both spaces in one range of
// keys puts before a key of the space: 'k' for the key-value data, 'r'
// for records.
func (s Space) Prefix() byte {
	if s == SpaceRecords {
		return 'r'
	}
	return 'k'
}

// KV is an ordered engine's view of one space inside one of its
// transactions (or, for an engine without, under the key's lock): what
// OrderedConn needs of it.
type KV interface {
	// Get appends key's value to dst[:0]; a missing key is ErrNotFound.
	Get(key, dst []byte) ([]byte, error)
	// Has reports whether key has a value.
	Has(key []byte) (bool, error)
	// Set writes value under key. The engine copies what it keeps past
	// the call: the caller reuses both.
	Set(key, value []byte) error
	// Delete removes key.
	Delete(key []byte) error
}

// Ordered is what an ordered key-value engine (bbolt, pebble, badger)
// gives OrderedConn: views of its spaces, in the connection's open batch
// where one is open, else in a transaction of their own.
type Ordered interface {
	// ReadSpace runs fn on a read-only view of space s.
	ReadSpace(s Space, fn func(KV) error) error
	// WriteKey runs fn, which reads key of space s and may write it, as
	// one atomic step committed before WriteKey returns (outside a batch).
	WriteKey(s Space, key []byte, fn func(KV) error) error
	// ScanSpace calls fn on the keys of space s from the first at or above
	// from, in order, up to n of them, with their values where values is
	// set (else nil); key and value are valid only during the call. It
	// returns how many it visited.
	ScanSpace(s Space, from []byte, n int, values bool, fn func(key, value []byte) error) (int, error)
	// LastSpace calls fn on the highest key of space s in [lo, hi] and its
	// value (valid only during the call), seeking from hi downwards, and
	// returns whether the range held one.
	LastSpace(s Space, lo, hi []byte, fn func(key, value []byte) error) (bool, error)
}

// KVConn is a Conn with every key-value capability (Updater, Deleter,
// Inserter, Scanner, Latester, Batcher): what an engine of them all asserts of its
// connection at once.
type KVConn interface {
	Conn
	Updater
	Deleter
	Inserter
	Scanner
	Latester
	Batcher
}

// OrderedConn is a connection's key-value and record operations over an
// Ordered engine, written once for every such engine: embed it in the
// engine's connection, beside its Txn.
type OrderedConn struct {
	eng   Ordered
	table *Table
	key   [8]byte
	rec   []byte // a record being read or encoded, reused
}

var (
	_ Updater       = (*OrderedConn)(nil)
	_ Deleter       = (*OrderedConn)(nil)
	_ Inserter      = (*OrderedConn)(nil)
	_ Scanner       = (*OrderedConn)(nil)
	_ Latester      = (*OrderedConn)(nil)
	_ Recorder      = (*OrderedConn)(nil)
	_ RecordScanner = (*OrderedConn)(nil)
)

// NewOrderedConn returns the operations of a connection to eng, whose
// store keeps table (nil for none).
func NewOrderedConn(eng Ordered, table *Table) OrderedConn {
	return OrderedConn{eng: eng, table: table}
}

// k returns key as the 8 big-endian bytes the key-value space keeps, in
// a reused buffer.
func (c *OrderedConn) k(key uint64) []byte {
	binary.BigEndian.PutUint64(c.key[:], key)
	return c.key[:]
}

// Get appends key's value to dst[:0].
func (c *OrderedConn) Get(key uint64, dst []byte) ([]byte, error) {
	k := c.k(key)
	err := c.eng.ReadSpace(SpaceKV, func(kv KV) (err error) {
		dst, err = kv.Get(k, dst)
		return err
	})
	if err != nil {
		return dst[:0], err
	}
	return dst, nil
}

// Put writes value under key.
func (c *OrderedConn) Put(key uint64, value []byte) error {
	k := c.k(key)
	return c.eng.WriteKey(SpaceKV, k, func(kv KV) error { return kv.Set(k, value) })
}

// Update replaces the value of an existing key; a missing one is
// ErrNotFound.
func (c *OrderedConn) Update(key uint64, value []byte) error {
	k := c.k(key)
	return c.eng.WriteKey(SpaceKV, k, func(kv KV) error {
		if err := mustHave(kv, k); err != nil {
			return err
		}
		return kv.Set(k, value)
	})
}

// Insert adds a new key; an existing one is class constraint.
func (c *OrderedConn) Insert(key uint64, value []byte) error {
	k := c.k(key)
	return c.eng.WriteKey(SpaceKV, k, func(kv KV) error { return insert(kv, k, value, "the key exists") })
}

// Delete removes an existing key; a missing one is ErrNotFound.
func (c *OrderedConn) Delete(key uint64) error {
	k := c.k(key)
	return c.eng.WriteKey(SpaceKV, k, func(kv KV) error {
		if err := mustHave(kv, k); err != nil {
			return err
		}
		return kv.Delete(k)
	})
}

// Scan walks the keys in order from the first at or above from.
func (c *OrderedConn) Scan(from uint64, n int) (int, error) {
	return c.eng.ScanSpace(SpaceKV, c.k(from), n, false, func(_, _ []byte) error { return nil })
}

// Last reads the highest key in [lo, hi] and its value.
func (c *OrderedConn) Last(lo, hi uint64, dst []byte) (uint64, []byte, error) {
	var l, h [8]byte
	binary.BigEndian.PutUint64(l[:], lo)
	binary.BigEndian.PutUint64(h[:], hi)
	var key uint64
	dst = dst[:0]
	found, err := c.eng.LastSpace(SpaceKV, l[:], h[:], func(k, v []byte) error {
		if len(k) != 8 {
			return fmt.Errorf("key-value space holds a key of %d bytes, not 8", len(k))
		}
		key, dst = binary.BigEndian.Uint64(k), append(dst, v...)
		return nil
	})
	switch {
	case err != nil:
		return 0, dst[:0], err
	case !found:
		return 0, dst[:0], ErrNotFound
	}
	return key, dst, nil
}

// mustHave is nil where key has a value, ErrNotFound where it has none.
func mustHave(kv KV, key []byte) error {
	ok, err := kv.Has(key)
	switch {
	case err != nil:
		return err
	case !ok:
		return ErrNotFound
	}
	return nil
}

// insert writes a key that must not exist: one that does is class
// Constraint, saying exists.
func insert(kv KV, key, value []byte, exists string) error {
	ok, err := kv.Has(key)
	switch {
	case err != nil:
		return err
	case ok:
		return Wrap(Constraint, errors.New(exists))
	}
	return kv.Set(key, value)
}

// InsertRecord adds a new record; an existing key is class constraint.
func (c *OrderedConn) InsertRecord(key []byte, values [][]byte) error {
	if _, err := c.table.RecordFields(values); err != nil {
		return err
	}
	return c.eng.WriteKey(SpaceRecords, key, func(kv KV) error {
		c.rec = AppendRecord(c.rec[:0], values)
		return insert(kv, key, c.rec, "the record exists")
	})
}

// ReadRecord reads key's record: every field with field < 0, else field
// alone, valid until the connection's next op.
func (c *OrderedConn) ReadRecord(key []byte, field int, dst [][]byte) ([][]byte, error) {
	n, err := c.table.FieldCount()
	if err != nil {
		return dst[:0], err
	}
	err = c.eng.ReadSpace(SpaceRecords, func(kv KV) (err error) {
		c.rec, err = kv.Get(key, c.rec)
		return err
	})
	if err != nil {
		return dst[:0], err
	}
	return ReadEncoded(c.rec, n, field, dst)
}

// UpdateRecord rewrites key's record with one field's value, or every
// field's, replaced, in one atomic step.
func (c *OrderedConn) UpdateRecord(key []byte, field int, values [][]byte) error {
	return c.ReadModifyWrite(key, -2, field, values)
}

// ReadModifyWrite reads key's record and writes it back updated in one
// atomic step (the engine's WriteKey: a transaction, or the key's lock). A
// readField of -2 reads only what the update needs (UpdateRecord).
func (c *OrderedConn) ReadModifyWrite(key []byte, readField, writeField int, values [][]byte) error {
	n, err := c.table.FieldCount()
	if err != nil {
		return err
	}
	return c.eng.WriteKey(SpaceRecords, key, func(kv KV) error {
		old, err := kv.Get(key, nil)
		if err != nil {
			return err
		}
		if readField > -2 {
			if _, err := ReadEncoded(old, n, readField, nil); err != nil {
				return err
			}
		}
		if c.rec, err = UpdateEncoded(c.rec[:0], old, n, writeField, values); err != nil {
			return err
		}
		return kv.Set(key, c.rec)
	})
}

// ScanRecords walks the records in key order from the first at or above
// from.
func (c *OrderedConn) ScanRecords(from []byte, n int, field int, visit func(key []byte, values [][]byte)) (int, error) {
	fields, err := c.table.FieldCount()
	if err != nil {
		return 0, err
	}
	var dst [][]byte
	return c.eng.ScanSpace(SpaceRecords, from, n, true, func(k, v []byte) (err error) {
		if dst, err = ReadEncoded(v, fields, field, dst); err == nil && visit != nil {
			visit(k, dst)
		}
		return err
	})
}

// CountLive counts what the spaces of an ordered engine's store hold
// (LiveCounter), through a connection of its own: each key as its bytes
// (a key-value key as its 8), and each value's bytes.
func CountLive(ctx context.Context, st Store) (Live, error) {
	c, err := st.Conn(ctx)
	if err != nil {
		return Live{}, err
	}
	defer c.Close()
	o, ok := c.(Ordered)
	if !ok {
		return Live{}, fmt.Errorf("counting a store's keys: its connection %T keeps no ordered spaces", c)
	}
	var l Live
	for _, s := range []Space{SpaceKV, SpaceRecords} {
		if _, err := o.ScanSpace(s, nil, math.MaxInt, true, func(k, v []byte) error {
			l.Keys++
			l.Bytes += int64(len(k) + len(v))
			return nil
		}); err != nil {
			return Live{}, err
		}
	}
	return l, nil
}

// WrapOS classifies an error of an engine by what the operating system
// said: errors classified already (and ErrForeign, ErrInvalid) stay as
// they are; a full disk or quota is Full; an I/O or permission error IO;
// anything else Other. An engine classifies its own errors first.
func WrapOS(err error) error {
	var se *Error
	switch {
	case err == nil:
		return nil
	case errors.As(err, &se), Classify(err) != Other, errors.Is(err, ErrForeign), errors.Is(err, ErrInvalid):
		return err // classified already
	case errors.Is(err, syscall.ENOSPC), errors.Is(err, syscall.EDQUOT):
		return Wrap(Full, err)
	case errors.Is(err, syscall.EIO), errors.Is(err, fs.ErrPermission):
		return Wrap(IO, err)
	}
	return Wrap(Other, err)
}
