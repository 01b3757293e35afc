// Package sqlite is gobench's SQLite engine, through three Go drivers:
// modernc.org/sqlite (C translated to Go, always built),
// github.com/ncruces/go-sqlite3 (Wasm translated to Go, always built) and
// github.com/mattn/go-sqlite3 (cgo, built when cgo is on); and through the
// reference driver capi, SQLite's C API called through a minimal cgo shim
// (internal/capi, one call into C per op, or a loop of reads and upserts
// in one call: store.LoopRunner) on the SQLite mattn's package
// compiles into the binary, so that each Go driver's cost over SQLite
// itself can be measured.
//
// # Settings
//
// Every connection sets, explicitly and in this order, PRAGMA busy_timeout,
// journal_mode and synchronous (see Options), so that every driver runs
// the same SQLite configuration whatever their own defaults. The journal mode is
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
// # Transactions
//
// One type, txn, owns each connection's transaction state, for every
// driver: it alone runs BEGIN, COMMIT and ROLLBACK on an op connection.
// An op is acknowledged only after its COMMIT succeeded. A BEGIN or
// COMMIT that failed leaves no transaction open: SQLite keeps a
// transaction open after a busy COMMIT (a reader still holds its lock, in
// a rollback journal), so txn rolls it back, or under a retry policy
// (store.BusyRetrier) runs the COMMIT again with the transaction whole, as
// SQLite allows. Whether a transaction is open is asked of SQLite
// (sqlite3_get_autocommit: mattn's AutoCommit, ncruces's GetAutocommit,
// capi's direct call, and for modernc, which has no method for it, the C
// function on the connection's handle), never remembered; workers ask too, after every op
// outside a batch (store.TxProber). BEGINs and COMMITs that found the
// database busy are counted (store.BusyStepCounter).
//
// # SQL of the user's
//
// Statements of the user's (store.Scripter: a sql workload's schema and
// scripts, from files or a plan file) run only inside the run's own
// database: a guard refuses, on every driver and before the run, what
// would reach another file (ATTACH, VACUUM INTO, load_extension, pragmas
// that move SQLite's files) or change a setting gobench sets and reports
// (journal mode, sync, busy timeout, checkpoints, locking mode, its
// application id), and a NUL byte. See guard.go.
//
// # I/O
//
// The connections of mattn, capi and ncruces open through a tracing VFS
// (vfs=gobench-trace): package ctrace in C over the unix VFS of the SQLite
// mattn compiles, ncvfs.go in Go over ncruces's OS VFS. Each passes every
// call on and counts each write, truncate, sync, deletion and directory
// sync by file role, as the kernel receives them (store.IOTracer); see
// package iotrace. modernc's I/O is not traced, and its facts say why.
//
// For --crash (store.PowerCutStore, powercut.go) the same VFSes append
// every event on the run's database files, with the bytes written, to
// one record all the run's processes share (package iorecord); package
// crashstate rebuilds from it what a power cut at any point would have
// left on disk.
//
// # Files
//
// driver.go holds the Driver and the binding seam (backend, rawConn);
// db.go a database's life (Init, Conn, Close); observe.go what can be read
// from it (Describe, Check, LogState); statements.go the SQL, shared by
// every connection; tx.go the transaction owner; conn.go the
// database/sql/driver connection of mattn and modernc; ncruces.go
// ncruces's own; capi.go the reference driver's; errors.go the mapping of result codes to classes;
// script.go the statements of the user's, guard.go what they may do;
// trace.go, trace_cgo.go and ncvfs.go the tracing VFSes, record.go the
// process's crash recording.
//
// # Connections
//
// mattn's and modernc's connections are used through database/sql/driver
// directly, with statements prepared once and a context that is never
// cancelled: no database/sql pool, and no per-call cancellation goroutine.
// ncruces's are used through its own API, capi's through its shim, whose
// busy handler (like the one gobench gives ncruces) counts its calls and
// waits.
package sqlite
