//go:build cgo

package capi

/*
#include <stdlib.h>
#include "capi.h"
*/
import "C"

import (
	"fmt"
	"unsafe"
)

// Stmt is a prepared statement of a Conn.
type Stmt struct {
	s *C.sqlite3_stmt
	c *Conn
}

// Order is how a write statement takes its key and value.
type Order int

// The write statements' parameter orders.
const (
	KeyValue Order = C.GB_KEY_VALUE // ?1 the key, ?2 the value
	ValueKey Order = C.GB_VALUE_KEY // ?1 the value, ?2 the key
	KeyOnly  Order = C.GB_KEY       // ?1 the key
)

// Close finalizes the statement; twice is a no-op.
func (s *Stmt) Close() error {
	if s.s == nil {
		return nil
	}
	s.c.ac = -1
	rc := C.sqlite3_finalize(s.s)
	s.s = nil
	if rc != C.SQLITE_OK {
		return s.c.err(rc)
	}
	return nil
}

// Exec steps a statement that returns no row (BEGIN, COMMIT …) and
// resets it, in one call.
func (s *Stmt) Exec() error { return s.c.err(s.c.note(C.gb_exec(s.s)).rc) }

// Get binds key to ?1, steps, and copies column col of the row into dst
// (grown if needed), in one call. No row is ErrNoRow.
func (s *Stmt) Get(key int64, col int, dst []byte) ([]byte, error) {
	r := s.c.note(C.gb_get(s.s, C.sqlite3_int64(key), C.int(col), ptr(dst), C.int(cap(dst))))
	if r.rc == C.GB_GROW {
		dst = make([]byte, r.n)
		r.rc = C.gb_copy_reset(s.s, C.int(col), ptr(dst), C.int(r.n))
		s.c.ac = -1
	}
	if r.rc != C.SQLITE_OK {
		return dst[:0], s.c.err(r.rc)
	}
	return dst[:r.n], nil
}

// Write binds key and value in the order given, runs the statement to its
// end and resets it, in one call, and returns sqlite3_changes. The value
// is bound without a copy and unbound before the call returns.
func (s *Stmt) Write(order Order, key int64, v []byte) (changes int, err error) {
	r := s.c.note(C.gb_write(s.c.c, s.s, C.int(order), C.sqlite3_int64(key), ptr(v), C.int(len(v))))
	return int(r.n), s.c.err(r.rc)
}

// Scan binds from and n to ?1 and ?2 and reads the rows, in one call.
func (s *Stmt) Scan(from int64, n int) (int, error) {
	r := s.c.note(C.gb_scan(s.s, C.sqlite3_int64(from), C.int(n)))
	return int(r.n), s.c.err(r.rc)
}

// Last binds lo and hi to ?1 and ?2 and steps once: on a row, it returns
// the row's first column as an integer and appends its second to dst[:0];
// with none, ErrNoRow. The statement is reset before Last returns.
func (s *Stmt) Last(lo, hi int64, dst []byte) (int64, []byte, error) {
	s.c.ac = -1
	dst = dst[:0]
	if rc := C.sqlite3_bind_int64(s.s, 1, C.sqlite3_int64(lo)); rc != C.SQLITE_OK {
		return 0, dst, s.c.err(rc)
	}
	if rc := C.sqlite3_bind_int64(s.s, 2, C.sqlite3_int64(hi)); rc != C.SQLITE_OK {
		return 0, dst, s.c.err(rc)
	}
	row, err := s.Step()
	var key int64
	if row {
		key = int64(C.sqlite3_column_int64(s.s, 0))
		if n := int(C.sqlite3_column_bytes(s.s, 1)); n > 0 {
			dst = append(dst, unsafe.Slice((*byte)(C.sqlite3_column_blob(s.s, 1)), n)...)
		}
	}
	s.Reset()
	switch {
	case err != nil:
		return 0, dst[:0], err
	case !row:
		return 0, dst, ErrNoRow
	}
	return key, dst, nil
}

// BindCount is sqlite3_bind_parameter_count.
func (s *Stmt) BindCount() int { return int(C.sqlite3_bind_parameter_count(s.s)) }

// BindIndex is sqlite3_bind_parameter_index: 0 when there is no such
// parameter.
func (s *Stmt) BindIndex(name string) int {
	cs := C.CString(name)
	defer C.free(unsafe.Pointer(cs))
	return int(C.sqlite3_bind_parameter_index(s.s, cs))
}

// Bind binds v (nil, int64, float64, string or []byte; strings and bytes
// are copied) to parameter i.
func (s *Stmt) Bind(i int, v any) error {
	s.c.ac = -1
	var rc C.int
	at := C.int(i)
	switch v := v.(type) {
	case nil:
		rc = C.sqlite3_bind_null(s.s, at)
	case int64:
		rc = C.sqlite3_bind_int64(s.s, at, C.sqlite3_int64(v))
	case float64:
		rc = C.sqlite3_bind_double(s.s, at, C.double(v))
	case string:
		rc = C.gb_bind_text(s.s, at, (*C.char)(unsafe.Pointer(unsafe.StringData(v))), C.int(len(v)))
	case []byte:
		rc = C.gb_bind_blob(s.s, at, ptr(v), C.int(len(v)))
	default:
		return fmt.Errorf("cannot bind a %T", v)
	}
	return s.c.err(rc)
}

// Clear resets the statement and clears its bindings without stepping it.
func (s *Stmt) Clear() {
	s.c.ac = -1
	C.sqlite3_reset(s.s)
	C.sqlite3_clear_bindings(s.s)
}

// Run steps a bound statement to its end, resets it and clears its
// bindings, and returns the rows it gave.
func (s *Stmt) Run() (int64, error) {
	r := s.c.note(C.gb_run(s.s))
	return int64(r.n), s.c.err(r.rc)
}

// Step steps the statement once, reporting whether it returned a row; at
// its end (or an error) it is not reset: call Reset.
func (s *Stmt) Step() (row bool, err error) {
	s.c.ac = -1
	switch rc := C.sqlite3_step(s.s); rc {
	case C.SQLITE_ROW:
		return true, nil
	case C.SQLITE_DONE:
		return false, nil
	default:
		return false, s.c.err(C.sqlite3_extended_errcode(s.c.c.db))
	}
}

// RowHash returns the hash of the row the last Step returned: its
// values and their types (sqltrace.RowHash's, computed in C).
func (s *Stmt) RowHash() uint64 { return uint64(C.gb_row_hash(s.s)) }

// Reset resets the statement, keeping its bindings.
func (s *Stmt) Reset() {
	s.c.ac = -1
	C.sqlite3_reset(s.s)
}
