package capture

import (
	"context"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"reflect"
	"time"

	"github.com/gobench/gobench/pkg/sqltrace"
)

// stmt is a recorded prepared statement.
type stmt struct {
	cn    *conn
	under driver.Stmt
	sql   string
	pm    paramMap
}

var (
	_ driver.Stmt              = (*stmt)(nil)
	_ driver.StmtExecContext   = (*stmt)(nil)
	_ driver.StmtQueryContext  = (*stmt)(nil)
	_ driver.NamedValueChecker = (*stmt)(nil)
)

// Close closes the statement.
func (s *stmt) Close() error { return s.under.Close() }

// NumInput returns the statement's number of parameters, as the driver
// says.
func (s *stmt) NumInput() int { return s.under.NumInput() }

// Exec runs the statement (the interface's old form).
func (s *stmt) Exec(args []driver.Value) (driver.Result, error) {
	return s.ExecContext(context.Background(), named(args))
}

// Query runs the statement (the interface's old form).
func (s *stmt) Query(args []driver.Value) (driver.Rows, error) {
	return s.QueryContext(context.Background(), named(args))
}

// ExecContext runs the statement, recorded with the rows it changed.
func (s *stmt) ExecContext(ctx context.Context, args []driver.NamedValue) (driver.Result, error) {
	r := s.cn.before()
	var res driver.Result
	var err error
	if ec, ok := s.under.(driver.StmtExecContext); ok {
		res, err = ec.ExecContext(ctx, args)
	} else {
		var vals []driver.Value
		if vals, err = unnamed(args); err == nil {
			//lint:ignore SA1019 the fallback database/sql uses too
			res, err = s.under.Exec(vals)
		}
	}
	end := time.Now()
	s.cn.done(r, end, end.Sub(r.start), s.sql, s.pm, args, resultOutcome(res, err))
	return res, err
}

// QueryContext runs the statement, recorded when its rows are closed.
func (s *stmt) QueryContext(ctx context.Context, args []driver.NamedValue) (driver.Rows, error) {
	r := s.cn.before()
	var rows driver.Rows
	var err error
	if qc, ok := s.under.(driver.StmtQueryContext); ok {
		rows, err = qc.QueryContext(ctx, args)
	} else {
		var vals []driver.Value
		if vals, err = unnamed(args); err == nil {
			//lint:ignore SA1019 the fallback database/sql uses too
			rows, err = s.under.Query(vals)
		}
	}
	return s.cn.rows(r, s.sql, s.pm, args, rows, err)
}

// CheckNamedValue checks an argument as the driver's statement, or its
// connection, would.
func (s *stmt) CheckNamedValue(nv *driver.NamedValue) error {
	if c, ok := s.under.(driver.NamedValueChecker); ok {
		return c.CheckNamedValue(nv)
	}
	return s.cn.CheckNamedValue(nv)
}

// named and unnamed convert arguments between the interface's forms, as
// database/sql does.
func named(args []driver.Value) []driver.NamedValue {
	out := make([]driver.NamedValue, len(args))
	for i, v := range args {
		out[i] = driver.NamedValue{Ordinal: i + 1, Value: v}
	}
	return out
}

func unnamed(args []driver.NamedValue) ([]driver.Value, error) {
	out := make([]driver.Value, len(args))
	for i, a := range args {
		if a.Name != "" {
			return nil, errors.New("sql: driver does not support the use of Named Parameters")
		}
		out[i] = a.Value
	}
	return out, nil
}

// resultOutcome is the outcome of an Exec: the rows it changed.
func resultOutcome(res driver.Result, err error) outcome {
	o := outcome{err: err, done: err == nil}
	if err == nil && res != nil {
		if n, rerr := res.RowsAffected(); rerr == nil {
			o.changes, o.changed = n, true
		}
	}
	return o
}

// rows wraps the rows of a query that began at r; the query is recorded
// when they are closed, or at once if it failed.
func (cn *conn) rows(r run, sql string, pm paramMap, args []driver.NamedValue, under driver.Rows, err error) (driver.Rows, error) {
	if err != nil {
		end := time.Now()
		cn.done(r, end, end.Sub(r.start), sql, pm, args, outcome{err: err})
		return nil, err
	}
	in := time.Since(r.start)
	return &rows{cn: cn, r: r, sql: sql, pm: pm, args: append([]driver.NamedValue(nil), args...), under: under, in: in, digest: sqltrace.NewRowsDigest()}, nil
}

