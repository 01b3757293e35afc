package history

import (
	"context"
	"database/sql"
	"path/filepath"
	"strings"
	"testing"
)

// TestSchemaMigratesForward: a history of version 1 (as the first
// gobench with history wrote it) opens migrated to SchemaVersion, its
// runs kept; one of a newer version than this gobench's is refused,
// untouched.
func TestSchemaMigratesForward(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "h.db")
	db, err := sql.Open("sqlite3", path)
	if err != nil {
		t.Fatal(err)
	}
	stmts := append([]string{`CREATE TABLE schema_version (version BIGINT NOT NULL)`, `INSERT INTO schema_version VALUES (1)`}, migrations[0]...)
	stmts = append(stmts, `INSERT INTO runs VALUES ('r1','p','mix','[]','','[]','c1','main','m',1,1,1,'v','','go','[]',1,0,0,0,0,0,0,0)`)
	for _, s := range stmts {
		if _, err := db.Exec(s); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()
	h, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	var v, runs int
	if err := h.db.QueryRow(`SELECT version FROM schema_version`).Scan(&v); err != nil || v != SchemaVersion {
		t.Errorf("version %d (%v), want %d", v, err, SchemaVersion)
	}
	if err := h.db.QueryRow(`SELECT COUNT(*) FROM runs`).Scan(&runs); err != nil || runs != 1 {
		t.Errorf("%d runs after migrating (%v), want the 1 kept", runs, err)
	}
	if _, err := h.db.Exec(`UPDATE schema_version SET version = 99`); err != nil {
		t.Fatal(err)
	}
	h.Close()
	if _, err := Open(ctx, path); err == nil || !strings.Contains(err.Error(), "version 99, newer") {
		t.Errorf("opening a history of version 99: %v, want a refusal", err)
	}
}
