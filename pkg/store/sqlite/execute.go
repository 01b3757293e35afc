package sqlite

import (
	"database/sql/driver"
	"fmt"
	"io"

	nsqlite "github.com/ncruces/go-sqlite3"

	"github.com/gobench/gobench/pkg/sqltrace"
	"github.com/gobench/gobench/pkg/store"
)

// Statements given as text (store.Executor), on every kind of connection:
// a replayed trace's. Each text is prepared under the guard the first time
// it comes and kept with the statements of the user's, which the
// connection closes when it closes; past maxKept texts a statement is
// prepared, run and closed each time.

var (
	_ store.Executor = (*conn)(nil)
	_ store.Executor = (*ncConn)(nil)
)

// maxKept bounds the statements a connection keeps for Execute.
const maxKept = 1024

// kept is a statement prepared for Execute.
type kept[S any] struct {
	s      S
	vacuum bool              // a plain VACUUM (see guard)
	n      int               // its parameters
	bind   *sqltrace.Binding // how its arguments bind (database/sql/driver connections)
}

// keep returns the kept statement of sql in m, preparing it with prep
// under g the first time; temp says it is not kept (m is full), and the
// caller closes it.
func keep[S any](m map[string]*kept[S], g *guard, sql string, prep func(string) (S, int, error), user *[]S) (k *kept[S], temp bool, err error) {
	if k, ok := m[sql]; ok {
		return k, false, nil
	}
	vacuum, err := g.begin(sql)
	if err != nil {
		return nil, false, err
	}
	s, n, err := prep(sql)
	if err = g.end(sql, err); err != nil {
		return nil, false, err
	}
	k = &kept[S]{s: s, vacuum: vacuum, n: n}
	if len(m) >= maxKept {
		return k, true, nil
	}
	m[sql] = k
	*user = append(*user, s)
	return k, false, nil
}

// Check prepares a statement given as text (store.Executor).
func (c *conn) Check(sql string) error {
	k, temp, err := c.keptStmt(sql)
	if temp {
		k.s.Close()
	}
	return err
}

// keptStmt returns the kept statement of sql, prepared the first time;
// temp says it is not kept and the caller closes it.
func (c *conn) keptStmt(sql string) (*kept[stmt], bool, error) {
	if c.kept == nil {
		c.kept = map[string]*kept[stmt]{}
	}
	return keep(c.kept, &c.guard, sql, func(q string) (stmt, int, error) {
		s, err := c.prepareStmt(q)
		if err != nil {
			return nil, 0, err
		}
		return s, s.NumInput(), nil
	}, &c.user)
}

// Execute runs a statement given as text (store.Executor).
func (c *conn) Execute(sql string, args []any, maxRows int64, changes bool) (store.Outcome, error) {
	k, temp, err := c.keptStmt(sql)
	if err != nil {
		return store.Outcome{}, err
	}
	if k.bind == nil {
		// modernc binds a named parameter by its name only (see
		// sqltrace.Binding). It does not count the parameters either
		// (NumInput is -1).
		b := sqltrace.NewBinding(sql)
		k.bind = &b
		if k.n < 0 {
			k.n = b.Count
		}
	}
	if temp {
		defer k.s.Close()
	}
	named := k.bind.Bind(args, k.n)
	c.guard.run(k.vacuum)
	var out store.Outcome
	if changes {
		out, err = c.execChanges(k.s, named)
	} else {
		out, err = c.queryRows(k.s, named, maxRows)
	}
	return out, c.guard.end(sql, c.txn.wrapErr(err))
}

// execChanges runs a statement to its end and reads the rows it changed.
func (c *conn) execChanges(s stmt, args []driver.NamedValue) (store.Outcome, error) {
	res, err := s.ExecContext(c.ctx, args)
	if err != nil {
		return store.Outcome{}, err
	}
	n, err := res.RowsAffected()
	return store.Outcome{Changes: n, Done: true}, err
}

