// Package capture records what a Go program runs on SQLite through
// database/sql, in the trace format of package sqltrace, so that gobench
// replay can run the program's own statements again under other settings.
// It wraps any database/sql driver (mattn's, modernc's, ncruces's): every
// statement's text, its parameters with their types, when it ran and for
// how long, the rows it returned or changed, its result code, the
// transactions it ran in, and the order of commits.
//
// # Use
//
//	c, err := capture.FromEnv("app.trace")
//	...
//	sql.Register("sqlite3-captured", c.Driver(&sqlite3.SQLiteDriver{}))
//	db, err := sql.Open("sqlite3-captured", "app.db")
//	... the program runs as before ...
//	db.Close()
//	c.Close()
//
// or, with a connector, sql.OpenDB(c.Connector(k)). FromEnv writes a whole
// trace at the path given, unless the program runs under gobench capture,
// whose directory (EnvDir) then gets the process's part: a program of
// several processes, or one that also runs programs on the system's
// SQLite, is captured into one trace that way.
//
// # What it records and what it cannot
//
// Before the first connection to a database is returned, the capture
// copies the database (VACUUM INTO, on a connection of its own) so that a
// replay starts from the same content. Errors, results and timing pass
// through unchanged: the capture never fails a call, and a recording that
// fails stops recording (Close says why).
//
// The order of commits is the order in which their COMMIT (or an
// autocommit write) returned in this process (sqltrace.StateSeq): exact
// for the writes of one process, since SQLite commits one at a time, but a
// read that ran while another connection committed may be placed either
// side of that commit. (The C library of gobench capture reads the
// database's own counters under its locks instead, and is exact.) A
// transaction's records are held back until it ends (up to 4096), so that
// one that wrote is placed just before its own commit. Named parameters
// are placed at the index SQLite gives them; a time.Time is kept as the
// driver underneath binds it (mattn's text, modernc's, ncruces's RFC 3339:
// a connection of the capture's own binds one to SELECT quote(?) and
// reads which), so that a replay writes what the application wrote.
package capture
