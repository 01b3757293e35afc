package bbolt

import (
	"context"

	bolt "go.etcd.io/bbolt"

	"github.com/gobench/gobench/pkg/store"
)

// The bbolt module this package is built against, as go.mod requires it
// (a test holds the two together): test binaries carry no module
// versions to read back.
const (
	module        = "go.etcd.io/bbolt"
	moduleVersion = "v1.5.0"
)

// Describe gives the engine's version, its options, and how its commits
// reach the disk.
func (d *db) Describe(context.Context) ([]store.Fact, error) { return engine.Describe(d.opts), nil }

// Live counts the keys and records the file holds, and their bytes.
func (d *db) Live(context.Context) (store.Live, error) {
	bdb, err := d.open(false)
	if err != nil {
		return store.Live{}, err
	}
	var l store.Live
	err = bdb.View(func(tx *bolt.Tx) error {
		for _, name := range [][]byte{kvBucket, recordsBucket} {
			if b := tx.Bucket(name); b != nil {
				_ = b.ForEach(func(k, v []byte) error {
					l.Keys++
					l.Bytes += int64(len(k) + len(v))
					return nil
				})
			}
		}
		return nil
	})
	return l, wrap(err)
}
