package dbdigest

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"fmt"
	"io"
	"slices"
	"strconv"

	"github.com/gobench/gobench/pkg/sqltrace"
)

// Rebuild is a scratch copy of a database on which a run's committed
// transactions run again, in their order, keeping the database's column
// sums after each (FileSums): temporary triggers on every table log the
// rows each statement changes, and Settle moves them into the sums. A
// table the statements create is summed from then on, its columns added
// after the others' (a column added to a table that exists is not).
type Rebuild struct {
	db     *sql.DB
	conn   *sql.Conn
	tables []table
	cols   []string
	sums   []uint64
	stmts  map[string]*rebuildStmt
	schema int64 // the schema_version the tables were read at
}

// OpenRebuild opens the database at path (a copy: it is written) and
// sums its content.
func OpenRebuild(path string) (*Rebuild, error) {
	db, conn, err := open(path)
	if err != nil {
		return nil, err
	}
	r := &Rebuild{db: db, conn: conn, stmts: map[string]*rebuildStmt{}}
	if err := r.setUp(); err != nil {
		r.Close()
		return nil, fmt.Errorf("rebuilding from %s: %w", path, err)
	}
	return r, nil
}

// setUp installs the log of changes, then sums the tables and installs
// their triggers.
func (r *Rebuild) setUp() error {
	// REPLACE's deletions fire delete triggers only with
	// recursive_triggers on.
	for _, s := range []string{"PRAGMA recursive_triggers = ON", "CREATE TEMP TABLE gobench_changes (tbl TEXT, old TEXT, new TEXT)"} {
		if _, err := r.conn.ExecContext(context.Background(), s); err != nil {
			return fmt.Errorf("%s: %w", s, err)
		}
	}
	_, err := r.newTables()
	return err
}

// newTables reads the tables again where the schema changed: each table
// not summed yet is summed, its columns after the others', and gets its
// triggers. It reports whether there was one.
func (r *Rebuild) newTables() (bool, error) {
	q := connQuerier{r.conn}
	v, err := queryStrings(q, "PRAGMA schema_version")
	if err != nil || len(v) != 1 {
		return false, fmt.Errorf("reading the schema's version: %v", err)
	}
	version, _ := strconv.ParseInt(v[0], 10, 64)
	if version == r.schema && r.sums != nil {
		return false, nil
	}
	r.schema = version
	tables, _, err := tablesOf(q)
	if err != nil {
		return false, err
	}
	added := false
	for _, t := range tables {
		if slices.ContainsFunc(r.tables, func(o table) bool { return o.name == t.name }) {
			continue
		}
		added = true
		t.off = len(r.cols)
		for _, c := range t.cols {
			r.cols = append(r.cols, t.name+"."+c)
		}
		r.sums = append(r.sums, make([]uint64, len(t.cols))...)
		if err := sumTable(q, &t, r.sums); err != nil {
			return false, err
		}
		if err := r.trigger(t, len(r.tables)); err != nil {
			return false, err
		}
		r.tables = append(r.tables, t)
	}
	if r.sums == nil {
		r.sums = []uint64{}
	}
	return added, nil
}

// trigger installs table t's triggers, numbered i.
func (r *Rebuild) trigger(t table, i int) error {
	on := "AFTER %s ON main." + t.ident + " BEGIN INSERT INTO temp.gobench_changes VALUES (" + quoteLit(t.name) + ", %s, %s); END"
	for _, s := range []string{
		fmt.Sprintf("CREATE TEMP TRIGGER gobench_i%d "+on, i, "INSERT", "NULL", t.rowExpr("new.")),
		fmt.Sprintf("CREATE TEMP TRIGGER gobench_u%d "+on, i, "UPDATE", t.rowExpr("old."), t.rowExpr("new.")),
		fmt.Sprintf("CREATE TEMP TRIGGER gobench_d%d "+on, i, "DELETE", t.rowExpr("old."), "NULL"),
	} {
		if _, err := r.conn.ExecContext(context.Background(), s); err != nil {
			return fmt.Errorf("%s: %w", s, err)
		}
	}
	return nil
}

func quoteLit(s string) string {
	b := []byte{'\''}
	for i := range len(s) {
		if s[i] == '\'' {
			b = append(b, '\'')
		}
		b = append(b, s[i])
	}
	return string(append(b, '\''))
}

// Columns returns the columns the sums are of, "table.column".
func (r *Rebuild) Columns() []string { return r.cols }

// Sums returns the column sums as of the last Settle (a copy).
func (r *Rebuild) Sums() []uint64 { return slices.Clone(r.sums) }

