package store

// Executor is implemented by a Conn that runs statements given as SQL
// text with positional arguments, as a replayed trace holds them (gobench
// replay). Each text is prepared the first time it comes and kept (the
// connection keeps the statements it used last, and closes them when it
// closes), under the same guard as a Scripter's statements: SQL from
// elsewhere runs only inside the run's own database. The statements run
// as they are: a BEGIN, a COMMIT or a ROLLBACK among them opens or ends a
// transaction that later statements run in.
type Executor interface {
	// Execute binds args (nil, int64, float64, string or []byte) to the
	// statement's parameters 1, 2, … in order, and steps it: to its end,
	// or, with maxRows >= 0, through at most maxRows rows (the
	// application it was captured from read no more), then resets it.
	// With changes it reports the rows the statement inserted, updated
	// or deleted (sqlite3_changes). Errors are classified as the
	// connection's are; a statement the guard refuses is ErrInvalid.
	Execute(sql string, args []any, maxRows int64, changes bool) (Outcome, error)
	// Check prepares sql, as Execute would, without running it: a
	// statement the guard refuses is ErrInvalid (other errors, a table
	// that does not exist yet, are the statement's own).
	Check(sql string) error
}

// Outcome is what an executed statement did.
type Outcome struct {
	// Rows is how many rows its steps returned.
	Rows int64
	// Changes is sqlite3_changes after it, when asked for.
	Changes int64
	// Done says it ran to its end.
	Done bool
	// Unordered and Ordered digest the rows its steps returned, their
	// values and types, in any order and in order (sqltrace.RowsDigest),
	// when Digested: a connection that cannot read a value as SQLite
	// returned it (a driver that made a time.Time of a column declared
	// DATETIME) leaves it false. A statement run for its changes has
	// none.
	Unordered, Ordered uint64
	Digested           bool
}
