//go:build !cgo

package sqlite

// setlkBuilt reports whether the SQLite compiled into this executable has
// blocking locks: no cgo driver, no such SQLite.
func setlkBuilt() bool { return false }
