package mask

import (
	"context"
	"database/sql"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	_ "modernc.org/sqlite" // registers the "sqlite" driver

	"github.com/gobench/gobench/pkg/sqltrace"
	"github.com/gobench/gobench/pkg/sqltrace/dbdigest"
)

// quoteIdent quotes an identifier for SQL.
func quoteIdent(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }

// snapshotColumns returns every table's columns in order, in lower case,
// of the database file at path.
func snapshotColumns(ctx context.Context, db *sql.Conn) (map[string][]string, error) {
	rows, err := db.QueryContext(ctx, `SELECT lower(m.name), lower(p.name) FROM sqlite_master m, pragma_table_info(m.name) p WHERE m.type = 'table' ORDER BY m.name, p.cid`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	cols := map[string][]string{}
	for rows.Next() {
		var t, c string
		if err := rows.Scan(&t, &c); err != nil {
			return nil, err
		}
		cols[t] = append(cols[t], c)
	}
	return cols, rows.Err()
}

// maskSnapshot replaces, in the database file at path, every value of the
// masked columns its tables have by its substitute, adding the original
// values to seen, and returns the tables' columns. Deleted content is
// overwritten (secure_delete), and sqlite_stat4's samples of the masked
// tables, which hold values of their indexes, are deleted.
func maskSnapshot(path string, cols []Column, k Key, seen map[string]bool) (map[string][]string, error) {
	ctx := context.Background()
	u := url.URL{Scheme: "file", Opaque: (&url.URL{Path: path}).EscapedPath(), RawQuery: "_pragma=secure_delete(1)"} // the file keeps its journal mode
	db, err := sql.Open("sqlite", u.String())
	if err != nil {
		return nil, err
	}
	defer db.Close()
	conn, err := db.Conn(ctx)
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	schema, err := snapshotColumns(ctx, conn)
	if err != nil {
		return nil, fmt.Errorf("reading the snapshot's tables: %w", err)
	}
	for _, c := range cols {
		if !hasColumn(schema[c.Table], c.Column) {
			continue
		}
		if err := maskColumn(ctx, conn, c, k, seen); err != nil {
			return nil, fmt.Errorf("masking %s in the snapshot: %w", c, err)
		}
	}
	return schema, nil
}

func hasColumn(cols []string, c string) bool {
	for _, x := range cols {
		if x == c {
			return true
		}
	}
	return false
}

// maskColumn replaces one column's values, through a temporary table of
// each distinct value and its substitute.
func maskColumn(ctx context.Context, conn *sql.Conn, c Column, k Key, seen map[string]bool) error {
	t, col := quoteIdent(c.Table), quoteIdent(c.Column)
	rows, err := conn.QueryContext(ctx, "SELECT DISTINCT "+col+" FROM "+t+" WHERE "+col+" IS NOT NULL")
	if err != nil {
		return err
	}
	var vals []sqltrace.Value
	for rows.Next() {
		var a any
		if err := rows.Scan(&a); err != nil {
			rows.Close()
			return err
		}
		vals = append(vals, fromAny(a))
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	stmts := []string{"BEGIN", "CREATE TEMP TABLE gobench_mask(o, n)"}
	for _, s := range stmts {
		if _, err := conn.ExecContext(ctx, s); err != nil {
			return err
		}
	}
	for _, v := range vals {
		if key, ok := valueKey(v); ok {
			seen[key] = true
		}
		if _, err := conn.ExecContext(ctx, "INSERT INTO temp.gobench_mask VALUES (?, ?)", v.Any(), k.Value(v).Any()); err != nil {
			return err
		}
	}
	stmts = []string{
		"CREATE INDEX temp.gobench_mask_o ON gobench_mask(o)",
		"UPDATE " + t + " SET " + col + " = (SELECT n FROM temp.gobench_mask WHERE o = " + t + "." + col + ") WHERE " + col + " IS NOT NULL",
		"DROP TABLE temp.gobench_mask",
	}
	for _, s := range stmts {
		if _, err := conn.ExecContext(ctx, s); err != nil {
			conn.ExecContext(ctx, "ROLLBACK")
			return err
		}
	}
	var stat4 int
	conn.QueryRowContext(ctx, "SELECT count(*) FROM sqlite_master WHERE name = 'sqlite_stat4'").Scan(&stat4)
	if stat4 > 0 {
		if _, err := conn.ExecContext(ctx, "DELETE FROM sqlite_stat4 WHERE lower(tbl) = ?", c.Table); err != nil {
			conn.ExecContext(ctx, "ROLLBACK")
			return err
		}
	}
	_, err = conn.ExecContext(ctx, "COMMIT")
	return err
}

// fromAny is a value database/sql read as a trace's value.
func fromAny(a any) sqltrace.Value {
	switch x := a.(type) {
	case int64:
		return sqltrace.Value{Type: sqltrace.ValueInt, Int: x}
	case float64:
		return sqltrace.Value{Type: sqltrace.ValueFloat, Float: x}
	case string:
		return sqltrace.Value{Type: sqltrace.ValueText, Bytes: []byte(x)}
	case []byte:
		return sqltrace.Value{Type: sqltrace.ValueBlob, Bytes: x}
	}
	return sqltrace.Value{}
}

// endDigest returns the digest of the database at path (the program's,
// as the capture ended) as it would be with cols masked: of a copy of it
// (VACUUM INTO a file of dir), masked, so that a replay of the masked
// trace, which puts the same substitutes where the capture put the
// values, can end equal to it.
func endDigest(path, dir string, cols []Column, k Key) ([]sqltrace.TableDigest, error) {
	tmp := filepath.Join(dir, "mask-end.db")
	os.Remove(tmp)
	defer os.Remove(tmp)
	u := url.URL{Scheme: "file", Opaque: (&url.URL{Path: path}).EscapedPath(), RawQuery: "mode=ro&_pragma=busy_timeout(10000)"}
	db, err := sql.Open("sqlite", u.String())
	if err != nil {
		return nil, err
	}
	_, err = db.Exec("VACUUM INTO ?", tmp)
	db.Close()
	if err != nil {
		return nil, fmt.Errorf("copying %s: %w", path, err)
	}
	if _, err := maskSnapshot(tmp, cols, k, map[string]bool{}); err != nil {
		return nil, err
	}
	return dbdigest.File(tmp)
}
