package sqlite

import (
	"context"
	"testing"

	"github.com/gobench/gobench/pkg/store"
)

// BenchmarkConn measures one connection's ops per driver, in WAL with
// synchronous=NORMAL (no fsync per commit): a point read, an upsert as
// its own transaction, and the autocommit probe the worker runs after
// every op outside a batch (sqlite3_get_autocommit).
func BenchmarkConn(b *testing.B) {
	for _, d := range testDrivers {
		b.Run(d.Name(), func(b *testing.B) {
			o := DefaultOptions()
			o.Journal, o.Sync = "wal", "normal"
			st := openInit(b, d, store.Config{Path: b.TempDir() + "/bench.db", Options: o.Encode()})
			defer st.Close()
			c, err := st.Conn(context.Background())
			if err != nil {
				b.Fatal(err)
			}
			defer c.Close()
			value := []byte("a value of some sixty-four bytes, as the default mix writes....")
			if err := c.Put(1, value); err != nil {
				b.Fatal(err)
			}
			var buf []byte
			b.Run("get", func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if buf, err = c.Get(1, buf); err != nil {
						b.Fatal(err)
					}
				}
			})
			b.Run("put", func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if err := c.Put(1, value); err != nil {
						b.Fatal(err)
					}
				}
			})
			b.Run("intx", func(b *testing.B) {
				tp := c.(store.TxProber)
				for b.Loop() {
					if tp.InTx() {
						b.Fatal("in a transaction")
					}
				}
			})
		})
	}
}
