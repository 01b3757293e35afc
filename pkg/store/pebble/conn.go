package pebble

import (
	"errors"
	"hash/maphash"
	"io"
	"sync"

	"github.com/cockroachdb/pebble/v2"

	"github.com/gobench/gobench/pkg/store"
)

// Keys are prefixed by their space (store.Space.Prefix): key-value data
// under 'k', records under 'r'.

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

// conn is one worker's connection: the process's one pebble handle, the
// batch while one is open (indexed: its reads see its writes; it commits
// as one, with the run's write options), and the key-value and record
// operations of store.OrderedConn over its keys.
type conn struct {
	store.Txn[*pebble.Batch] // the open batch, if any
	store.OrderedConn
	d   *db
	db  *pebble.DB
	wo  *pebble.WriteOptions
	key []byte // a prefixed key, reused: pebble keeps no reference to it past a call
}

var (
	_ store.KVConn  = (*conn)(nil) // and a Recorder, RecordScanner and TxProber: store.OrderedConn's, store.Txn's
	_ store.Ordered = (*conn)(nil)
)

func newConn(d *db, pdb *pebble.DB) *conn {
	c := &conn{d: d, db: pdb, wo: d.writeOptions()}
	c.Txn = store.NewTxn("pebble",
		func() (*pebble.Batch, error) { return pdb.NewIndexedBatch(), nil },
		func(b *pebble.Batch) error { return wrap(errors.Join(b.Commit(c.wo), b.Close())) },
		func(b *pebble.Batch) error { return wrap(b.Close()) })
	c.OrderedConn = store.NewOrderedConn(c, d.Table)
	return c
}

// spaceKV is one space of the connection's keys as store.KV: in the open
// batch (which sees its own writes), or in the database.
type spaceKV struct {
	c      *conn
	prefix byte
}

// k returns key of the space, prefixed, in the connection's buffer.
func (kv spaceKV) k(key []byte) []byte {
	kv.c.key = append(append(kv.c.key[:0], kv.prefix), key...)
	return kv.c.key
}

// Get appends key's value to dst[:0].
func (kv spaceKV) Get(key, dst []byte) ([]byte, error) {
	var v []byte
	var closer io.Closer
	var err error
	if b, ok := kv.c.Current(); ok {
		v, closer, err = b.Get(kv.k(key))
	} else {
		v, closer, err = kv.c.db.Get(kv.k(key))
	}
	if err != nil {
		return dst[:0], wrap(err)
	}
	dst = append(dst[:0], v...)
	return dst, wrap(closer.Close())
}

func (kv spaceKV) Has(key []byte) (bool, error) {
	_, err := kv.Get(key, nil)
	if store.Classify(err) == store.NotFound {
		return false, nil
	}
	return err == nil, err
}

// Set writes key in the open batch, or commits it alone.
func (kv spaceKV) Set(key, value []byte) error {
	if b, ok := kv.c.Current(); ok {
		return wrap(b.Set(kv.k(key), value, nil))
	}
	return wrap(kv.c.db.Set(kv.k(key), value, kv.c.wo))
}

// Delete removes key in the open batch, or commits its removal alone.
func (kv spaceKV) Delete(key []byte) error {
	if b, ok := kv.c.Current(); ok {
		return wrap(b.Delete(kv.k(key), nil))
	}
	return wrap(kv.c.db.Delete(kv.k(key), kv.c.wo))
}

// ReadSpace runs fn on space s.
func (c *conn) ReadSpace(s store.Space, fn func(store.KV) error) error {
	return fn(spaceKV{c, s.Prefix()})
}

// WriteKey runs fn, which reads key and then writes it, holding key's
// lock outside a batch.
func (c *conn) WriteKey(s store.Space, key []byte, fn func(store.KV) error) error {
	kv := spaceKV{c, s.Prefix()}
	if !c.InTx() {
		defer c.d.keys.lock(kv.k(key))()
	}
	return fn(kv)
}

// ScanSpace walks an iterator over space s from the first key at or
// above from.
func (c *conn) ScanSpace(s store.Space, from []byte, n int, values bool, fn func(k, v []byte) error) (int, error) {
	p := s.Prefix()
	it, err := c.newIter(&pebble.IterOptions{LowerBound: append([]byte{p}, from...), UpperBound: []byte{p + 1}})
	if err != nil {
		return 0, wrap(err)
	}
	read := 0
	for ok := it.First(); ok && read < n; ok = it.Next() {
		read++
		var v []byte
		if values {
			v, err = it.ValueAndErr()
		}
		if err == nil {
			err = fn(it.Key()[1:], v)
		}
		if err != nil {
			it.Close()
			return read, wrap(err)
		}
	}
	return read, wrap(errors.Join(it.Error(), it.Close()))
}

// LastSpace seeks an iterator over space s's keys in [lo, hi] to its
// last key.
func (c *conn) LastSpace(s store.Space, lo, hi []byte, fn func(k, v []byte) error) (bool, error) {
	p := s.Prefix()
	it, err := c.newIter(&pebble.IterOptions{LowerBound: append([]byte{p}, lo...), UpperBound: append(append([]byte{p}, hi...), 0)}) // hi's successor: the bound is exclusive
	if err != nil {
		return false, wrap(err)
	}
	found := it.Last()
	if found {
		var v []byte
		if v, err = it.ValueAndErr(); err == nil {
			err = fn(it.Key()[1:], v)
		}
	}
	return found, wrap(errors.Join(err, it.Error(), it.Close()))
}

// newIter opens an iterator in the open batch (which sees its writes), or
// on the database.
func (c *conn) newIter(o *pebble.IterOptions) (*pebble.Iterator, error) {
	if b, ok := c.Current(); ok {
		return b.NewIter(o)
	}
	return c.db.NewIter(o)
}
