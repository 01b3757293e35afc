package badger

import (
	"encoding/binary"
	"errors"

	"github.com/dgraph-io/badger/v4"

	"github.com/gobench/gobench/pkg/store"
)

// Key prefixes: key-value data under 'k', records under 'r'.
const (
	kvPrefix  = 'k'
	recPrefix = 'r'
)

// conn is one worker's connection: the process's one badger handle, and
// the batch's transaction while one is open.
type conn struct {
	db  *badger.DB
	txn *badger.Txn // the open batch, if any

	table *store.Table // the record table, if any
}

var (
	_ store.Conn     = (*conn)(nil)
	_ store.Updater  = (*conn)(nil)
	_ store.Deleter  = (*conn)(nil)
	_ store.Inserter = (*conn)(nil)
	_ store.Scanner  = (*conn)(nil)
	_ store.Batcher  = (*conn)(nil)
	_ store.TxProber = (*conn)(nil)
)

// k returns the badger key of a key-value key, in a new slice: badger
// keeps a transaction's keys until it commits.
func (c *conn) k(key uint64) []byte {
	b := make([]byte, 9)
	b[0] = kvPrefix
	binary.BigEndian.PutUint64(b[1:], key) // big-endian: keys sort numerically
	return b
}

// view runs fn in the open batch, or in a read-only transaction.
func (c *conn) view(fn func(txn *badger.Txn) error) error {
	if c.txn != nil {
		return wrap(fn(c.txn))
	}
	return wrap(c.db.View(fn))
}

// update runs fn in the open batch, or in a read-write transaction
// committed before it returns (badger's writer groups concurrent
// commits).
func (c *conn) update(fn func(txn *badger.Txn) error) error {
	if c.txn != nil {
		return wrap(fn(c.txn))
	}
	return wrap(c.db.Update(fn))
}

// get appends key's value to dst[:0].
func get(txn *badger.Txn, key, dst []byte) ([]byte, error) {
	item, err := txn.Get(key)
	if err != nil {
		return dst[:0], err
	}
	return item.ValueCopy(dst[:0])
}

// exists reports whether key has a value in txn.
func exists(txn *badger.Txn, key []byte) (bool, error) {
	_, err := txn.Get(key)
	if errors.Is(err, badger.ErrKeyNotFound) {
		return false, nil
	}
	return err == nil, err
}

func (c *conn) Get(key uint64, dst []byte) ([]byte, error) {
	k := c.k(key)
	err := c.view(func(txn *badger.Txn) (err error) {
		dst, err = get(txn, k, dst)
		return err
	})
	if err != nil {
		return dst[:0], err
	}
	return dst, nil
}

// Put writes value under key; badger keeps the value until the commit,
// so it gets its own copy.
func (c *conn) Put(key uint64, value []byte) error {
	k, v := c.k(key), append([]byte(nil), value...)
	return c.update(func(txn *badger.Txn) error { return txn.Set(k, v) })
}

// Update replaces the value of an existing key; a missing one is
// ErrNotFound.
func (c *conn) Update(key uint64, value []byte) error {
	k, v := c.k(key), append([]byte(nil), value...)
	return c.update(func(txn *badger.Txn) error {
		if ok, err := exists(txn, k); !ok {
			return notFound(err)
		}
		return txn.Set(k, v)
	})
}

// Insert adds a new key; an existing one is class constraint.
func (c *conn) Insert(key uint64, value []byte) error {
	k, v := c.k(key), append([]byte(nil), value...)
	return c.update(func(txn *badger.Txn) error {
		ok, err := exists(txn, k)
		switch {
		case err != nil:
			return err
		case ok:
			return store.Wrap(store.Constraint, errors.New("the key exists"))
		}
		return txn.Set(k, v)
	})
}

// Delete removes an existing key; a missing one is ErrNotFound.
func (c *conn) Delete(key uint64) error {
	k := c.k(key)
	return c.update(func(txn *badger.Txn) error {
		if ok, err := exists(txn, k); !ok {
			return notFound(err)
		}
		return txn.Delete(k)
	})
}

// notFound is ErrNotFound, or err where the read itself failed.
func notFound(err error) error {
	if err != nil {
		return err
	}
	return store.ErrNotFound
}

// scan walks an iterator over keys with prefix from the first at or
// above from, calling fn on each (with its value when values), up to n.
func (c *conn) scan(prefix byte, from []byte, n int, values bool, fn func(item *badger.Item) error) (int, error) {
	read := 0
	err := c.view(func(txn *badger.Txn) error {
		it := txn.NewIterator(badger.IteratorOptions{PrefetchValues: values, PrefetchSize: min(n, 100), Prefix: []byte{prefix}})
		defer it.Close()
		for it.Seek(from); it.Valid() && read < n; it.Next() {
			read++
			if fn != nil {
				if err := fn(it.Item()); err != nil {
					return err
				}
			}
		}
		return nil
	})
	return read, err
}

// Scan walks an iterator from the first key at or above from.
func (c *conn) Scan(from uint64, n int) (int, error) {
	return c.scan(kvPrefix, c.k(from), n, false, nil)
}

// Begin opens a read-write transaction.
func (c *conn) Begin() error {
	if c.txn != nil {
		return errors.New("badger: a transaction is open already")
	}
	c.txn = c.db.NewTransaction(true)
	return nil
}

// Commit commits the batch: acknowledged when it returns nil. A batch
// another transaction conflicts with fails busy, none of it written.
func (c *conn) Commit() error {
	if c.txn == nil {
		return errors.New("badger: commit without a transaction")
	}
	txn := c.txn
	c.txn = nil
	defer txn.Discard()
	return wrap(txn.Commit())
}

func (c *conn) Rollback() error {
	if c.txn != nil {
		c.txn.Discard()
		c.txn = nil
	}
	return nil
}

// InTx reports whether a batch is open.
func (c *conn) InTx() bool { return c.txn != nil }

func (c *conn) Close() error { return c.Rollback() }
