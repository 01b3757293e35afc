package replay

import (
	"context"
	"database/sql"
	"fmt"
	"io"
	"math"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	_ "modernc.org/sqlite" // registers the "sqlite" driver: the schema of a snapshot is read with it

	"github.com/gobench/gobench/pkg/workload"
)

// openFile opens the SQLite database file at path with modernc's driver.
func openFile(path string) (*sql.DB, error) {
	u := url.URL{Scheme: "file", Opaque: (&url.URL{Path: path}).EscapedPath()}
	db, err := sql.Open("sqlite", u.String())
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(1) // one connection: temporary tables are the connection's
	return db, nil
}

// readKeys reads the tables and key columns of the database a replay of
// r starts from and makes: the trace's snapshot, with the capture's
// schema statements run on a copy of it (their errors ignored: a CREATE
// TABLE IF NOT EXISTS or one that failed when captured changes
// nothing), and the largest integer value the snapshot holds in a key
// column.
func readKeys(ctx context.Context, open func() (io.ReadCloser, error), r *workload.Replay, schema []string) ([]workload.RemapTable, int64, error) {
	dir, err := os.MkdirTemp("", "gobench-remap-")
	if err != nil {
		return nil, 0, err
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "snapshot.db")
	if _, err := installFrom(open, r.Snapshot, path); err != nil {
		return nil, 0, fmt.Errorf("writing the snapshot: %w", err)
	}
	db, err := openFile(path)
	if err != nil {
		return nil, 0, err
	}
	defer db.Close()
	snap, err := keyColumns(ctx, db)
	if err != nil {
		return nil, 0, fmt.Errorf("reading the snapshot's schema: %w", err)
	}
	most, err := largestKey(ctx, db, snap)
	if err != nil {
		return nil, 0, err
	}
	for _, s := range schema {
		db.ExecContext(ctx, s) //nolint:errcheck // a statement that fails changes nothing, as when captured
	}
	all, err := keyColumns(ctx, db)
	if err != nil {
		return nil, 0, fmt.Errorf("reading the schema the capture made: %w", err)
	}
	inSnap := map[string]bool{}
	for _, t := range snap {
		inSnap[t.Name] = true
	}
	for i := range all {
		all[i].Rows = inSnap[all[i].Name]
	}
	return all, most, nil
}

// largestKey returns the largest magnitude of an integer key value in
// tables (math.MaxInt64 when one is too large to negate).
func largestKey(ctx context.Context, db *sql.DB, tables []workload.RemapTable) (int64, error) {
	var most int64
	for _, t := range tables {
		for _, k := range t.Keys {
			var lo, hi sql.NullInt64
			q := fmt.Sprintf("SELECT min(%[1]s), max(%[1]s) FROM %[2]s WHERE typeof(%[1]s) = 'integer'", quoteName(k), quoteName(t.Name))
			if err := db.QueryRowContext(ctx, q).Scan(&lo, &hi); err != nil {
				return 0, fmt.Errorf("reading the keys of %s: %w", t.Name, err)
			}
			if lo.Int64 == math.MinInt64 {
				return math.MaxInt64, nil
			}
			most = max(most, hi.Int64, -lo.Int64)
		}
	}
	return most, nil
}

// withoutRowid matches the text of a WITHOUT ROWID table.
var withoutRowid = regexp.MustCompile(`(?is)\bwithout\s+rowid\b`)

// keyColumns reads each table's columns and keys (workload.RemapTable)
// of the database: virtual tables and their shadow tables are left out.
func keyColumns(ctx context.Context, db *sql.DB) ([]workload.RemapTable, error) {
	rows, err := db.QueryContext(ctx, `SELECT name, coalesce(sql, '') FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\_%' ESCAPE '\' ORDER BY name`)
	if err != nil {
		return nil, err
	}
	type table struct{ name, sql string }
	var tables []table
	var virtual []string
	for rows.Next() {
		var t table
		if err := rows.Scan(&t.name, &t.sql); err != nil {
			rows.Close()
			return nil, err
		}
		if strings.HasPrefix(strings.ToUpper(strings.TrimSpace(t.sql)), "CREATE VIRTUAL") {
			virtual = append(virtual, t.name+"_")
			continue
		}
		tables = append(tables, t)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	var out []workload.RemapTable
	for _, t := range tables {
		if hasAnyPrefix(t.name, virtual) {
			continue
		}
		rt, err := tableKeys(ctx, db, t.name, withoutRowid.MatchString(t.sql))
		if err != nil {
			return nil, fmt.Errorf("table %s: %w", t.name, err)
		}
		out = append(out, rt)
	}
	return out, nil
}

func hasAnyPrefix(s string, prefixes []string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

// tableKeys reads one table's columns and its keys: its PRIMARY KEY, its
// UNIQUE indexes' columns and its FOREIGN KEY columns.
func tableKeys(ctx context.Context, db *sql.DB, name string, noRowid bool) (workload.RemapTable, error) {
	t := workload.RemapTable{Name: name}
	keys := map[string]bool{}
	var pks []string
	var pkType string
	err := queryStrings(ctx, db, `SELECT lower(name), upper(type), pk FROM pragma_table_info(?) ORDER BY cid`, []any{name}, func(v []any) {
		col := v[0].(string)
		t.Columns = append(t.Columns, col)
		if v[2].(int64) > 0 {
			keys[col] = true
			pks = append(pks, col)
			pkType = v[1].(string)
		}
	}, 3)
	if err != nil {
		return t, err
	}
	if len(pks) == 1 && pkType == "INTEGER" && !noRowid {
		t.Alias = pks[0]
	}
	var unique []string
	if err := queryStrings(ctx, db, `SELECT name FROM pragma_index_list(?) WHERE "unique"`, []any{name}, func(v []any) { unique = append(unique, v[0].(string)) }, 1); err != nil {
		return t, err
	}
	for _, ix := range unique {
		if err := queryStrings(ctx, db, `SELECT lower(name) FROM pragma_index_info(?) WHERE name IS NOT NULL`, []any{ix}, func(v []any) { keys[v[0].(string)] = true }, 1); err != nil {
			return t, err
		}
	}
	if err := queryStrings(ctx, db, `SELECT lower("from") FROM pragma_foreign_key_list(?)`, []any{name}, func(v []any) { keys[v[0].(string)] = true }, 1); err != nil {
		return t, err
	}
	for _, c := range t.Columns {
		if keys[c] {
			t.Keys = append(t.Keys, c)
		}
	}
	return t, nil
}

// queryStrings runs a query of n columns, calling row with each row's
// values (text as string, integers as int64).
func queryStrings(ctx context.Context, db *sql.DB, q string, args []any, row func([]any), n int) error {
	rows, err := db.QueryContext(ctx, q, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		v := make([]any, n)
		ptrs := make([]any, n)
		for i := range v {
			ptrs[i] = &v[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return err
		}
		for i, x := range v {
			if b, ok := x.([]byte); ok {
				v[i] = string(b)
			}
		}
		row(v)
	}
	return rows.Err()
}
