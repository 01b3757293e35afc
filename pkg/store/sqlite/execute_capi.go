//go:build cgo

package sqlite

import (
	"errors"
	"fmt"
	"strings"

	"github.com/gobench/gobench/pkg/sqltrace"
	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/store/sqlite/internal/capi"
)

var _ store.Executor = (*capiConn)(nil)

// Check prepares a statement given as text (store.Executor).
func (c *capiConn) Check(sql string) error {
	k, temp, err := c.keptStmt(sql)
	if temp {
		k.s.Close()
	}
	return err
}

// keptStmt returns the kept statement of sql, prepared the first time;
// temp says it is not kept and the caller closes it.
func (c *capiConn) keptStmt(sql string) (*kept[*capi.Stmt], bool, error) {
	if c.kept == nil {
		c.kept = map[string]*kept[*capi.Stmt]{}
	}
	return keep(c.kept, &c.guard, sql, func(q string) (*capi.Stmt, int, error) {
		s, tail, err := c.c.Prepare(q)
		if err != nil {
			return nil, 0, c.d.wrap(err)
		}
		if s == nil {
			return nil, 0, fmt.Errorf("%w: no SQL statement in %.40q", store.ErrInvalid, q)
		}
		if strings.TrimSpace(tail) != "" && !onlySpace(tail) {
			s.Close()
			return nil, 0, errTail(tail)
		}
		return s, s.BindCount(), nil
	}, &c.user)
}

// Execute runs a statement given as text (store.Executor).
func (c *capiConn) Execute(sql string, args []any, maxRows int64, changes bool) (store.Outcome, error) {
	k, temp, err := c.keptStmt(sql)
	if err != nil {
		return store.Outcome{}, err
	}
	if temp {
		defer k.s.Close()
	}
	for i, a := range sqltrace.FitArgs(args, k.n) {
		if err := k.s.Bind(i+1, a); err != nil {
			k.s.Clear()
			if e := (*capi.Error)(nil); !errors.As(err, &e) {
				return store.Outcome{}, fmt.Errorf("%w: %w", store.ErrInvalid, err)
			}
			return store.Outcome{}, c.d.wrap(err)
		}
	}
	c.guard.run(k.vacuum)
	out := store.Outcome{Digested: !changes}
	dig := sqltrace.NewRowsDigest()
	for maxRows < 0 || out.Rows < maxRows {
		row, serr := k.s.Step()
		if serr != nil {
			err = serr
			break
		}
		if !row {
			out.Done = true
			break
		}
		out.Rows++
		dig.Add(k.s.RowHash())
	}
	out.Unordered, out.Ordered = dig.Unordered, dig.Ordered
	k.s.Reset()
	if changes && err == nil {
		out.Changes = int64(c.c.Changes())
	}
	return out, c.guard.end(sql, c.txn.wrapErr(err))
}
