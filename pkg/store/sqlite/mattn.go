//go:build cgo

package sqlite

import (
	"database/sql/driver"
	"errors"
	"fmt"
	"reflect"

	msqlite3 "github.com/mattn/go-sqlite3"

	"github.com/gobench/gobench/pkg/store/sqlite/internal/capi"
)

// Mattn returns the driver for github.com/mattn/go-sqlite3, SQLite's C
// source through cgo, registered as "mattn". It exists only in cgo builds.
func Mattn() *Driver {
	return &Driver{name: "mattn", be: mattnBackend{sqlBackend{drv: &msqlite3.SQLiteDriver{}, codeOf: mattnCode, autocommit: mattnAutocommit, guard: mattnGuard, lockTimeout: mattnLockTimeout}, cTrace{}}}
}

// mattnBackend is mattn's binding, its connections traced by the C VFS.
type mattnBackend struct {
	sqlBackend
	cTrace
}

func mattnCode(err error) (int, bool) {
	var e msqlite3.Error
	if errors.As(err, &e) {
		return int(e.ExtendedCode), true
	}
	return 0, false
}

// mattnAutocommit probes sqlite3_get_autocommit through the connection's
// own AutoCommit.
func mattnAutocommit(c driver.Conn) (func() bool, func(), error) {
	sc, ok := c.(*msqlite3.SQLiteConn)
	if !ok {
		return nil, nil, fmt.Errorf("a connection of type %T, not *sqlite3.SQLiteConn: its transaction state cannot be read", c)
	}
	return sc.AutoCommit, func() {}, nil
}

// mattnGuard installs g through the connection's RegisterAuthorizer and
// SetLimit.
func mattnGuard(c driver.Conn, g *guard) error {
	sc, ok := c.(*msqlite3.SQLiteConn)
	if !ok {
		return fmt.Errorf("a connection of type %T, not *sqlite3.SQLiteConn: no authorizer can be installed", c)
	}
	sc.RegisterAuthorizer(func(action int, arg1, arg2, _ string) int { return g.authorize(action, arg1, arg2) })
	sc.SetLimit(limitAttached, maxAttached)
	return nil
}

// mattnLockTimeout calls sqlite3_setlk_timeout on the connection's
// sqlite3 handle, which mattn keeps unexported (its field db): the capi
// package calls the function of the SQLite mattn compiles.
func mattnLockTimeout(c driver.Conn, ms int) error {
	sc, ok := c.(*msqlite3.SQLiteConn)
	if !ok {
		return fmt.Errorf("a connection of type %T, not *sqlite3.SQLiteConn: sqlite3_setlk_timeout cannot be called on it", c)
	}
	f := reflect.ValueOf(sc).Elem().FieldByName("db")
	if f.Kind() != reflect.Pointer {
		return errors.New("mattn's SQLiteConn keeps no sqlite3 handle in a field db: sqlite3_setlk_timeout cannot be called on it")
	}
	return capi.SetHandleLockTimeout(f.UnsafePointer(), ms)
}

// setlkBuilt reports whether the SQLite compiled into this executable has
// blocking locks (SQLITE_ENABLE_SETLK_TIMEOUT).
func setlkBuilt() bool { return capi.CompileOptionUsed("ENABLE_SETLK_TIMEOUT") }
