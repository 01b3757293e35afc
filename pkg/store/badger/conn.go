package badger

import (
	"bytes"
	"errors"

	"github.com/dgraph-io/badger/v4"

	"github.com/gobench/gobench/pkg/store"
)

// Keys are prefixed by their space (store.Space.Prefix): key-value data
// under 'k', records under 'r'.

// conn is one worker's connection: the process's one badger handle, the
// batch's transaction while one is open (a batch that another
// transaction conflicts with fails busy at its commit, none of it
// written), and the key-value and record operations of
// store.OrderedConn over its keys.
type conn struct {
	store.Txn[*badger.Txn] // the open batch, if any
	store.OrderedConn
	db *badger.DB
}

var (
	_ store.KVConn  = (*conn)(nil) // and a Recorder, RecordScanner and TxProber: store.OrderedConn's, store.Txn's
	_ store.Ordered = (*conn)(nil)
)

func newConn(bdb *badger.DB, table *store.Table) *conn {
	c := &conn{db: bdb}
	c.Txn = store.NewTxn("badger",
		func() (*badger.Txn, error) { return bdb.NewTransaction(true), nil },
		func(txn *badger.Txn) error { defer txn.Discard(); return wrap(txn.Commit()) },
		func(txn *badger.Txn) error { txn.Discard(); return nil })
	c.OrderedConn = store.NewOrderedConn(c, table)
	return c
}

// ReadSpace runs fn on space s in the open batch, or in a read-only
// transaction.
func (c *conn) ReadSpace(s store.Space, fn func(store.KV) error) error {
	if txn, ok := c.Current(); ok {
		return wrap(fn(txnKV{txn, s.Prefix()}))
	}
	return wrap(c.db.View(func(txn *badger.Txn) error { return fn(txnKV{txn, s.Prefix()}) }))
}

// WriteKey runs fn on space s in the open batch, or in a read-write
// transaction committed before it returns (badger's writer groups
// concurrent commits): one that another's write to the key came between
// fails busy at its commit.
func (c *conn) WriteKey(s store.Space, _ []byte, fn func(store.KV) error) error {
	if txn, ok := c.Current(); ok {
		return wrap(fn(txnKV{txn, s.Prefix()}))
	}
	return wrap(c.db.Update(func(txn *badger.Txn) error { return fn(txnKV{txn, s.Prefix()}) }))
}

// ScanSpace walks an iterator over space s from the first key at or
// above from.
func (c *conn) ScanSpace(s store.Space, from []byte, n int, values bool, fn func(k, v []byte) error) (int, error) {
	p := s.Prefix()
	read := 0
	err := c.ReadSpace(s, func(kv store.KV) error {
		it := kv.(txnKV).txn.NewIterator(badger.IteratorOptions{PrefetchValues: values, PrefetchSize: min(n, 100), Prefix: []byte{p}})
		defer it.Close()
		for it.Seek(append([]byte{p}, from...)); it.Valid() && read < n; it.Next() {
			read++
			item := it.Item()
			var err error
			if values {
				err = item.Value(func(v []byte) error { return fn(item.Key()[1:], v) })
			} else {
				err = fn(item.Key()[1:], nil)
			}
			if err != nil {
				return err
			}
		}
		return nil
	})
	return read, err
}

// LastSpace walks a reverse iterator over space s from hi: its first key,
// the highest at or below hi, when it is at or above lo.
func (c *conn) LastSpace(s store.Space, lo, hi []byte, fn func(k, v []byte) error) (bool, error) {
	p := s.Prefix()
	found := false
	err := c.ReadSpace(s, func(kv store.KV) error {
		it := kv.(txnKV).txn.NewIterator(badger.IteratorOptions{Reverse: true, PrefetchSize: 1, Prefix: []byte{p}})
		defer it.Close()
		it.Seek(append([]byte{p}, hi...)) // reversed: the highest key at or below
		if !it.Valid() || bytes.Compare(it.Item().Key()[1:], lo) < 0 {
			return nil
		}
		found = true
		item := it.Item()
		return item.Value(func(v []byte) error { return fn(item.Key()[1:], v) })
	})
	return found, err
}

// txnKV is one space of a badger transaction as store.KV.
type txnKV struct {
	txn    *badger.Txn
	prefix byte
}

// k returns key of the space, prefixed, in a new slice: badger keeps a
// transaction's keys until it commits.
func (kv txnKV) k(key []byte) []byte { return append([]byte{kv.prefix}, key...) }

// Get appends key's value to dst[:0].
func (kv txnKV) Get(key, dst []byte) ([]byte, error) {
	item, err := kv.txn.Get(kv.k(key))
	if err != nil {
		return dst[:0], err
	}
	return item.ValueCopy(dst[:0])
}

func (kv txnKV) Has(key []byte) (bool, error) {
	_, err := kv.txn.Get(kv.k(key))
	if errors.Is(err, badger.ErrKeyNotFound) {
		return false, nil
	}
	return err == nil, err
}

// Set writes value under key; badger keeps both until the commit, so it
// gets its own copies.
func (kv txnKV) Set(key, value []byte) error {
	return kv.txn.Set(kv.k(key), append([]byte(nil), value...))
}

func (kv txnKV) Delete(key []byte) error { return kv.txn.Delete(kv.k(key)) }