// rows are a recorded query's rows.
type rows struct {
	cn     *conn
	r      run
	sql    string
	pm     paramMap
	args   []driver.NamedValue
	under  driver.Rows
	in     time.Duration // spent in the driver so far
	n      int64
	digest sqltrace.RowsDigest // of the rows read, while digested
	// undigested says a row held a value whose type the digest does not
	// know (sqltrace.RowHash.Value).
	undigested bool
	done       bool
	err        error
	closed     bool
}

var (
	_ driver.Rows                           = (*rows)(nil)
	_ driver.RowsNextResultSet              = (*rows)(nil)
	_ driver.RowsColumnTypeDatabaseTypeName = (*rows)(nil)
	_ driver.RowsColumnTypeLength           = (*rows)(nil)
	_ driver.RowsColumnTypeNullable         = (*rows)(nil)
	_ driver.RowsColumnTypePrecisionScale   = (*rows)(nil)
	_ driver.RowsColumnTypeScanType         = (*rows)(nil)
)

// Columns returns the columns' names.
func (r *rows) Columns() []string { return r.under.Columns() }

// Next reads the next row, counting it.
func (r *rows) Next(dest []driver.Value) error {
	t := time.Now()
	err := r.under.Next(dest)
	r.in += time.Since(t)
	switch {
	case err == nil:
		r.n++
		if h, ok := sqltrace.Row(dest); ok {
			r.digest.Add(h)
		} else {
			r.undigested = true
		}
	case err == io.EOF:
		r.done = true
	default:
		r.err = err
	}
	return err
}

// Close closes the rows and records the query.
func (r *rows) Close() error {
	t := time.Now()
	err := r.under.Close()
	end := time.Now()
	if !r.closed {
		r.closed = true
		o := outcome{rows: r.n, done: r.done, err: r.err, digested: !r.undigested, digest: r.digest}
		r.cn.done(r.r, end, r.in+end.Sub(t), r.sql, r.pm, r.args, o)
	}
	return err
}

// HasNextResultSet reports whether the driver has another result set.
func (r *rows) HasNextResultSet() bool {
	if n, ok := r.under.(driver.RowsNextResultSet); ok {
		return n.HasNextResultSet()
	}
	return false
}

// NextResultSet moves to the driver's next result set.
func (r *rows) NextResultSet() error {
	if n, ok := r.under.(driver.RowsNextResultSet); ok {
		return n.NextResultSet()
	}
	return io.EOF
}

// ColumnTypeDatabaseTypeName returns the driver's type name of a column.
func (r *rows) ColumnTypeDatabaseTypeName(i int) string {
	if c, ok := r.under.(driver.RowsColumnTypeDatabaseTypeName); ok {
		return c.ColumnTypeDatabaseTypeName(i)
	}
	return ""
}

// ColumnTypeLength returns the driver's length of a column.
func (r *rows) ColumnTypeLength(i int) (int64, bool) {
	if c, ok := r.under.(driver.RowsColumnTypeLength); ok {
		return c.ColumnTypeLength(i)
	}
	return 0, false
}

// ColumnTypeNullable says whether the driver's column may be null.
func (r *rows) ColumnTypeNullable(i int) (bool, bool) {
	if c, ok := r.under.(driver.RowsColumnTypeNullable); ok {
		return c.ColumnTypeNullable(i)
	}
	return false, false
}

// ColumnTypePrecisionScale returns the driver's precision and scale of a
// column.
func (r *rows) ColumnTypePrecisionScale(i int) (int64, int64, bool) {
	if c, ok := r.under.(driver.RowsColumnTypePrecisionScale); ok {
		return c.ColumnTypePrecisionScale(i)
	}
	return 0, 0, false
}

// ColumnTypeScanType returns the driver's Go type of a column.
func (r *rows) ColumnTypeScanType(i int) reflect.Type {
	if c, ok := r.under.(driver.RowsColumnTypeScanType); ok {
		return c.ColumnTypeScanType(i)
	}
	return reflect.TypeFor[any]()
}

// paramMap maps a statement's named parameters to SQLite's indexes.
type paramMap struct {
	names map[string]int
	count int
}

func newParamMap(sql string) paramMap {
	names, count := sqltrace.ParamIndex(sql)
	return paramMap{names: names, count: count}
}

