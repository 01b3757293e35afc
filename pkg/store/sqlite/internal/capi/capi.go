//go:build cgo

package capi

/*
#include <stdlib.h>
#include "capi.h"
*/
import "C"

import (
	"context"
	"errors"
	"fmt"
	"runtime/cgo"
	"sync"
	"time"
	"unsafe"

	_ "github.com/mattn/go-sqlite3" // provides the sqlite3_* functions the shim calls
)

// Error is a result code of SQLite's (extended: the primary code is its
// low byte) and the connection's message for it.
type Error struct {
	Code int
	Msg  string
}

// Error returns the message and the code.
func (e *Error) Error() string { return fmt.Sprintf("%s (%d)", e.Msg, e.Code) }

// ErrNoRow is returned when no row has the key asked for.
var ErrNoRow = errors.New("no row has the key")

// Conn is one SQLite connection.
type Conn struct {
	c *C.gb_conn
	// ac is sqlite3_get_autocommit as the last op call into C found it
	// on its way out (1 or 0), or -1 after any other call: only a call on
	// this connection can change it, and the connection has one user.
	ac int8
	// auth is the handle of the authorizer's Go function, 0 for none.
	auth cgo.Handle
}

// note records the autocommit state an op call returned.
func (c *Conn) note(r C.gb_res) C.gb_res {
	c.ac = int8(r.ac)
	return r
}

// Open opens a connection to a file: URI, read-write, creating the file if
// needed, with extended result codes on, in SQLite's multi-thread mode
// (SQLITE_OPEN_NOMUTEX: no mutex per call, since a Conn has one user at a
// time).
func Open(dsn string) (*Conn, error) {
	cs := C.CString(dsn)
	defer C.free(unsafe.Pointer(cs))
	var c *C.gb_conn
	rc := C.gb_open(cs, &c)
	if c == nil {
		return nil, &Error{Code: int(rc), Msg: "out of memory"}
	}
	conn := &Conn{c: c, ac: -1}
	if rc != C.SQLITE_OK {
		err := conn.err(rc)
		C.gb_close(c)
		return nil, err
	}
	return conn, nil
}

// err returns the error of result code rc, with the connection's message.
func (c *Conn) err(rc C.int) error {
	switch rc {
	case C.SQLITE_OK:
		return nil
	case C.GB_NOROW:
		return ErrNoRow
	}
	return &Error{Code: int(rc), Msg: C.GoString(C.sqlite3_errmsg(c.c.db))}
}

// Close closes the connection (statements not yet closed are finalized
// with it).
func (c *Conn) Close() error {
	if c.c == nil {
		return nil
	}
	rc := C.gb_close(c.c)
	c.c = nil
	if c.auth != 0 {
		c.auth.Delete()
		c.auth = 0
	}
	if rc != C.SQLITE_OK {
		return &Error{Code: int(rc), Msg: "closing the connection"}
	}
	return nil
}

// BlobRelease closes the blob handle BlobRead or BlobWrite held, if any
// (the shim's own record, read without a call into C).
func (c *Conn) BlobRelease() {
	if c.c.held != nil {
		C.gb_blob_release(c.c)
	}
}

// SetBusyTimeout installs a busy handler that waits for locks as SQLite's
// own busy_timeout does, for up to ms milliseconds, and counts its calls
// and waits (LockWaits); 0 removes it.
func (c *Conn) SetBusyTimeout(ms int) { C.gb_set_busy_timeout(c.c, C.int(ms)) }

// InterruptOn makes the end of ctx interrupt the connection until stop is
// called: sqlite3_interrupt stops the statement under way, from a watcher
// goroutine (SQLite allows the call from any thread), and a progress
// handler stops one that had not yet begun, as well as the shim's busy
// handler's lock wait (SetBusyTimeout). stop must be called before Close;
// once it returns, the watcher no longer touches the connection.
func (c *Conn) InterruptOn(ctx context.Context) (stop func()) {
	cc := c.c
	C.gb_interruptible(cc, 1)
	var mu sync.Mutex
	stopped := false
	unwatch := context.AfterFunc(ctx, func() {
		mu.Lock()
		defer mu.Unlock()
		if !stopped {
			C.gb_interrupt(cc)
		}
	})
	return func() {
		unwatch()
		mu.Lock()
		stopped = true
		mu.Unlock()
		C.gb_interruptible(cc, 0)
	}
}

// BusyCalls returns how often the busy handler was called since the
// connection opened. It reads the shim's counter without calling into C.
func (c *Conn) BusyCalls() int64 { return int64(c.c.calls) }

// LockWaits returns the busy handler's calls and the time its lock events
// waited, since the connection opened (without calling into C).
func (c *Conn) LockWaits() (calls int64, wait time.Duration) {
	return int64(c.c.calls), time.Duration(c.c.wait_ns + c.c.event_ns)
}

// Autocommit is sqlite3_get_autocommit: true when no transaction is open.
// After an op call it is the value SQLite gave at the end of that call
// (asked in C, with the op); after any other call it is asked anew.
func (c *Conn) Autocommit() bool {
	if c.ac < 0 {
		c.ac = int8(C.sqlite3_get_autocommit(c.c.db))
	}
	return c.ac != 0
}

// Changes is sqlite3_changes: rows changed by the last write statement.
func (c *Conn) Changes() int { return int(C.sqlite3_changes(c.c.db)) }

