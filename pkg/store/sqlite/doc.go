// Package sqlite is gobench's SQLite engine, through two Go drivers:
// modernc.org/sqlite (pure Go, always built) and github.com/mattn/go-sqlite3
// (cgo, built when cgo is on).
//
// # Settings
//
// Every connection sets, explicitly and in this order, PRAGMA busy_timeout,
// journal_mode and synchronous (see Options), so that both drivers run the
// same SQLite configuration whatever their own defaults. The journal mode is
// set before the schema exists. Describe reads the settings back from the
// database, so results report what was in force.
//
// # Schema and statements
//
// One table, kv(k INTEGER PRIMARY KEY, v BLOB NOT NULL). A read is
// SELECT * FROM kv WHERE k=?; an upsert is INSERT … ON CONFLICT(k) DO
// UPDATE. A write outside a batch runs as BEGIN IMMEDIATE, the statement,
// COMMIT: taking the write lock up front means a WAL transaction never
// fails with SQLITE_BUSY_SNAPSHOT. The database is marked with an
// application_id; Init refuses any non-empty file without that mark.
//
// # Connections
//
// Conns talk to the Go driver through database/sql/driver directly, with
// statements prepared once and a context that is never cancelled: no
// database/sql pool, and no per-call cancellation goroutine.
package sqlite
