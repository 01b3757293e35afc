package sqlite

import (
	"errors"

	msqlite "modernc.org/sqlite"
)

// Modernc returns the driver for modernc.org/sqlite, SQLite translated to
// pure Go (no cgo), registered as "modernc".
func Modernc() *Driver {
	return &Driver{name: "modernc", be: sqlBackend{drv: &msqlite.Driver{}, codeOf: moderncCode}}
}

func moderncCode(err error) (int, bool) {
	var e *msqlite.Error
	if errors.As(err, &e) {
		return e.Code(), true
	}
	return 0, false
}
