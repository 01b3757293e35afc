package bench_test

import (
	"context"
	"encoding/binary"
	"fmt"
	"log"
	"os"
	"path/filepath"

	bolt "go.etcd.io/bbolt"

	"github.com/gobench/gobench/pkg/bench"
	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/workload"
)

// boltKV is a store of your own around a database you opened yourself,
// here a bbolt file. gobench opens it (the Driver), gives every worker a
// connection (Store.Conn) and closes each connection and the store after
// the run; neither owns the database, so their Close methods leave it
// open, and whoever opened it closes it, once, when done.
type boltKV struct{ db *bolt.DB }

var bucket = []byte("kv")

func (boltKV) Name() string                                              { return "boltkv" }
func (s boltKV) Open(context.Context, store.Config) (store.Store, error) { return s, nil }
func (s boltKV) Conn(context.Context) (store.Conn, error)                { return boltConn(s), nil }
func (boltKV) Close() error                                              { return nil } // the store's: the database stays open

// Init empties the bucket before the run (and its preload).
func (s boltKV) Init(context.Context) error {
	return s.db.Update(func(tx *bolt.Tx) error {
		if tx.Bucket(bucket) != nil {
			if err := tx.DeleteBucket(bucket); err != nil {
				return err
			}
		}
		_, err := tx.CreateBucket(bucket)
		return err
	})
}

// boltConn is one worker's connection: the two operations every engine
// has, each its own transaction, and a Close of its own.
type boltConn struct{ db *bolt.DB }

func (boltConn) Close() error { return nil } // a connection's: the database stays open

func (c boltConn) Put(k uint64, v []byte) error {
	return c.db.Update(func(tx *bolt.Tx) error {
		return tx.Bucket(bucket).Put(binary.BigEndian.AppendUint64(nil, k), v) // v is used before Put returns
	})
}

func (c boltConn) Get(k uint64, dst []byte) ([]byte, error) {
	err := c.db.View(func(tx *bolt.Tx) error {
		v := tx.Bucket(bucket).Get(binary.BigEndian.AppendUint64(nil, k))
		if v == nil {
			return store.Wrap(store.NotFound, store.ErrNotFound)
		}
		dst = append(dst[:0], v...) // v is valid only inside the transaction
		return nil
	})
	return dst, err
}

// Run the 95/5 read/upsert mix with four goroutines against a store of
// your own, in one call; the database stays yours to close.
func Example() {
	dir, err := os.MkdirTemp("", "gobench-example-")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	// NoSync: this example measures the harness, not the disk (drop it to
	// measure durable commits, an fsync each).
	db, err := bolt.Open(filepath.Join(dir, "kv.db"), 0o600, &bolt.Options{NoSync: true})
	if err != nil {
		log.Fatal(err)
	}
	defer db.Close() // once, after the run

	plan := workload.DefaultPlan() // 95% read / 5% upsert, 10,000 keys preloaded, 64-byte values
	plan.Goroutines = 4
	plan.Phases[0].Ops = 1000 // per worker

	r, err := bench.Run(context.Background(), plan, boltKV{db})
	if err != nil {
		log.Fatal(err)
	}
	read, _ := r.Phases[0].Op("read")
	fmt.Println("driver:", r.Plan.Driver, "ops:", r.Phases[0].Total.Count, "reads:", read.Count, "errors:", r.Phases[0].Total.Errors.Total)
	fmt.Println("measured:", read.OpsPerSec > 0 && read.P99Micros > 0)
	// The run closed its connections and its store, not the database.
	err = db.View(func(tx *bolt.Tx) error {
		fmt.Println("keys after the run:", tx.Bucket(bucket).Stats().KeyN)
		return nil
	})
	if err != nil {
		log.Fatal(err)
	}
	// Output:
	// driver: boltkv ops: 4000 reads: 3800 errors: 0
	// measured: true
	// keys after the run: 10000
}