// queryRows steps a statement through at most maxRows rows (all, when
// negative).
func (c *conn) queryRows(s stmt, args []driver.NamedValue, maxRows int64) (store.Outcome, error) {
	rows, err := s.QueryContext(c.ctx, args)
	if err != nil {
		return store.Outcome{}, err
	}
	dest := make([]driver.Value, len(rows.Columns()))
	out := store.Outcome{Digested: true}
	dig := sqltrace.NewRowsDigest()
	for maxRows < 0 || out.Rows < maxRows {
		if err = rows.Next(dest); err != nil {
			break
		}
		out.Rows++
		h, ok := sqltrace.Row(dest)
		out.Digested = out.Digested && ok
		dig.Add(h)
	}
	out.Unordered, out.Ordered = dig.Unordered, dig.Ordered
	if err == io.EOF {
		out.Done, err = true, nil
	}
	if cerr := rows.Close(); err == nil {
		err = cerr
	}
	return out, err
}

// Check prepares a statement given as text (store.Executor).
func (c *ncConn) Check(sql string) error {
	k, temp, err := c.keptStmt(sql)
	if temp {
		k.s.Close()
	}
	return err
}

// Execute runs a statement given as text (store.Executor).
func (c *ncConn) Execute(sql string, args []any, maxRows int64, changes bool) (store.Outcome, error) {
	k, temp, err := c.keptStmt(sql)
	if err != nil {
		return store.Outcome{}, err
	}
	if temp {
		defer k.s.Close()
	}
	u := ncUserStmt{s: k.s, c: c, index: make([]int, k.n)}
	for i := range u.index {
		u.index[i] = i + 1
	}
	if err := u.bind(sqltrace.FitArgs(args, k.n)); err != nil {
		_ = k.s.Reset()
		return store.Outcome{}, err
	}
	c.guard.run(k.vacuum)
	out := store.Outcome{Digested: !changes}
	dig := sqltrace.NewRowsDigest()
	for maxRows < 0 || out.Rows < maxRows {
		if !k.s.Step() {
			out.Done = true
			break
		}
		out.Rows++
		dig.Add(ncRowHash(k.s))
	}
	out.Unordered, out.Ordered = dig.Unordered, dig.Ordered
	err = k.s.Err()
	if rerr := k.s.Reset(); err == nil && out.Done {
		err = rerr
	}
	if changes && err == nil {
		out.Changes = c.c.Changes()
	}
	return out, c.guard.end(sql, c.txn.wrapErr(err))
}

// ncRowHash hashes the row s's last step returned (sqltrace.RowHash),
// reading each value as SQLite holds it.
func ncRowHash(s *nsqlite.Stmt) uint64 {
	var h sqltrace.RowHash
	h.Begin()
	for i := range s.ColumnCount() {
		switch s.ColumnType(i) {
		case nsqlite.INTEGER:
			h.Int(s.ColumnInt64(i))
		case nsqlite.FLOAT:
			h.Float(s.ColumnFloat(i))
		case nsqlite.TEXT:
			h.Text(string(s.ColumnRawText(i)))
		case nsqlite.BLOB:
			h.Blob(s.ColumnRawBlob(i))
		default:
			h.Null()
		}
	}
	return h.Sum()
}

// keptStmt returns the kept statement of sql, prepared the first time;
// temp says it is not kept and the caller closes it.
func (c *ncConn) keptStmt(sql string) (*kept[*nsqlite.Stmt], bool, error) {
	if c.kept == nil {
		c.kept = map[string]*kept[*nsqlite.Stmt]{}
	}
	return keep(c.kept, &c.guard, sql, func(q string) (*nsqlite.Stmt, int, error) {
		s, tail, err := c.c.Prepare(q)
		if err != nil {
			return nil, 0, c.d.wrap(err)
		}
		if s == nil {
			return nil, 0, fmt.Errorf("%w: no SQL statement in %.40q", store.ErrInvalid, q)
		}
		if tail != "" && !onlySpace(tail) {
			s.Close()
			return nil, 0, errTail(tail)
		}
		return s, s.BindCount(), nil
	}, &c.user)
}

// onlySpace reports whether s holds nothing but white space and comments'
// worth of nothing (a statement's tail).
func onlySpace(s string) bool {
	for _, r := range s {
		if r != ' ' && r != '\t' && r != '\n' && r != '\r' && r != ';' {
			return false
		}
	}
	return true
}
