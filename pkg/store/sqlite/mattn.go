//go:build cgo

package sqlite

import (
	"errors"

	msqlite3 "github.com/mattn/go-sqlite3"
)

// Mattn returns the driver for github.com/mattn/go-sqlite3, SQLite's C
// source through cgo, registered as "mattn". It exists only in cgo builds.
func Mattn() *Driver {
	return &Driver{name: "mattn", be: sqlBackend{drv: &msqlite3.SQLiteDriver{}, codeOf: mattnCode}}
}

func mattnCode(err error) (int, bool) {
	var e msqlite3.Error
	if errors.As(err, &e) {
		return int(e.ExtendedCode), true
	}
	return 0, false
}
