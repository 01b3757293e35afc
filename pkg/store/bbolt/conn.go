package bbolt

import (
	"encoding/binary"
	"errors"

	bolt "go.etcd.io/bbolt"

	"github.com/gobench/gobench/pkg/store"
)

// conn is one worker's connection: the process's one bbolt handle, and
// the batch's transaction while one is open.
type conn struct {
	db    *bolt.DB
	batch bool     // writes go through DB.Batch (--bbolt-batch)
	tx    *bolt.Tx // the open batch, if any
	key   [8]byte

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

func (c *conn) k(key uint64) []byte {
	binary.BigEndian.PutUint64(c.key[:], key) // big-endian: keys sort numerically
	return c.key[:]
}

// view runs fn on bucket name in the open batch, or in a read-only
// transaction of its own.
func (c *conn) view(name []byte, fn func(b *bolt.Bucket) error) error {
	if c.tx != nil {
		return wrap(fn(c.tx.Bucket(name)))
	}
	return wrap(c.db.View(func(tx *bolt.Tx) error { return fn(tx.Bucket(name)) }))
}

// write runs fn on bucket name in the open batch, or in a read-write
// transaction of its own (a share of one under --bbolt-batch), committed
// before it returns.
func (c *conn) write(name []byte, fn func(b *bolt.Bucket) error) error {
	if c.tx != nil {
		return wrap(fn(c.tx.Bucket(name)))
	}
	run := c.db.Update
	if c.batch {
		run = c.db.Batch
	}
	return wrap(run(func(tx *bolt.Tx) error { return fn(tx.Bucket(name)) }))
}

func (c *conn) Get(key uint64, dst []byte) ([]byte, error) {
	k := c.k(key)
	err := c.view(kvBucket, func(b *bolt.Bucket) error {
		v := b.Get(k)
		if v == nil {
			return store.ErrNotFound
		}
		dst = append(dst[:0], v...) // v lives as long as the transaction
		return nil
	})
	if err != nil {
		return dst[:0], err
	}
	return dst, nil
}

// keep returns b as a write may hold it: bbolt keeps the slices a write
// gives it until the transaction commits, so inside a batch (whose later
// ops reuse the buffers) and under DB.Batch (whose function may run again
// after the call returned) the write gets its own copy.
func (c *conn) keep(b []byte) []byte {
	if c.tx == nil && !c.batch {
		return b
	}
	return append([]byte(nil), b...)
}

// Put writes value under key.
func (c *conn) Put(key uint64, value []byte) error {
	k, value := c.keep(c.k(key)), c.keep(value)
	return c.write(kvBucket, func(b *bolt.Bucket) error { return b.Put(k, value) })
}

// Update replaces the value of an existing key; a missing one is
// ErrNotFound.
func (c *conn) Update(key uint64, value []byte) error {
	k, value := c.keep(c.k(key)), c.keep(value)
	return c.write(kvBucket, func(b *bolt.Bucket) error {
		if b.Get(k) == nil {
			return store.ErrNotFound
		}
		return b.Put(k, value)
	})
}

// Insert adds a new key; an existing one is class constraint.
func (c *conn) Insert(key uint64, value []byte) error {
	k, value := c.keep(c.k(key)), c.keep(value)
	return c.write(kvBucket, func(b *bolt.Bucket) error {
		if b.Get(k) != nil {
			return store.Wrap(store.Constraint, errors.New("the key exists"))
		}
		return b.Put(k, value)
	})
}

// Delete removes an existing key; a missing one is ErrNotFound.
func (c *conn) Delete(key uint64) error {
	k := c.keep(c.k(key))
	return c.write(kvBucket, func(b *bolt.Bucket) error {
		if b.Get(k) == nil {
			return store.ErrNotFound
		}
		return b.Delete(k)
	})
}

// Scan walks a cursor from the first key at or above from.
func (c *conn) Scan(from uint64, n int) (int, error) {
	read := 0
	err := c.view(kvBucket, func(b *bolt.Bucket) error {
		cur := b.Cursor()
		for k, _ := cur.Seek(c.k(from)); k != nil && read < n; k, _ = cur.Next() {
			read++
		}
		return nil
	})
	return read, err
}

// Begin opens a read-write transaction: it holds bbolt's one writer lock
// until Commit or Rollback.
func (c *conn) Begin() error {
	if c.tx != nil {
		return errors.New("bbolt: a transaction is open already")
	}
	tx, err := c.db.Begin(true)
	if err != nil {
		return wrap(err)
	}
	c.tx = tx
	return nil
}

// Commit commits the batch: acknowledged when it returns nil.
func (c *conn) Commit() error {
	if c.tx == nil {
		return errors.New("bbolt: commit without a transaction")
	}
	tx := c.tx
	c.tx = nil
	return wrap(tx.Commit())
}

func (c *conn) Rollback() error {
	if c.tx == nil {
		return nil
	}
	tx := c.tx
	c.tx = nil
	return wrap(tx.Rollback())
}

// InTx reports whether a batch is open.
func (c *conn) InTx() bool { return c.tx != nil }

func (c *conn) Close() error {
	return c.Rollback()
}
