// Package capi is a minimal cgo binding of SQLite's C API for gobench's
// reference engine: each op is one call into C (bind, step, copy the
// column, reset), so what it measures is SQLite and the cost of one cgo
// call, not a Go driver. It compiles no SQLite of its own: the sqlite3_*
// functions it calls are the ones github.com/mattn/go-sqlite3 compiles into
// the binary, so both engines run the same SQLite, with the same compile
// options. It exists only in cgo builds.
//
// A Conn and its statements belong to one goroutine at a time.
package capi
