package replay

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	"github.com/gobench/gobench/pkg/workload"
)

// seedCopies gives each copy c ≥ 1 of a remapped replay
// (workload.ReplayRemap) its own copy of the snapshot's rows in the
// database file at path, their keys moved as the copy's statements move
// theirs (moveKey): an integer by c × span, a text or blob suffixed. It
// returns the rows it inserted; a replay that does not remap inserts
// none. Rows of a table without an INTEGER PRIMARY KEY get new rowids.
func seedCopies(ctx context.Context, r *workload.Replay, path string) (int64, error) {
	if !r.Remapping() {
		return 0, nil
	}
	db, err := openFile(path)
	if err != nil {
		return 0, err
	}
	defer db.Close()
	cols := map[string][]string{}
	for _, t := range r.Remap.Tables {
		if t.Rows {
			if cols[t.Name], err = liveColumns(ctx, db, t.Name); err != nil {
				return 0, fmt.Errorf("copying %s for each copy: %w", t.Name, err)
			}
		}
	}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return 0, err
	}
	defer tx.Rollback() //nolint:errcheck // after Commit, a no-op
	var total int64
	for _, t := range r.Remap.Tables {
		if !t.Rows {
			continue
		}
		keys := map[string]bool{}
		for _, k := range t.Keys {
			keys[k] = true
		}
		stmts := []string{"CREATE TEMP TABLE gobench_seed AS SELECT * FROM main." + quoteName(t.Name)}
		for c := 1; c < r.Scale; c++ {
			stmts = append(stmts, seedInsert(t.Name, cols[t.Name], keys, c, r.Remap.Span))
		}
		stmts = append(stmts, "DROP TABLE temp.gobench_seed")
		for _, s := range stmts {
			res, err := tx.ExecContext(ctx, s)
			if err != nil {
				return 0, fmt.Errorf("copying %s for each copy: %w", t.Name, err)
			}
			if strings.HasPrefix(s, "INSERT") {
				n, _ := res.RowsAffected()
				total += n
			}
		}
	}
	return total, tx.Commit()
}

// liveColumns returns a table's columns as its schema spells them.
func liveColumns(ctx context.Context, db *sql.DB, table string) ([]string, error) {
	var cols []string
	err := queryStrings(ctx, db, `SELECT name FROM pragma_table_info(?) ORDER BY cid`, []any{table}, func(v []any) { cols = append(cols, v[0].(string)) }, 1)
	return cols, err
}

// seedInsert returns the statement that inserts copy c of a table's
// rows, held in temp.gobench_seed, its keys moved.
func seedInsert(table string, cols []string, keys map[string]bool, c int, span int64) string {
	names := make([]string, len(cols))
	exprs := make([]string, len(cols))
	suffix := "'" + workload.RemapSuffix(c) + "'"
	for i, col := range cols {
		q := quoteName(col)
		names[i], exprs[i] = q, q
		if keys[strings.ToLower(col)] {
			exprs[i] = fmt.Sprintf("CASE typeof(%[1]s) WHEN 'integer' THEN %[1]s + %[2]d WHEN 'text' THEN %[1]s || %[3]s WHEN 'blob' THEN CAST(%[1]s || %[3]s AS BLOB) ELSE %[1]s END", q, int64(c)*span, suffix)
		}
	}
	return fmt.Sprintf("INSERT INTO main.%s (%s) SELECT %s FROM temp.gobench_seed", quoteName(table), strings.Join(names, ", "), strings.Join(exprs, ", "))
}
