package history

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
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
func Open(ctx context.Context, dsn string) (*Store, error) { return open(ctx, dsn, true) }

// OpenExisting opens the history at dsn as Open does, but refuses a
// SQLite file that does not exist rather than create it (and its
// directory): a reader of the history (show, gate, confirm) given a
// mistyped path should say so, not answer from a new, empty history.
func OpenExisting(ctx context.Context, dsn string) (*Store, error) { return open(ctx, dsn, false) }

// open is Open, creating a SQLite file that does not exist only where
// create is set.
func open(ctx context.Context, dsn string, create bool) (*Store, error) {
	if dsn == "" {
		return nil, errors.New("no history given: want a file or a postgres:// URL")
	}
	d := dialectOf(dsn)
	where, conn := dsn, dsn
	if d == sqliteDialect {
		if strings.ContainsAny(dsn, "?#") {
			return nil, fmt.Errorf("history file %q: a name with ? or # is not taken", dsn)
		}
		if err := checkFile(dsn, create); err != nil {
			return nil, err
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
		return nil, fmt.Errorf("opening the history %s: %w", where, oneLine{err})
	}
	if err := migrate(ctx, db, d); err != nil {
		db.Close()
		return nil, fmt.Errorf("history %s: %w", where, err)
	}
	return &Store{db: db, d: d, where: where}, nil
}

// checkFile refuses a history path that exists and is no regular file (a
// directory, a FIFO, a device), which SQLite would meet with "disk I/O
// error: illegal seek" or, for a FIFO with no writer, a wait; and, unless
// create, one that does not exist.
func checkFile(path string, create bool) error {
	fi, err := os.Stat(path)
	switch {
	case errors.Is(err, os.ErrNotExist) && !create:
		return fmt.Errorf("no history at %s: gobench history add creates it", path)
	case errors.Is(err, os.ErrNotExist):
		return nil
	case err != nil:
		return fmt.Errorf("history file %s: %w", path, err)
	case fi.IsDir():
		return fmt.Errorf("history file %s is a directory: want a SQLite file in it, such as %s", path, filepath.Join(path, "history.db"))
	case !fi.Mode().IsRegular():
		return fmt.Errorf("history file %s is not a regular file (%s): want a SQLite file or a postgres:// URL", path, fileType(fi.Mode()))
	}
	return nil
}

// fileType names the type of a file that is not a regular one.
func fileType(m os.FileMode) string {
	switch {
	case m&os.ModeNamedPipe != 0:
		return "a FIFO"
	case m&os.ModeSocket != 0:
		return "a socket"
	case m&os.ModeDevice != 0:
		return "a device"
	}
	return m.Type().String()
}

// oneLine is an error of several lines (pgx names each address it tried,
// a line each, often the same one twice) as one line: its distinct lines
// joined by "; ".
type oneLine struct{ err error }

func (e oneLine) Error() string {
	var b strings.Builder
	var seen []string
	for _, l := range strings.Split(e.err.Error(), "\n") {
		if l = strings.TrimSpace(l); l == "" || slices.Contains(seen, l) {
			continue
		}
		if len(seen) > 0 {
			if strings.HasSuffix(seen[len(seen)-1], ":") {
				b.WriteString(" ")
			} else {
				b.WriteString("; ")
			}
		}
		seen = append(seen, l)
		b.WriteString(l)
	}
	return b.String()
}

func (e oneLine) Unwrap() error { return e.err }

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
