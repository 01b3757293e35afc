package sqlite

import (
	"database/sql/driver"
	"errors"
	"fmt"
	"reflect"

	"modernc.org/libc"
	msqlite "modernc.org/sqlite"
	msqlite3 "modernc.org/sqlite/lib"
)

// Modernc returns the driver for modernc.org/sqlite, SQLite translated to
// pure Go (no cgo), registered as "modernc".
func Modernc() *Driver {
	return &Driver{name: "modernc", be: moderncBackend{sqlBackend{drv: &msqlite.Driver{}, codeOf: moderncCode, autocommit: moderncAutocommit, guard: moderncGuard}}}
}

// moderncBackend is modernc's binding, whose I/O is not traced.
type moderncBackend struct{ sqlBackend }

func (moderncBackend) untracedNote() string {
	return "not traced: modernc.org/sqlite has no VFS gobench can wrap (its vfs package serves read-only fs.FS files; a VFS of gobench's would need C function pointers into the translated SQLite)"
}

func moderncCode(err error) (int, bool) {
	var e *msqlite.Error
	if errors.As(err, &e) {
		return e.Code(), true
	}
	return 0, false
}

// moderncHandle returns a modernc connection's SQLite handle: the driver
// has no method for it, so it is read from the connection's unexported
// db field, by reflection. A version of the driver without that field is
// refused here, not misread later (TestTxProber and TestGuard cover every
// driver).
func moderncHandle(c driver.Conn) (uintptr, error) {
	v := reflect.ValueOf(c)
	if v.Kind() != reflect.Pointer || v.Elem().Kind() != reflect.Struct {
		return 0, fmt.Errorf("a connection of type %T: its SQLite handle cannot be read", c)
	}
	f := v.Elem().FieldByName("db")
	if !f.IsValid() || f.Kind() != reflect.Uintptr || f.Uint() == 0 {
		return 0, fmt.Errorf("a connection of type %T without the SQLite handle gobench reads", c)
	}
	return uintptr(f.Uint()), nil
}

// moderncAutocommit probes sqlite3_get_autocommit on a modernc connection.
// The driver has no method for it, so the probe calls the translated C
// function on the connection's handle (moderncHandle), with a thread
// state of its own.
func moderncAutocommit(c driver.Conn) (func() bool, func(), error) {
	db, err := moderncHandle(c)
	if err != nil {
		return nil, nil, err
	}
	tls := libc.NewTLS()
	probe := func() bool { return msqlite3.Xsqlite3_get_autocommit(tls, db) != 0 }
	return probe, tls.Close, nil
}

// moderncGuard installs g through the driver's own authorizer interface
// (msqlite.AuthorizerRegisterer, which its connections implement), and
// sets the limit of attached databases with the translated
// sqlite3_limit on the connection's handle, which the driver exposes no
// method for.
func moderncGuard(c driver.Conn, g *guard) error {
	ar, ok := c.(msqlite.AuthorizerRegisterer)
	if !ok {
		return fmt.Errorf("a connection of type %T without RegisterAuthorizer", c)
	}
	err := ar.RegisterAuthorizer(func(action msqlite.AuthorizerActionCode, arg1, arg2, _, _ string) msqlite.AuthorizerReturnCode {
		return msqlite.AuthorizerReturnCode(g.authorize(int(action), arg1, arg2))
	})
	if err != nil {
		return err
	}
	db, err := moderncHandle(c)
	if err != nil {
		return err
	}
	tls := libc.NewTLS()
	defer tls.Close()
	msqlite3.Xsqlite3_limit(tls, db, limitAttached, maxAttached)
	return nil
}
