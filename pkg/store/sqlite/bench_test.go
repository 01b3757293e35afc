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

// BenchmarkUserSQL measures statements of the user's per driver
// (store.Scripter), on pgbench's accounts table with 1000 rows: prepare,
// what a worker does for each statement of its scripts before it is ready
// (pgbench's TPC-B update, two named parameters; each statement closed
// before the next, so memory stays flat); and run, pgbench's select-only
// read as a script runs it.
func BenchmarkUserSQL(b *testing.B) {
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
			sc := c.(store.Scripter)
			for _, q := range []string{
				`CREATE TABLE pgbench_accounts (aid INTEGER PRIMARY KEY, bid INTEGER NOT NULL, abalance INTEGER NOT NULL, filler TEXT)`,
				`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1000) INSERT INTO pgbench_accounts SELECT i, 1, 0, '' FROM n`,
			} {
				s, err := sc.Prepare(q, nil)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := s.Run(); err != nil {
					b.Fatal(err)
				}
			}
			closeUserStmts(b, c)
			b.Run("prepare", func(b *testing.B) {
				for b.Loop() {
					if _, err := sc.Prepare(`UPDATE pgbench_accounts SET abalance = abalance + :delta WHERE aid = :aid`, []string{"delta", "aid"}); err != nil {
						b.Fatal(err)
					}
					closeUserStmts(b, c)
				}
			})
			b.Run("run", func(b *testing.B) {
				s, err := sc.Prepare(`SELECT abalance FROM pgbench_accounts WHERE aid = :aid`, []string{"aid"})
				if err != nil {
					b.Fatal(err)
				}
				b.ReportAllocs()
				aid := int64(0)
				for b.Loop() {
					aid = aid%1000 + 1
					if n, err := s.Run(aid); err != nil || n != 1 {
						b.Fatal(n, err)
					}
				}
			})
		})
	}
}

// closeUserStmts closes the statements of the user's a connection holds.
func closeUserStmts(b *testing.B, c store.Conn) {
	var err error
	switch c := c.(type) {
	case *conn:
		err, c.user = closeUser(c.user), c.user[:0]
	case *ncConn:
		err, c.user = closeUser(c.user), c.user[:0]
	default:
		err = closeUserOther(c)
	}
	if err != nil {
		b.Fatal(err)
	}
}
