// Package dbdigest reads a database file's content as a digest of its
// tables (sqltrace.DigestTables), through modernc's SQLite (no cgo): the
// content a capture ended with, and the content a replay ended with.
package dbdigest

import (
	"context"
	"database/sql"
	"fmt"
	"net/url"
	"os"

	_ "modernc.org/sqlite" // registers the "sqlite" driver

	"github.com/gobench/gobench/pkg/sqltrace"
)

// File returns the digest of the database at path, opened to read only.
func File(path string) ([]sqltrace.TableDigest, error) {
	if _, err := os.Stat(path); err != nil {
		return nil, err
	}
	u := url.URL{Scheme: "file", Opaque: (&url.URL{Path: path}).EscapedPath(), RawQuery: "mode=ro&_pragma=busy_timeout(10000)"}
	db, err := sql.Open("sqlite", u.String())
	if err != nil {
		return nil, err
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	conn, err := db.Conn(context.Background())
	if err != nil {
		return nil, fmt.Errorf("opening %s: %w", path, err)
	}
	defer conn.Close()
	// One read transaction: the tables are read as of one state.
	tx, err := conn.BeginTx(context.Background(), &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	defer tx.Rollback()
	return sqltrace.DigestTables(func(q string) ([]string, error) { return queryStrings(txQuerier{tx}, q) })
}

// txQuerier queries in a transaction.
type txQuerier struct{ tx *sql.Tx }

func (t txQuerier) query(q string, args ...any) (*sql.Rows, error) { return t.tx.Query(q, args...) }
