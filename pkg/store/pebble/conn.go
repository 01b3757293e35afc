package pebble

import (
	"encoding/binary"
	"errors"
	"hash/maphash"
	"io"
	"sync"

	"github.com/cockroachdb/pebble/v2"

	"github.com/gobench/gobench/pkg/store"
)

// Key prefixes: key-value data under 'k', records under 'r'.
const (
	kvPrefix  = 'k'
	recPrefix = 'r'
)

// keyLocks serialise, within the process, the ops that read a key before
// they write it: pebble has no transactions.
type keyLocks struct {
	seed  maphash.Seed
	once  sync.Once
	locks [256]sync.Mutex
}

// lock locks key's mutex and returns its unlock.
func (l *keyLocks) lock(key []byte) func() {
	l.once.Do(func() { l.seed = maphash.MakeSeed() })
	m := &l.locks[maphash.Bytes(l.seed, key)%uint64(len(l.locks))]
	m.Lock()
	return m.Unlock
}

// conn is one worker's connection: the process's one pebble handle, and
// the batch while one is open.
type conn struct {
	d     *db
	db    *pebble.DB
	wo    *pebble.WriteOptions
	batch *pebble.Batch // the open batch, if any (indexed)
	key   [9]byte

	rec []byte // a record being encoded, reused
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

// k returns the pebble key of a key-value key, in a reused buffer.
func (c *conn) k(key uint64) []byte {
	c.key[0] = kvPrefix
	binary.BigEndian.PutUint64(c.key[1:], key) // big-endian: keys sort numerically
	return c.key[:]
}

// get appends key's value to dst[:0], from the open batch (which sees
// its own writes) or the database.
func (c *conn) get(key, dst []byte) ([]byte, error) {
	var v []byte
	var closer io.Closer
	var err error
	if c.batch != nil {
		v, closer, err = c.batch.Get(key)
	} else {
		v, closer, err = c.db.Get(key)
	}
	if err != nil {
		return dst[:0], wrap(err)
	}
	dst = append(dst[:0], v...)
	return dst, wrap(closer.Close())
}

// exists reports whether key has a value.
func (c *conn) exists(key []byte) (bool, error) {
	_, err := c.get(key, nil)
	if store.Classify(err) == store.NotFound {
		return false, nil
	}
	return err == nil, err
}

// set writes key in the open batch, or commits it alone.
func (c *conn) set(key, value []byte) error {
	if c.batch != nil {
		return wrap(c.batch.Set(key, value, nil))
	}
	return wrap(c.db.Set(key, value, c.wo))
}

// guarded runs fn, which reads key and then writes it, holding key's
// lock outside a batch.
func (c *conn) guarded(key []byte, fn func() error) error {
	if c.batch == nil {
		defer c.d.keys.lock(key)()
	}
	return fn()
}

func (c *conn) Get(key uint64, dst []byte) ([]byte, error) { return c.get(c.k(key), dst) }

func (c *conn) Put(key uint64, value []byte) error { return c.set(c.k(key), value) }

// Update replaces the value of an existing key; a missing one is
// ErrNotFound.
func (c *conn) Update(key uint64, value []byte) error {
	k := c.k(key)
	return c.guarded(k, func() error {
		if ok, err := c.exists(k); !ok {
			return notFound(err)
		}
		return c.set(k, value)
	})
}

// Insert adds a new key; an existing one is class constraint.
func (c *conn) Insert(key uint64, value []byte) error {
	k := c.k(key)
	return c.guarded(k, func() error {
		ok, err := c.exists(k)
		switch {
		case err != nil:
			return err
		case ok:
			return store.Wrap(store.Constraint, errors.New("the key exists"))
		}
		return c.set(k, value)
	})
}

// Delete removes an existing key; a missing one is ErrNotFound.
func (c *conn) Delete(key uint64) error {
	k := c.k(key)
	return c.guarded(k, func() error {
		if ok, err := c.exists(k); !ok {
			return notFound(err)
		}
		if c.batch != nil {
			return wrap(c.batch.Delete(k, nil))
		}
		return wrap(c.db.Delete(k, c.wo))
	})
}

// notFound is ErrNotFound, or err where the read itself failed.
func notFound(err error) error {
	if err != nil {
		return err
	}
	return store.ErrNotFound
}

// iter opens an iterator over [lower, upper), on the open batch or the
// database.
func (c *conn) iter(lower, upper []byte) (*pebble.Iterator, error) {
	o := &pebble.IterOptions{LowerBound: lower, UpperBound: upper}
	if c.batch != nil {
		return c.batch.NewIter(o)
	}
	return c.db.NewIter(o)
}

// Scan walks an iterator from the first key at or above from.
func (c *conn) Scan(from uint64, n int) (int, error) {
	it, err := c.iter(c.k(from), []byte{kvPrefix + 1})
	if err != nil {
		return 0, wrap(err)
	}
	read := 0
	for ok := it.First(); ok && read < n; ok = it.Next() {
		read++
	}
	return read, wrap(errors.Join(it.Error(), it.Close()))
}

// Begin opens an indexed batch: its reads see its writes; it commits as
// one.
func (c *conn) Begin() error {
	if c.batch != nil {
		return errors.New("pebble: a batch is open already")
	}
	c.batch = c.db.NewIndexedBatch()
	return nil
}

// Commit commits the batch with the run's write options: acknowledged
// when it returns nil.
func (c *conn) Commit() error {
	if c.batch == nil {
		return errors.New("pebble: commit without a batch")
	}
	b := c.batch
	c.batch = nil
	err := b.Commit(c.wo)
	return wrap(errors.Join(err, b.Close()))
}

func (c *conn) Rollback() error {
	if c.batch == nil {
		return nil
	}
	b := c.batch
	c.batch = nil
	return wrap(b.Close())
}

// InTx reports whether a batch is open.
func (c *conn) InTx() bool { return c.batch != nil }

func (c *conn) Close() error { return c.Rollback() }
