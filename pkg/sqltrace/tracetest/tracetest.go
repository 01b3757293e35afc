// Package tracetest writes small traces for tests: one connection's
// statements on one database, as a capture would record them.
package tracetest

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/gobench/gobench/pkg/sqltrace"
)

// Write writes a trace of one connection that runs sqls on /a.db (its
// snapshot one byte), in t's temporary directory as app.trace, and
// returns its path.
func Write(t testing.TB, sqls ...string) string {
	t.Helper()
	var buf bytes.Buffer
	w, err := sqltrace.NewWriter(&buf)
	if err != nil {
		t.Fatal(err)
	}
	own := w.Stream(0)
	own.Write(&sqltrace.Record{Kind: sqltrace.KindDB, DB: sqltrace.DB{ID: 1, Path: "/a.db"}})
	w.WriteSnapshot(1, bytes.NewReader([]byte("x")))
	own.Write(&sqltrace.Record{Kind: sqltrace.KindSnapshot, Snapshot: sqltrace.Snapshot{DB: 1, Number: 1, Size: 1}})
	s := w.Stream(1)
	s.Write(&sqltrace.Record{Kind: sqltrace.KindDB, DB: sqltrace.DB{ID: 1, Path: "/a.db"}})
	s.Write(&sqltrace.Record{Kind: sqltrace.KindOpen, Open: sqltrace.Open{Conn: 1, DB: 1}})
	for i, q := range sqls {
		s.Write(&sqltrace.Record{Kind: sqltrace.KindExec, Exec: sqltrace.Exec{Conn: 1, SQL: q, Start: int64(i), Span: 1000}})
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "app.trace")
	if err := os.WriteFile(path, buf.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}
