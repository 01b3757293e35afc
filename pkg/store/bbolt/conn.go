package bbolt

import (
	"bytes"
	"fmt"
	bolt "go.etcd.io/bbolt"

	"github.com/gobench/gobench/pkg/store"
)

// conn is one worker's connection: the process's one bbolt handle, the
// batch's transaction while one is open, and the key-value and record
// operations of store.OrderedConn over its buckets.
type conn struct {
	store.Txn[*bolt.Tx] // the open batch, if any
	store.OrderedConn
	db    *bolt.DB
	batch bool // writes go through DB.Batch (--bbolt-batch)
}

var (
	_ store.KVConn  = (*conn)(nil) // and a Recorder, RecordScanner and TxProber: store.OrderedConn's, store.Txn's
	_ store.Ordered = (*conn)(nil)
)

func newConn(bdb *bolt.DB, batch bool, table *store.Table) *conn {
	c := &conn{db: bdb, batch: batch}
	c.Txn = store.NewTxn("bbolt",
		func() (*bolt.Tx, error) { tx, err := bdb.Begin(true); return tx, wrap(err) }, // holds bbolt's one writer lock until it ends
		func(tx *bolt.Tx) error { return wrap(tx.Commit()) },
		func(tx *bolt.Tx) error { return wrap(tx.Rollback()) })
	c.OrderedConn = store.NewOrderedConn(c, table)
	return c
}

// bucket is the bucket that keeps space s.
func bucket(s store.Space) []byte {
	if s == store.SpaceRecords {
		return recordsBucket
	}
	return kvBucket
}

// ReadSpace runs fn on space s's bucket in the open batch, or in a
// read-only transaction of its own.
func (c *conn) ReadSpace(s store.Space, fn func(store.KV) error) error {
	if tx, ok := c.Current(); ok {
		return wrap(c.onBucket(tx, s, fn))
	}
	return wrap(c.db.View(func(tx *bolt.Tx) error { return c.onBucket(tx, s, fn) }))
}

// WriteKey runs fn on space s's bucket in the open batch, or in a
// read-write transaction of its own (a share of one under
// --bbolt-batch), committed before it returns: bbolt has one writer at a
// time, so nothing comes between what fn reads and writes.
func (c *conn) WriteKey(s store.Space, _ []byte, fn func(store.KV) error) error {
	if tx, ok := c.Current(); ok {
		return wrap(c.onBucket(tx, s, fn))
	}
	run := c.db.Update
	if c.batch {
		run = c.db.Batch
	}
	return wrap(run(func(tx *bolt.Tx) error { return c.onBucket(tx, s, fn) }))
}

// onBucket runs fn on space s's bucket in tx, or says the file has none:
// a file whose setup never finished (a power cut in its creation, as
// --crash-from open simulates) holds no bucket of gobench's.
func (c *conn) onBucket(tx *bolt.Tx, s store.Space, fn func(store.KV) error) error {
	b := tx.Bucket(bucket(s))
	if b == nil {
		return fmt.Errorf("the bbolt file holds no bucket %q: its setup never finished", bucket(s))
	}
	return fn(bucketKV{b, c})
}

// ScanSpace walks a cursor over space s's bucket from the first key at or
// above from.
func (c *conn) ScanSpace(s store.Space, from []byte, n int, _ bool, fn func(k, v []byte) error) (int, error) {
	read := 0
	err := c.ReadSpace(s, func(kv store.KV) error {
		cur := kv.(bucketKV).b.Cursor()
		for k, v := cur.Seek(from); k != nil && read < n; k, v = cur.Next() {
			read++
			if err := fn(k, v); err != nil {
				return err
			}
		}
		return nil
	})
	return read, err
}

// LastSpace seeks a cursor over space s's bucket to the highest key at
// or below hi, and calls fn on it when it is at or above lo.
func (c *conn) LastSpace(s store.Space, lo, hi []byte, fn func(k, v []byte) error) (bool, error) {
	found := false
	err := c.ReadSpace(s, func(kv store.KV) error {
		cur := kv.(bucketKV).b.Cursor()
		k, v := cur.Seek(hi)
		switch {
		case k == nil:
			k, v = cur.Last()
		case !bytes.Equal(k, hi):
			k, v = cur.Prev()
		}
		if k == nil || bytes.Compare(k, lo) < 0 {
			return nil
		}
		found = true
		return fn(k, v)
	})
	return found, err
}

// keep returns b as a write may hold it: bbolt keeps the slices a write
// gives it until the transaction commits, so inside a batch (whose later
// ops reuse the buffers) and under DB.Batch (whose function may run again)
// the write gets its own copy.
func (c *conn) keep(b []byte) []byte {
	if !c.InTx() && !c.batch {
		return b
	}
	return append([]byte(nil), b...)
}

// bucketKV is a bucket as store.KV.
type bucketKV struct {
	b *bolt.Bucket
	c *conn
}

// Get appends key's value to dst[:0]: the value bbolt returns lives only
// as long as the transaction.
func (kv bucketKV) Get(key, dst []byte) ([]byte, error) {
	v := kv.b.Get(key)
	if v == nil {
		return dst[:0], store.ErrNotFound
	}
	return append(dst[:0], v...), nil
}

func (kv bucketKV) Has(key []byte) (bool, error) { return kv.b.Get(key) != nil, nil }

func (kv bucketKV) Set(key, value []byte) error { return kv.b.Put(kv.c.keep(key), kv.c.keep(value)) }

func (kv bucketKV) Delete(key []byte) error { return kv.b.Delete(kv.c.keep(key)) }
