package sqlite

import (
	"fmt"
	"strings"

	"github.com/gobench/gobench/pkg/store"
)

// replaced returns the names of the tables a run drops and creates anew
// in the database: kv, the record table, and those of the plan's own
// schema (store.Config.Replaces).
func (s *db) replaced() []string {
	var names []string
	if !s.bare {
		names = append(names, "kv")
	}
	if s.table != nil {
		names = append(names, s.table.Name)
	}
	return append(names, s.replaces...)
}

// ownTable is true of a row of sqlite_schema that is a table gobench
// created: its definition begins as gobench writes it, with its mark.
var ownTable = fmt.Sprintf("(type = 'table' AND substr(sql, 1, %d + length(name)) = 'CREATE TABLE ' || name || ' %s')", len("CREATE TABLE  "+store.OwnMark), store.OwnMark)

// checkTables returns ErrForeign when a table the run replaces (or any
// other object of its name: SQLite's names are one space, and are
// compared without case) exists in the database c reads and gobench did
// not create it (see ownTable). ownedDB says that the database carried
// gobench's application_id before the run took it; if it has no table
// of gobench's mark at all, it was made by a gobench from before the
// mark, and its tables are gobench's as they always were.
func (s *db) checkTables(c rawConn, ownedDB bool) error {
	quoted := make([]string, 0, 3)
	for _, n := range s.replaced() {
		quoted = append(quoted, "'"+strings.ToLower(n)+"'") // plain SQL names (checkNames)
	}
	foreign, err := c.queryString(fmt.Sprintf(
		"SELECT group_concat(type || ' ' || name, ', ') FROM sqlite_schema WHERE lower(name) IN (%s) AND NOT %s",
		strings.Join(quoted, ","), ownTable))
	if err != nil {
		return fmt.Errorf("reading the schema of %s: %w", s.path, s.d.wrap(err))
	}
	if foreign == "" {
		return nil
	}
	if ownedDB {
		marked, err := c.queryString("SELECT count(*) FROM sqlite_schema WHERE " + ownTable)
		if err != nil {
			return fmt.Errorf("reading the schema of %s: %w", s.path, s.d.wrap(err))
		}
		if marked == "0" {
			return nil
		}
	}
	return fmt.Errorf("%w: %s in %s was not created by gobench, and this run would drop it to create its own: gobench drops only tables it created (their definitions carry %s); name the table otherwise, or give another --db", store.ErrForeign, foreign, s.path, store.OwnMark)
}

// checkTablesReadOnly is checkTables on the database file as it is,
// read without a lock (see readOnlyDSN): Precheck's check. A database in
// WAL mode may hold newer tables in its -wal file, which Init checks
// again under its write lock.
func (s *db) checkTablesReadOnly() error {
	c, err := s.d.be.open(readOnlyDSN(s.path))
	if err != nil {
		return fmt.Errorf("%w: %s cannot be opened as SQLite: %v", store.ErrForeign, s.path, err)
	}
	defer c.Close()
	id, err := c.queryString("PRAGMA application_id")
	if err != nil {
		return fmt.Errorf("%w: %s is not a SQLite database: %v", store.ErrForeign, s.path, err)
	}
	return s.checkTables(c, id == fmt.Sprint(applicationID))
}

// checkNames refuses, before anything opens, a table name the run would
// create that SQLite refuses or that is kv's: a record table named
// sqlite_… (SQLite's own) or kv, and a name in Replaces that is no plain
// SQL name.
func checkNames(cfg store.Config) error {
	if t := cfg.Table; t != nil {
		switch n := strings.ToLower(t.Name); {
		case strings.HasPrefix(n, "sqlite_"):
			return fmt.Errorf("%w: record table %q: names beginning with sqlite_ are SQLite's own", store.ErrInvalid, t.Name)
		case n == "kv":
			return fmt.Errorf("%w: record table %q: kv is the table of gobench's key-value ops, kept beside the record table (give another name)", store.ErrInvalid, t.Name)
		}
	}
	for _, n := range cfg.Replaces {
		if !store.IsPlainName(n) || strings.HasPrefix(strings.ToLower(n), "sqlite_") {
			return fmt.Errorf("%w: the schema's table %q is not a plain SQL name (letters, digits and _, not first a digit, not sqlite_…)", store.ErrInvalid, n)
		}
	}
	return nil
}
