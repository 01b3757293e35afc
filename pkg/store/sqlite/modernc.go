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
	return &Driver{name: "modernc", be: sqlBackend{drv: &msqlite.Driver{}, codeOf: moderncCode, autocommit: moderncAutocommit}}
}

func moderncCode(err error) (int, bool) {
	var e *msqlite.Error
	if errors.As(err, &e) {
		return e.Code(), true
	}
	return 0, false
}

// moderncAutocommit probes sqlite3_get_autocommit on a modernc connection.
// The driver has no method for it, so the probe reads the connection's
// SQLite handle (its unexported db field, by reflection, once) and calls
// the translated C function with a thread state of its own. A version of
// the driver without that field is refused here, not misread later
// (TestTxProber covers every driver).
func moderncAutocommit(c driver.Conn) (func() bool, func(), error) {
	v := reflect.ValueOf(c)
	if v.Kind() != reflect.Pointer || v.Elem().Kind() != reflect.Struct {
		return nil, nil, fmt.Errorf("a connection of type %T: its transaction state cannot be read", c)
	}
	f := v.Elem().FieldByName("db")
	if !f.IsValid() || f.Kind() != reflect.Uintptr || f.Uint() == 0 {
		return nil, nil, fmt.Errorf("a connection of type %T without the SQLite handle gobench reads its transaction state from", c)
	}
	db := uintptr(f.Uint())
	tls := libc.NewTLS()
	probe := func() bool { return msqlite3.Xsqlite3_get_autocommit(tls, db) != 0 }
	return probe, tls.Close, nil
}
