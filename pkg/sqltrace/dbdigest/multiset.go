package dbdigest

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"net/url"
	"strings"
)

// A database's content as column sums: for every column of every table
// (SQLite's own tables aside), the sum, modulo 2^64, of a hash of each
// row's value in it with the row's identity (its rowid; a table without
// rowid, the row's every value). Equal content has equal sums whatever the
// order rows were written in, and a change of rows changes the sums by
// what those rows hashed to before and after, so that a database's sums
// after each of many transactions cost the rows they changed, not the
// database (Rebuild). Two databases differ in a column when their sums of
// it do, short of a collision of 64-bit hashes.

// table is one table's place in column sums.
type table struct {
	name, ident string
	cols        []string
	off         int  // its first column's index in the sums
	rowid       bool // it has a rowid
}

// open opens the database at path with modernc's SQLite, read-write (a
// WAL is recovered as after a reboot), on one connection.
func open(path string) (*sql.DB, *sql.Conn, error) {
	u := url.URL{Scheme: "file", Opaque: (&url.URL{Path: path}).EscapedPath(), RawQuery: "_pragma=busy_timeout(10000)"}
	db, err := sql.Open("sqlite", u.String())
	if err != nil {
		return nil, nil, err
	}
	db.SetMaxOpenConns(1)
	conn, err := db.Conn(context.Background())
	if err != nil {
		db.Close()
		return nil, nil, fmt.Errorf("opening %s: %w", path, err)
	}
	return db, conn, nil
}

// tablesOf lists the database's tables and their columns, SQLite's own
// and virtual tables aside.
func tablesOf(q querier) ([]table, []string, error) {
	names, err := queryStrings(q, `SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite\_%' ESCAPE '\' AND coalesce(sql, '') NOT LIKE 'CREATE VIRTUAL%' ORDER BY name`)
	if err != nil {
		return nil, nil, fmt.Errorf("listing the tables: %w", err)
	}
	var tables []table
	var cols []string
	for _, name := range names {
		lit := "'" + strings.ReplaceAll(name, "'", "''") + "'"
		t := table{name: name, ident: quoteIdent(name), off: len(cols)}
		if t.cols, err = queryStrings(q, "SELECT name FROM pragma_table_info("+lit+")"); err != nil {
			return nil, nil, fmt.Errorf("reading table %s's columns: %w", name, err)
		}
		_, err := queryStrings(q, "SELECT rowid FROM "+t.ident+" LIMIT 0")
		t.rowid = err == nil
		for _, c := range t.cols {
			cols = append(cols, name+"."+c)
		}
		tables = append(tables, t)
	}
	return tables, cols, nil
}

func quoteIdent(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }

// rowExpr is the SQL of a row of t as a JSON array of quoted values, its
// identity first: prefix is "", "new." or "old.".
func (t *table) rowExpr(prefix string) string {
	id := "''"
	if t.rowid {
		id = "quote(" + prefix + "rowid)"
	}
	parts := []string{id}
	for _, c := range t.cols {
		parts = append(parts, "quote("+prefix+quoteIdent(c)+")")
	}
	return "json_array(" + strings.Join(parts, ", ") + ")"
}

// addRow adds (sign 1) or takes away (sign -1) a row, as rowExpr wrote
// it, to t's columns in sums.
func (t *table) addRow(sums []uint64, row string, sign uint64) error {
	var vals []string
	if err := json.Unmarshal([]byte(row), &vals); err != nil || len(vals) != len(t.cols)+1 {
		return fmt.Errorf("reading a row of table %s: %q", t.name, row)
	}
	id := vals[0]
	if !t.rowid {
		id = row
	}
	for i, v := range vals[1:] {
		h := fnv.New64a()
		fmt.Fprintf(h, "%s\x00%s\x00%s\x00%s", t.name, t.cols[i], id, v)
		sums[t.off+i] += sign * h.Sum64()
	}
	return nil
}

// sumTable adds every row of t to sums.
func sumTable(q querier, t *table, sums []uint64) error {
	rows, err := queryStrings(q, "SELECT "+t.rowExpr("")+" FROM "+t.ident)
	if err != nil {
		return fmt.Errorf("reading table %s: %w", t.name, err)
	}
	for _, r := range rows {
		if err := t.addRow(sums, r, 1); err != nil {
			return err
		}
	}
	return nil
}

// FileSums returns the column sums of the database at path, in the order
// of cols ("table.column") (a column the database lacks sums to 0; one cols does not name
// is left out). The database is opened read-write, so that a WAL is
// recovered as after a reboot: give it a copy.
func FileSums(path string, cols []string) ([]uint64, error) {
	db, conn, err := open(path)
	if err != nil {
		return nil, err
	}
	defer db.Close()
	defer conn.Close()
	q := connQuerier{conn}
	tables, have, err := tablesOf(q)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	all := make([]uint64, len(have))
	for i := range tables {
		if err := sumTable(q, &tables[i], all); err != nil {
			return nil, fmt.Errorf("reading %s: %w", path, err)
		}
	}
	at := map[string]int{}
	for i, c := range have {
		at[c] = i
	}
	out := make([]uint64, len(cols))
	for i, c := range cols {
		if j, ok := at[c]; ok {
			out[i] = all[j]
		}
	}
	return out, nil
}

// querier runs a statement whose rows are one text column each.
type querier interface {
	query(q string, args ...any) (*sql.Rows, error)
}

type connQuerier struct{ c *sql.Conn }

func (c connQuerier) query(q string, args ...any) (*sql.Rows, error) {
	return c.c.QueryContext(context.Background(), q, args...)
}

func queryStrings(q querier, stmt string) ([]string, error) {
	rows, err := q.query(stmt)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s sql.NullString
		if err := rows.Scan(&s); err != nil {
			return nil, err
		}
		out = append(out, s.String)
	}
	return out, rows.Err()
}
