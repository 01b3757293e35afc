package main

import (
	"context"
	"fmt"
	"math/rand/v2"

	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/store/all"
	"github.com/gobench/gobench/pkg/store/sqlite"
)

// storeOps runs the ops through gobench's own engine (-api store): its
// store.Conn, with the transaction owner, the statements and the driver
// binding gobench uses, but none of gobench's harness (no lottery, no
// clock per op, no samples, no pipes, no coordinator). Any of gobench's
// SQLite drivers, capi included.
type storeOps struct {
	c   store.Conn
	buf []byte
}

// openStore opens gobench's store for driver on c.db, creating and
// preloading the database when preload is set.
func openStore(c config, preload bool) (store.Store, error) {
	drv, err := all.Registry().Lookup(c.driver)
	if err != nil {
		return nil, err
	}
	o := sqlite.DefaultOptions()
	o.Journal, o.Sync = c.journal, c.sync
	st, err := drv.Open(context.Background(), store.Config{Path: c.db, Options: o.Encode()})
	if err != nil {
		return nil, err
	}
	if !preload {
		return st, nil
	}
	if err := st.Init(context.Background()); err != nil {
		return nil, err
	}
	conn, err := st.Conn(context.Background())
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	b, ok := conn.(store.Batcher)
	if !ok {
		return nil, fmt.Errorf("driver %s has no transactions", c.driver)
	}
	if err := b.Begin(); err != nil {
		return nil, err
	}
	for k := range c.keys {
		if err := conn.Put(uint64(k), value(rand.New(rand.NewPCG(uint64(k), 0)))); err != nil {
			return nil, err
		}
	}
	return st, b.Commit()
}

func openStoreOps(c config) (ops, error) {
	st, err := openStore(c, false)
	if err != nil {
		return nil, err
	}
	conn, err := st.Conn(context.Background())
	if err != nil {
		return nil, err
	}
	return &storeOps{c: conn}, nil
}

func (s *storeOps) read(k int64) (err error) {
	s.buf, err = s.c.Get(uint64(k), s.buf)
	return err
}

func (s *storeOps) upsert(k int64, v []byte) error { return s.c.Put(uint64(k), v) }
