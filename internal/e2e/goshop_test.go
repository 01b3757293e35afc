package e2e

import (
	"context"
	"database/sql"
	"fmt"
	"os"

	"github.com/mattn/go-sqlite3"

	"github.com/gobench/gobench/examples/replay/goshop/shop"
	"github.com/gobench/gobench/pkg/capture"
)

// goshopMain is the scripts' goshop command: the Go shop of docs/replay.md
// (examples/replay/goshop), captured through package capture's wrapper
// into TRACE: goshop DB TRACE.
func goshopMain() int {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: goshop DB TRACE")
		return 2
	}
	c, err := capture.FromEnv(os.Args[2])
	if err == nil {
		sql.Register("sqlite3-captured", c.Driver(&sqlite3.SQLiteDriver{}))
		var db *sql.DB
		if db, err = sql.Open("sqlite3-captured", "file:"+os.Args[1]+"?_txlock=immediate&_busy_timeout=10000"); err == nil {
			err = shop.Run(context.Background(), db, shop.Options{Users: 20, Writers: 3, Readers: 3, Ops: 40, Seed: 7})
			if cerr := db.Close(); err == nil {
				err = cerr
			}
		}
		if cerr := c.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "goshop:", err)
		return 1
	}
	return 0
}
