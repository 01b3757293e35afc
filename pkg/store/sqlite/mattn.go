//go:build cgo

package sqlite

import (
	"database/sql/driver"
	"errors"
	"fmt"

	msqlite3 "github.com/mattn/go-sqlite3"
)

// Mattn returns the driver for github.com/mattn/go-sqlite3, SQLite's C
// source through cgo, registered as "mattn". It exists only in cgo builds.
func Mattn() *Driver {
	return &Driver{name: "mattn", be: mattnBackend{sqlBackend{drv: &msqlite3.SQLiteDriver{}, codeOf: mattnCode, autocommit: mattnAutocommit, guard: mattnGuard}, cTrace{}}}
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
