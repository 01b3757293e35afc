package history

import (
	"strconv"
	"strings"
)

// dialect is everything the SQLite file and a PostgreSQL server differ
// in, for this package's statements: the driver, how a statement's
// parameters are written, and how a writer takes the lock that orders
// migrations. The schema itself is written once, in types both read
// (TEXT, BIGINT, DOUBLE PRECISION).
type dialect struct {
	// name is "sqlite" or "postgres", for messages.
	name string
	// driver is the database/sql driver's name.
	driver string
	// numbered says parameters are written $1, $2, … (PostgreSQL); else ?.
	numbered bool
	// lock, if set, is run first in a migration's transaction: it waits
	// for any other writer migrating the same database.
	lock string
}

var (
	sqliteDialect   = dialect{name: "sqlite", driver: "sqlite3"}
	postgresDialect = dialect{name: "postgres", driver: "pgx", numbered: true, lock: "SELECT pg_advisory_xact_lock(53530053)"}
)

// dialectOf returns the dialect of a --history value: a postgres:// or
// postgresql:// URL is a PostgreSQL server, anything else a SQLite file.
func dialectOf(dsn string) dialect {
	if strings.HasPrefix(dsn, "postgres://") || strings.HasPrefix(dsn, "postgresql://") {
		return postgresDialect
	}
	return sqliteDialect
}

// q rewrites a statement written with ? parameters in the dialect's
// style. No statement of this package has a ? inside a literal.
func (d dialect) q(stmt string) string {
	if !d.numbered {
		return stmt
	}
	var b strings.Builder
	n := 0
	for _, c := range stmt {
		if c == '?' {
			n++
			b.WriteString("$" + strconv.Itoa(n))
			continue
		}
		b.WriteRune(c)
	}
	return b.String()
}
