package history

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	// The two databases a history lives in: a SQLite file (mattn's
	// driver, "sqlite3") and a PostgreSQL server (pgx's database/sql
	// driver, "pgx").
	_ "github.com/jackc/pgx/v5/stdlib"
	_ "github.com/mattn/go-sqlite3"
)

// Store is a results history: a SQLite file or a PostgreSQL database,
// its schema migrated to SchemaVersion.
type Store struct {
	db *sql.DB
	d  dialect
	// where names the history in messages: the file, or the server's URL
	// without its password.
	where string
}

// Open opens the history at dsn, creating it (and a SQLite file's
// directory) when it does not exist and migrating its schema forward:
// a postgres:// or postgresql:// URL opens a PostgreSQL database,
// anything else names a SQLite file.
func Open(ctx context.Context, dsn string) (*Store, error) {
	if dsn == "" {
		return nil, errors.New("no history given: want a file or a postgres:// URL")
	}
	d := dialectOf(dsn)
	where, conn := dsn, dsn
	if d == sqliteDialect {
		if strings.ContainsAny(dsn, "?#") {
			return nil, fmt.Errorf("history file %q: a name with ? or # is not taken", dsn)
		}
		if err := os.MkdirAll(filepath.Dir(dsn), 0o755); err != nil {
			return nil, fmt.Errorf("history file %s: %w", dsn, err)
		}
		// One writer at a time (BEGIN IMMEDIATE), waiting for another's
		// transaction rather than failing; WAL, so readers do not wait.
		conn = dsn + "?_txlock=immediate&_busy_timeout=30000&_journal_mode=WAL&_synchronous=NORMAL&_foreign_keys=0"
	} else {
		where = redact(dsn)
	}
	db, err := sql.Open(d.driver, conn)
	if err != nil {
		return nil, fmt.Errorf("opening the history %s: %w", where, err)
	}
	if d == sqliteDialect {
		db.SetMaxOpenConns(1) // one file, one writer: no busy waits between our own connections
	}
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("opening the history %s: %w", where, err)
	}
	if err := migrate(ctx, db, d); err != nil {
		db.Close()
		return nil, fmt.Errorf("history %s: %w", where, err)
	}
	return &Store{db: db, d: d, where: where}, nil
}

// Close closes the history.
func (s *Store) Close() error { return s.db.Close() }

// String names the history: its file, or its server's URL without the
// password.
func (s *Store) String() string { return s.where }

// redact hides the password of a URL.
func redact(u string) string {
	scheme, rest, ok := strings.Cut(u, "://")
	if !ok {
		return u
	}
	userinfo, host, ok := strings.Cut(rest, "@")
	if !ok {
		return u
	}
	if user, _, ok := strings.Cut(userinfo, ":"); ok {
		return scheme + "://" + user + ":xxxxx@" + host
	}
	return u
}

// DefaultPath returns the history file used when none is given:
// $XDG_DATA_HOME/gobench/history.db, or ~/.local/share/gobench/history.db
// where XDG_DATA_HOME is not set, getenv reading the environment.
func DefaultPath(getenv func(string) string) (string, error) {
	if d := getenv("XDG_DATA_HOME"); filepath.IsAbs(d) {
		return filepath.Join(d, "gobench", "history.db"), nil
	}
	home := getenv("HOME")
	if home == "" {
		return "", errors.New("neither XDG_DATA_HOME nor HOME is set: give --history FILE")
	}
	return filepath.Join(home, ".local", "share", "gobench", "history.db"), nil
}