// Exec runs one or more statements with sqlite3_exec.
func (c *Conn) Exec(sql string) error {
	c.ac = -1
	cs := C.CString(sql)
	defer C.free(unsafe.Pointer(cs))
	return c.err(C.sqlite3_exec(c.c.db, cs, nil, nil, nil))
}

// Prepare compiles the first statement of sql and returns it with the SQL
// that follows it; a nil statement means sql held none.
func (c *Conn) Prepare(sql string) (*Stmt, string, error) {
	c.ac = -1
	cs := C.CString(sql)
	defer C.free(unsafe.Pointer(cs))
	var s *C.sqlite3_stmt
	var tail *C.char
	if rc := C.sqlite3_prepare_v2(c.c.db, cs, -1, &s, &tail); rc != C.SQLITE_OK {
		return nil, "", c.err(rc)
	}
	rest := C.GoString(tail)
	if s == nil {
		return nil, rest, nil
	}
	return &Stmt{s: s, c: c}, rest, nil
}

// QueryString runs a one-statement query and returns the first column of
// its first row as text ("" for no row or no column).
func (c *Conn) QueryString(sql string) (string, error) {
	s, _, err := c.Prepare(sql)
	if err != nil || s == nil {
		return "", err
	}
	defer s.Close()
	rc := C.sqlite3_step(s.s)
	switch {
	case rc == C.SQLITE_ROW && C.sqlite3_column_count(s.s) > 0:
		return C.GoString((*C.char)(unsafe.Pointer(C.sqlite3_column_text(s.s, 0)))), nil
	case rc == C.SQLITE_ROW || rc == C.SQLITE_DONE:
		return "", nil
	}
	C.sqlite3_reset(s.s)
	return "", c.err(rc)
}

// ptr returns a pointer to b's first byte, or nil for an empty slice.
func ptr(b []byte) unsafe.Pointer {
	if cap(b) == 0 {
		return nil
	}
	return unsafe.Pointer(unsafe.SliceData(b))
}

// BlobRead reads key's value of kv.v with incremental blob I/O into dst
// (grown if needed). A missing key is ErrNoRow. With hold, the handle is
// kept open and moved to the next key with sqlite3_blob_reopen, as
// SQLite's kvtest does through a pass in one transaction: the caller must
// be inside a transaction and call BlobRelease before it ends.
func (c *Conn) BlobRead(key int64, dst []byte, hold bool) ([]byte, error) {
	read := func() C.gb_res {
		if hold {
			return c.note(C.gb_blob_read_held(c.c, C.sqlite3_int64(key), ptr(dst), C.int(cap(dst))))
		}
		return c.note(C.gb_blob_read(c.c, C.sqlite3_int64(key), ptr(dst), C.int(cap(dst))))
	}
	r := read()
	if r.rc == C.GB_GROW {
		dst = make([]byte, r.n)
		r = read()
	}
	if r.rc != C.SQLITE_OK {
		return dst[:0], c.err(r.rc)
	}
	return dst[:r.n], nil
}

// BlobWrite overwrites key's value of kv.v in place with incremental blob
// I/O. A missing key is ErrNoRow; a value of another size is refused.
// hold is as for BlobRead.
func (c *Conn) BlobWrite(key int64, v []byte, hold bool) error {
	var r C.gb_res
	if hold {
		r = c.note(C.gb_blob_write_held(c.c, C.sqlite3_int64(key), ptr(v), C.int(len(v))))
	} else {
		r = c.note(C.gb_blob_write(c.c, C.sqlite3_int64(key), ptr(v), C.int(len(v))))
	}
	if r.rc == C.GB_RESIZE {
		return fmt.Errorf("blob I/O cannot resize a value: key %d holds %d bytes, the update has %d", key, r.n, len(v))
	}
	return c.err(r.rc)
}

// Authorizer decides whether SQLite may compile an action
// (sqlite3_set_authorizer): it gets the action code and the action's
// first two arguments (NULL as ""), and returns SQLITE_OK (0) or
// SQLITE_DENY (1).
type Authorizer func(action int, arg1, arg2 string) int

// SetAuthorizer installs fn as the connection's authorizer; nil removes
// it. SQLite calls it while it compiles statements, never while it steps
// them: one call from C into Go per action of a statement being
// prepared, none per op.
func (c *Conn) SetAuthorizer(fn Authorizer) error {
	var h cgo.Handle
	if fn != nil {
		h = cgo.NewHandle(fn)
	}
	if rc := C.gb_set_authorizer(c.c, C.uintptr_t(h)); rc != C.SQLITE_OK {
		if h != 0 {
			h.Delete()
		}
		return c.err(rc)
	}
	if c.auth != 0 {
		c.auth.Delete()
	}
	c.auth = h
	return nil
}

//export gbAuthorize
func gbAuthorize(h C.uintptr_t, action C.int, a1, a2 *C.char) C.int {
	fn := cgo.Handle(h).Value().(Authorizer)
	return C.int(fn(int(action), C.GoString(a1), C.GoString(a2)))
}

// Limit is sqlite3_limit: it sets the limit id to v (unchanged if v is
// negative) and returns its previous value.
func (c *Conn) Limit(id, v int) int { return int(C.sqlite3_limit(c.c.db, C.int(id), C.int(v))) }
