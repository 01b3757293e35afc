// Command goshop runs the Go shop (package shop) captured through
// gobench's database/sql wrapper: its trace goes to -trace, or, run under
// gobench capture, into the capture's own.
//
//	go run ./examples/replay/goshop -db shop.db -trace shop.trace
//	gobench replay shop.trace --order commit --journal rollback,wal
package main

import (
	"context"
	"database/sql"
	"flag"
	"fmt"
	"os"

	"github.com/mattn/go-sqlite3"

	"github.com/gobench/gobench/examples/replay/goshop/shop"
	"github.com/gobench/gobench/pkg/capture"
)

func main() {
	db := flag.String("db", "shop.db", "the database")
	trace := flag.String("trace", "shop.trace", "the trace to write")
	var o shop.Options
	flag.IntVar(&o.Users, "users", 50, "users to start with")
	flag.IntVar(&o.Writers, "writers", 3, "writer goroutines")
	flag.IntVar(&o.Readers, "readers", 3, "reader goroutines")
	flag.IntVar(&o.Ops, "ops", 100, "operations per goroutine")
	flag.Uint64Var(&o.Seed, "seed", 1, "seed")
	flag.Parse()
	if err := run(*db, *trace, o); err != nil {
		fmt.Fprintln(os.Stderr, "goshop:", err)
		os.Exit(1)
	}
}

func run(path, trace string, o shop.Options) error {
	c, err := capture.FromEnv(trace)
	if err != nil {
		return err
	}
	sql.Register("sqlite3-captured", c.Driver(&sqlite3.SQLiteDriver{}))
	// _txlock=immediate: a transaction takes the write lock at BEGIN.
	db, err := sql.Open("sqlite3-captured", "file:"+path+"?_txlock=immediate&_busy_timeout=10000")
	if err != nil {
		return err
	}
	err = shop.Run(context.Background(), db, o)
	if cerr := db.Close(); err == nil {
		err = cerr
	}
	if cerr := c.Close(); err == nil {
		err = cerr
	}
	return err
}
