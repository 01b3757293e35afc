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

// CompileOptionUsed reports whether the SQLite in the binary was compiled
// with the option (sqlite3_compileoption_used; the SQLITE_ prefix may be
// left out).
func CompileOptionUsed(name string) bool {
	cs := C.CString(name)
	defer C.free(unsafe.Pointer(cs))
	return C.sqlite3_compileoption_used(cs) != 0
}

// SetLockTimeout sets how long a lock on a WAL database blocks in the
// kernel before the connection sees busy (sqlite3_setlk_timeout, flags
// 0); 0 turns blocking locks off. It must follow any change of the busy
// handler, which sets the timeout too. A no-op unless SQLite was compiled
// with SQLITE_ENABLE_SETLK_TIMEOUT.
func (c *Conn) SetLockTimeout(ms int) error { return SetHandleLockTimeout(unsafe.Pointer(c.c.db), ms) }

// SetHandleLockTimeout is SetLockTimeout on a connection's sqlite3
// handle opened by another binding of the same SQLite (mattn's).
func SetHandleLockTimeout(db unsafe.Pointer, ms int) error {
	if db == nil {
		return fmt.Errorf("sqlite3_setlk_timeout: no connection handle")
	}
	if rc := C.sqlite3_setlk_timeout((*C.sqlite3)(db), C.int(ms), 0); rc != 0 {
		return fmt.Errorf("sqlite3_setlk_timeout(%d ms): result code %d", ms, int(rc))
	}
	return nil
}