// Exec runs one statement, its parameters :names bound to args in order
// (a sql script's), or, names nil, args bound by SQLite's parameter index
// as a trace keeps them (a replay's), as the replay's connections bind
// them (sqltrace.Binding). It runs on the driver's connection, as those
// do: database/sql would refuse a parameter's name that does not begin
// with a letter ($1, :_id).
func (r *Rebuild) Exec(query string, names []string, args []any) error {
	return r.conn.Raw(func(dc any) error {
		s, err := r.prepared(dc, query)
		if err != nil {
			return err
		}
		var vals []driver.NamedValue
		if names != nil {
			for i, a := range args {
				vals = append(vals, driver.NamedValue{Ordinal: i + 1, Name: names[i], Value: a})
			}
		} else {
			vals = s.bind.Bind(args, -1)
		}
		return s.run(vals)
	})
}

// prepared returns the statement query prepared on the driver's
// connection dc, preparing it the first time.
func (r *Rebuild) prepared(dc any, query string) (*rebuildStmt, error) {
	if s, ok := r.stmts[query]; ok {
		return s, nil
	}
	c, ok := dc.(driver.ConnPrepareContext)
	if !ok {
		return nil, fmt.Errorf("the driver's connection %T prepares no statement with a context", dc)
	}
	st, err := c.PrepareContext(context.Background(), query)
	if err != nil {
		return nil, err
	}
	q, ok := st.(driver.StmtQueryContext)
	if !ok {
		st.Close()
		return nil, fmt.Errorf("the driver's statement %T queries with no context", st)
	}
	s := &rebuildStmt{s: q, closer: st, bind: sqltrace.NewBinding(query)}
	r.stmts[query] = s
	return s, nil
}

// rebuildStmt is a statement Exec prepared on the driver's connection,
// and how a trace's arguments bind to it.
type rebuildStmt struct {
	s      driver.StmtQueryContext
	closer io.Closer
	bind   sqltrace.Binding
}

// run queries the statement (which steps a write too) and reads every row.
func (s *rebuildStmt) run(args []driver.NamedValue) error {
	rows, err := s.s.QueryContext(context.Background(), args)
	if err != nil {
		return err
	}
	dest := make([]driver.Value, len(rows.Columns()))
	for err == nil {
		err = rows.Next(dest)
	}
	cerr := rows.Close()
	if err == io.EOF {
		return cerr
	}
	return err
}

// Settle moves the changes logged since the last Settle into the sums,
// once the transaction that made them is over, and reports whether there
// were any (a table created is one).
func (r *Rebuild) Settle() (bool, error) {
	changed, err := r.settleRows()
	if err != nil {
		return false, err
	}
	added, err := r.newTables()
	return changed || added, err
}

// settleRows moves the rows logged into the sums.
func (r *Rebuild) settleRows() (bool, error) {
	rows, err := r.conn.QueryContext(context.Background(), "SELECT tbl, old, new FROM temp.gobench_changes ORDER BY rowid")
	if err != nil {
		return false, err
	}
	type change struct{ tbl, old, new sql.NullString }
	var changes []change
	for rows.Next() {
		var c change
		if err := rows.Scan(&c.tbl, &c.old, &c.new); err != nil {
			rows.Close()
			return false, err
		}
		changes = append(changes, c)
	}
	if err := errorsJoin(rows.Err(), rows.Close()); err != nil {
		return false, err
	}
	for _, c := range changes {
		i := slices.IndexFunc(r.tables, func(t table) bool { return t.name == c.tbl.String })
		if i < 0 {
			return false, fmt.Errorf("a change of an unknown table %q", c.tbl.String)
		}
		t := &r.tables[i]
		if c.old.Valid {
			if err := t.addRow(r.sums, c.old.String, ^uint64(0)); err != nil {
				return false, err
			}
		}
		if c.new.Valid {
			if err := t.addRow(r.sums, c.new.String, 1); err != nil {
				return false, err
			}
		}
	}
	if len(changes) > 0 {
		if _, err := r.conn.ExecContext(context.Background(), "DELETE FROM temp.gobench_changes"); err != nil {
			return false, err
		}
	}
	return len(changes) > 0, nil
}

// Rollback rolls back a transaction a statement left open, if any.
func (r *Rebuild) Rollback() {
	_, _ = r.conn.ExecContext(context.Background(), "ROLLBACK")
	_, _ = r.conn.ExecContext(context.Background(), "DELETE FROM temp.gobench_changes")
}

// Close closes the copy.
func (r *Rebuild) Close() error {
	_ = r.conn.Raw(func(any) error {
		for _, s := range r.stmts {
			s.closer.Close()
		}
		return nil
	})
	return errorsJoin(r.conn.Close(), r.db.Close())
}

func errorsJoin(a, b error) error {
	if a != nil {
		return a
	}
	return b
}
