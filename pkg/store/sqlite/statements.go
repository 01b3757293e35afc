package sqlite

import (
	"fmt"
	"io"

	"github.com/gobench/gobench/pkg/store"
)

// Statements of the kv schema. The read and the upsert are the statements
// of the classic WAL-vs-rollback benchmark.
const (
	schemaSQL   = `CREATE TABLE kv ` + store.OwnMark + ` (k INTEGER PRIMARY KEY, v BLOB NOT NULL)`
	getSQL      = `SELECT * FROM kv WHERE k=?`
	putSQL      = `INSERT INTO kv(k,v) VALUES(?,?) ON CONFLICT(k) DO UPDATE SET v=excluded.v`
	updateSQL   = `UPDATE kv SET v=? WHERE k=?`
	insertSQL   = `INSERT INTO kv(k,v) VALUES(?,?)`
	scanSQL     = `SELECT k, v FROM kv WHERE k>=? ORDER BY k LIMIT ?`
	lastSQL     = `SELECT k, v FROM kv WHERE k BETWEEN ? AND ? ORDER BY k DESC LIMIT 1`
	deleteSQL   = `DELETE FROM kv WHERE k=?`
	beginSQL    = `BEGIN IMMEDIATE`
	commitSQL   = `COMMIT`
	rollbackSQL = `ROLLBACK`
)

// statements are one connection's prepared op statements, of the
// binding's statement type S. Every kind of connection holds one, so the
// list of statements and their SQL exists once.
type statements[S io.Closer] struct {
	get, put, update, del, insert, scan, last, begin, commit, rollback S

	prepared int // how many of slots() are prepared, in order
}

// slot is one statement of a connection and its SQL.
type slot[S io.Closer] struct {
	dst *S
	sql string
}

// slots lists the statements with their SQL, in the order they are
// prepared.
func (s *statements[S]) slots() []slot[S] {
	return []slot[S]{
		{&s.get, getSQL}, {&s.put, putSQL}, {&s.update, updateSQL}, {&s.del, deleteSQL}, {&s.insert, insertSQL}, {&s.scan, scanSQL}, {&s.last, lastSQL},
		{&s.begin, beginSQL}, {&s.commit, commitSQL}, {&s.rollback, rollbackSQL},
	}
}

// prepareAll prepares every statement with prep. On an error it closes
// those already prepared and names the statement that failed.
func (s *statements[S]) prepareAll(prep func(sql string) (S, error)) error {
	for _, p := range s.slots() {
		st, err := prep(p.sql)
		if err != nil {
			_ = s.closeAll()
			return fmt.Errorf("preparing %q: %w", p.sql, err)
		}
		*p.dst = st
		s.prepared++
	}
	return nil
}

// closeAll closes the prepared statements and returns the first error;
// a second call closes nothing.
func (s *statements[S]) closeAll() error {
	var first error
	for _, p := range s.slots()[:s.prepared] {
		if err := (*p.dst).Close(); err != nil && first == nil {
			first = err
		}
	}
	s.prepared = 0
	return first
}
