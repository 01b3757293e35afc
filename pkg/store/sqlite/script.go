package sqlite

import (
	"database/sql/driver"
	"fmt"
	"io"
	"strings"

	nsqlite "github.com/ncruces/go-sqlite3"

	"github.com/gobench/gobench/pkg/store"
)

// Statements of the user's (store.Scripter), on both kinds of connection.
var (
	_ store.Scripter = (*conn)(nil)
	_ store.Scripter = (*ncConn)(nil)
)

// errTail refuses SQL holding more than one statement: a script's
// statements are split before they are prepared.
func errTail(tail string) error {
	return fmt.Errorf("%w: more than one statement (the rest begins %.40q)", store.ErrInvalid, strings.TrimSpace(tail))
}

// Prepare prepares a statement of the user's on a database/sql/driver
// connection; its arguments bind by name (mattn and modernc look the name
// up with its colon).
func (c *conn) Prepare(sql string, params []string) (store.Statement, error) {
	vacuum, err := c.guard.begin(sql)
	if err != nil {
		return nil, err
	}
	s, err := c.prepareStmt(sql)
	if err = c.guard.end(sql, err); err != nil {
		return nil, err
	}
	c.user = append(c.user, s)
	if n := s.NumInput(); n >= 0 && n != len(params) { // modernc does not say (-1)
		return nil, errParams(len(params), n)
	}
	us := &userStmt{s: s, c: c, sql: sql, vacuum: vacuum, args: make([]driver.NamedValue, len(params))}
	for i, p := range params {
		us.args[i] = driver.NamedValue{Name: p, Ordinal: i + 1}
	}
	return us, nil
}

// userStmt is a statement of the user's through database/sql/driver.
type userStmt struct {
	s      stmt
	c      *conn
	sql    string
	vacuum bool                // a plain VACUUM (see guard)
	args   []driver.NamedValue // named, one per parameter
	dest   []driver.Value
}

// Run binds args by name, queries (which steps any statement, a write
// too) and reads every row.
func (u *userStmt) Run(args ...any) (int64, error) {
	if len(args) != len(u.args) {
		return 0, errArgs(len(args), len(u.args))
	}
	for i, a := range args {
		u.args[i].Value = a
	}
	u.c.guard.run(u.vacuum)
	n, err := u.query()
	return n, u.c.guard.end(u.sql, err)
}

// query queries and reads every row.
func (u *userStmt) query() (int64, error) {
	rows, err := u.s.QueryContext(u.c.ctx, u.args)
	if err != nil {
		return 0, u.c.txn.wrapErr(err)
	}
	if n := len(rows.Columns()); cap(u.dest) < n {
		u.dest = make([]driver.Value, n)
	} else {
		u.dest = u.dest[:n]
	}
	var count int64
	for {
		err = rows.Next(u.dest)
		if err != nil {
			break
		}
		count++
	}
	cerr := rows.Close()
	if err == io.EOF {
		err = cerr
	}
	return count, u.c.txn.wrapErr(err)
}

// closeUser closes the statements of the user's.
func closeUser[S io.Closer](list []S) error {
	var first error
	for _, s := range list {
		if err := s.Close(); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// indexedStmt is a prepared statement whose parameters are found by name,
// as ncruces's and capi's are.
type indexedStmt interface {
	comparable
	io.Closer
	BindCount() int
	BindIndex(name string) int
}

// prepareIndexed prepares a statement of the user's with prep (which
// returns the statement, nil for none, and the SQL after it), keeps it in
// *user to be closed with the connection, and returns it with each named
// parameter's index, looked up once.
func prepareIndexed[S indexedStmt](sql string, params []string, prep func(string) (S, string, error), user *[]S) (S, []int, error) {
	var none S
	s, tail, err := prep(sql)
	if err != nil {
		return none, nil, err
	}
	if s == none {
		return none, nil, fmt.Errorf("%w: no SQL statement in %.40q", store.ErrInvalid, sql)
	}
	if strings.TrimSpace(tail) != "" {
		s.Close()
		return none, nil, errTail(tail)
	}
	*user = append(*user, s)
	if n := s.BindCount(); n != len(params) {
		return none, nil, errParams(len(params), n)
	}
	index := make([]int, len(params))
	for i, p := range params {
		if index[i] = s.BindIndex(":" + p); index[i] == 0 {
			return none, nil, fmt.Errorf("%w: the statement has no parameter :%s", store.ErrInvalid, p)
		}
	}
	return s, index, nil
}

// Prepare prepares a statement of the user's on an ncruces connection;
// each named parameter's index is looked up once.
func (c *ncConn) Prepare(sql string, params []string) (store.Statement, error) {
	vacuum, err := c.guard.begin(sql)
	if err != nil {
		return nil, err
	}
	s, index, err := prepareIndexed(sql, params, func(q string) (*nsqlite.Stmt, string, error) {
		s, tail, err := c.c.Prepare(q)
		return s, tail, c.d.wrap(err)
	}, &c.user)
	if err = c.guard.end(sql, err); err != nil {
		return nil, err
	}
	return &ncUserStmt{s: s, c: c, sql: sql, vacuum: vacuum, index: index}, nil
}

// ncUserStmt is a statement of the user's through ncruces.
type ncUserStmt struct {
	s      *nsqlite.Stmt
	c      *ncConn
	sql    string
	vacuum bool  // a plain VACUUM (see guard)
	index  []int // each argument's parameter index
}

// Run binds args by position, steps to the end and resets.
func (u *ncUserStmt) Run(args ...any) (int64, error) {
	if err := u.bind(args); err != nil {
		_ = u.s.Reset()
		return 0, err
	}
	u.c.guard.run(u.vacuum)
	var count int64
	for u.s.Step() {
		count++
	}
	err := u.s.Err()
	if rerr := u.s.Reset(); err == nil {
		err = rerr
	}
	return count, u.c.guard.end(u.sql, u.c.txn.wrapErr(err))
}

func (u *ncUserStmt) bind(args []any) error {
	if len(args) != len(u.index) {
		return errArgs(len(args), len(u.index))
	}
	var err error
	for i, a := range args {
		at := u.index[i]
		switch v := a.(type) {
		case nil:
			err = u.s.BindNull(at)
		case int64:
			err = u.s.BindInt64(at, v)
		case float64:
			err = u.s.BindFloat(at, v)
		case string:
			err = u.s.BindText(at, v)
		case []byte:
			err = u.s.BindBlob(at, v)
		default:
			err = fmt.Errorf("%w: cannot bind a %T", store.ErrInvalid, a)
		}
		if err != nil {
			return u.c.d.wrap(err)
		}
	}
	return nil
}

// errArgs refuses a run with another number of arguments than the
// parameters Prepare named.
func errArgs(args, params int) error {
	return fmt.Errorf("%w: %d arguments for %d parameters", store.ErrInvalid, args, params)
}

// errParams refuses a statement whose parameters are not the ones named.
func errParams(named, has int) error {
	return fmt.Errorf("%w: %d parameters named for a statement that has %d", store.ErrInvalid, named, has)
}
