package capture

import (
	"database/sql/driver"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mattn/go-sqlite3"
	msqlite "modernc.org/sqlite"

	"github.com/gobench/gobench/pkg/sqltrace"
)

// The settings a Go driver's connection string sets (mattn's
// _journal_mode, modernc's _pragma) run out of the wrapper's sight: the
// trace notes them once per database, as a connection of the capture's
// own reads them back, so that a replay's cell as captured takes them.
// The SQLite library the driver carries is noted once too, so that a
// replay on another version can say so.
func TestConnectionSettings(t *testing.T) {
	for _, tt := range []struct {
		name  string
		d     driver.Driver
		query string
		want  []string
	}{
		{"mattn", &sqlite3.SQLiteDriver{}, "?_journal_mode=WAL&_sync=NORMAL&_busy_timeout=2500",
			[]string{"PRAGMA journal_mode=wal", "PRAGMA synchronous=1", "PRAGMA busy_timeout=2500"}},
		{"modernc", &msqlite.Driver{}, "?_pragma=journal_mode(wal)&_pragma=busy_timeout(700)",
			[]string{"PRAGMA journal_mode=wal", "PRAGMA busy_timeout=700"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			tracePath, dbPath := filepath.Join(dir, "app.trace"), filepath.Join(dir, "app.db")
			c, err := Create(tracePath)
			if err != nil {
				t.Fatal(err)
			}
			db := open(t, c, tt.d, "file:"+dbPath+tt.query)
			mustExec(t, db, `CREATE TABLE t (x)`)
			mustExec(t, db, `INSERT INTO t VALUES (1)`)
			var version string
			if err := db.QueryRow(`SELECT sqlite_version()`).Scan(&version); err != nil {
				t.Fatal(err)
			}
			db.Close()
			if err := c.Close(); err != nil {
				t.Fatal(err)
			}
			var notes, versions []string
			for _, rec := range traceOf(t, tracePath) {
				if v, ok := sqltrace.ParseVersionNote(rec.Note); rec.Kind == sqltrace.KindNote && ok {
					versions = append(versions, v)
				}
				if path, stmts, ok := sqltrace.ParseSettingsNote(rec.Note); rec.Kind == sqltrace.KindNote && ok {
					if path != dbPath {
						t.Errorf("noted on %s, want %s", path, dbPath)
					}
					notes = append(notes, stmts)
				}
			}
			if len(versions) != 1 || versions[0] != version {
				t.Errorf("SQLite versions noted: %q, want once %s", versions, version)
			}
			if len(notes) != 1 {
				t.Fatalf("settings noted %d times (%q), want once", len(notes), notes)
			}
			for _, w := range tt.want {
				if !strings.Contains(notes[0], w) {
					t.Errorf("settings %q, want %s among them", notes[0], w)
				}
			}
		})
	}
}
