package capture_test

import (
	"database/sql"
	"fmt"
	"os"
	"path/filepath"

	"github.com/mattn/go-sqlite3"

	"github.com/gobench/gobench/pkg/capture"
	"github.com/gobench/gobench/pkg/sqltrace"
)

// A program captured through the wrapper: the capture wraps mattn's
// driver, the program runs as it always does, and the trace holds its
// statements, ready for gobench replay.
func Example() {
	dir, _ := os.MkdirTemp("", "capture-example")
	defer os.RemoveAll(dir)
	tracePath := filepath.Join(dir, "app.trace")

	c, err := capture.Create(tracePath)
	if err != nil {
		fmt.Println(err)
		return
	}
	sql.Register("sqlite3-captured-example", c.Driver(&sqlite3.SQLiteDriver{}))
	db, err := sql.Open("sqlite3-captured-example", filepath.Join(dir, "app.db"))
	if err != nil {
		fmt.Println(err)
		return
	}

	// The program, as it was.
	db.Exec(`CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT, karma REAL)`)
	tx, _ := db.Begin()
	for i, name := range []string{"ann", "bob", "cid"} {
		tx.Exec(`INSERT INTO users (name, karma) VALUES (?, ?)`, name, float64(i)/2)
	}
	tx.Commit()
	var n int
	db.QueryRow(`SELECT count(*) FROM users WHERE karma >= :k`, sql.Named("k", 0.5)).Scan(&n)
	fmt.Println("users with karma:", n)
	db.Close()
	if err := c.Close(); err != nil {
		fmt.Println(err)
		return
	}

	// What the trace holds.
	f, _ := os.Open(tracePath)
	defer f.Close()
	r := sqltrace.NewReader(f)
	for r.Next() {
		if e := r.Record().Exec; r.Record().Kind == sqltrace.KindExec {
			fmt.Printf("%-55s params %d rows %d changes %d\n", e.SQL, len(e.Params), e.Rows, e.Changes)
		}
	}
	if err := r.Err(); err != nil {
		fmt.Println(err)
	}
	// Output:
	// users with karma: 2
	// CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT, karma REAL) params 0 rows 0 changes 0
	// BEGIN                                                   params 0 rows 0 changes 0
	// INSERT INTO users (name, karma) VALUES (?, ?)           params 2 rows 0 changes 1
	// INSERT INTO users (name, karma) VALUES (?, ?)           params 2 rows 0 changes 1
	// INSERT INTO users (name, karma) VALUES (?, ?)           params 2 rows 0 changes 1
	// COMMIT                                                  params 0 rows 0 changes 0
	// SELECT count(*) FROM users WHERE karma >= :k            params 1 rows 1 changes 0
}