// values returns args as the trace keeps them, by SQLite's parameter
// index: an argument with a name goes where :name, @name or $name is (the
// first the statement has, as mattn's driver looks them up), one without
// where its ordinal says. Parameters no argument binds are NULL.
func (pm paramMap) values(args []driver.NamedValue, bindTime timeBinder) []sqltrace.Value {
	n := pm.count
	for _, a := range args {
		if a.Name == "" && a.Ordinal > n {
			n = a.Ordinal
		}
	}
	if n == 0 {
		return nil
	}
	out := make([]sqltrace.Value, min(n, sqltrace.MaxParams))
	for _, a := range args {
		at := a.Ordinal
		if a.Name != "" {
			at = 0
			for _, p := range []string{":", "@", "$"} {
				if i, ok := pm.names[p+a.Name]; ok {
					at = i
					break
				}
			}
		}
		if at >= 1 && at <= len(out) {
			out[at-1] = value(a.Value, bindTime)
		}
	}
	return out
}

// value converts an argument as drivers bind it: those database/sql
// passes (int64, float64, bool, string, []byte, time.Time, nil), and the
// other integers, floats, strings and byte slices a driver's
// CheckNamedValue lets through (ncruces's does); anything else as the
// text fmt.Sprint makes of it. A time.Time is converted by bindTime, as
// the driver underneath binds it (mattn's text when nil).
func value(v any, bindTime timeBinder) sqltrace.Value {
	switch v := v.(type) {
	case nil:
		return sqltrace.Value{}
	case int64:
		return sqltrace.Value{Type: sqltrace.ValueInt, Int: v}
	case float64:
		return sqltrace.Value{Type: sqltrace.ValueFloat, Float: v}
	case bool:
		if v {
			return sqltrace.Value{Type: sqltrace.ValueInt, Int: 1}
		}
		return sqltrace.Value{Type: sqltrace.ValueInt}
	case string:
		return sqltrace.Keep(sqltrace.ValueText, []byte(v))
	case []byte:
		return sqltrace.Keep(sqltrace.ValueBlob, v)
	case time.Time:
		if bindTime == nil {
			return mattnTime(v)
		}
		return bindTime(v)
	}
	r := reflect.ValueOf(v)
	switch r.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return sqltrace.Value{Type: sqltrace.ValueInt, Int: r.Int()}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return sqltrace.Value{Type: sqltrace.ValueInt, Int: int64(r.Uint())}
	case reflect.Float32, reflect.Float64:
		return sqltrace.Value{Type: sqltrace.ValueFloat, Float: r.Float()}
	case reflect.Bool:
		return value(r.Bool(), nil)
	case reflect.String:
		return sqltrace.Keep(sqltrace.ValueText, []byte(r.String()))
	case reflect.Slice:
		if r.Type().Elem().Kind() == reflect.Uint8 {
			return sqltrace.Keep(sqltrace.ValueBlob, r.Bytes())
		}
	}
	return sqltrace.Keep(sqltrace.ValueText, []byte(fmt.Sprint(v)))
}

// codeOf returns the SQLite result code an error carries (the extended
// code, where the driver gives one), or SQLITE_ERROR (1). The drivers'
// error types are found by their shape: a field or method named
// ExtendedCode or Code of an integer type.
func codeOf(err error) int {
	if c := findCode(err, 0); c > 0 {
		return c
	}
	return 1
}

// findCode walks err's tree (errors.Join's too) for a result code.
func findCode(err error, depth int) int {
	if err == nil || depth > 16 {
		return 0
	}
	if c, ok := codeField(reflect.ValueOf(err)); ok && c > 0 {
		return c
	}
	switch u := err.(type) {
	case interface{ Unwrap() error }:
		return findCode(u.Unwrap(), depth+1)
	case interface{ Unwrap() []error }:
		for _, e := range u.Unwrap() {
			if c := findCode(e, depth+1); c > 0 {
				return c
			}
		}
	}
	return 0
}

func codeField(v reflect.Value) (int, bool) {
	for _, name := range []string{"ExtendedCode", "Code"} {
		if m := v.MethodByName(name); m.IsValid() && m.Type().NumIn() == 0 && m.Type().NumOut() == 1 {
			if c, ok := asInt(m.Call(nil)[0]); ok {
				return c, true
			}
		}
		s := v
		for s.Kind() == reflect.Pointer || s.Kind() == reflect.Interface {
			if s.IsNil() {
				return 0, false
			}
			s = s.Elem()
		}
		if s.Kind() == reflect.Struct {
			if f := s.FieldByName(name); f.IsValid() {
				if c, ok := asInt(f); ok {
					return c, true
				}
			}
		}
	}
	return 0, false
}

func asInt(v reflect.Value) (int, bool) {
	switch v.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return int(v.Int()), true
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return int(v.Uint()), true
	}
	return 0, false
}
