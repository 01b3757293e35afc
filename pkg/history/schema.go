package history

import (
	"context"
	"database/sql"
	"fmt"
)

// migrations are the schema's versions, in order: migrations[i] takes a
// database from version i to version i+1. A migration is only ever
// appended; one that shipped never changes.
var migrations = [][]string{
	{ // 1: runs and their figures
		`CREATE TABLE runs (
			id TEXT PRIMARY KEY,
			plan_hash TEXT NOT NULL,
			command TEXT NOT NULL,
			args TEXT NOT NULL,
			cell TEXT NOT NULL,
			settings TEXT NOT NULL,
			commit_rev TEXT NOT NULL,
			branch TEXT NOT NULL,
			machine TEXT NOT NULL,
			started_at BIGINT NOT NULL,
			added_at BIGINT NOT NULL,
			seq BIGINT NOT NULL,
			tool_version TEXT NOT NULL,
			tool_revision TEXT NOT NULL,
			go_version TEXT NOT NULL,
			engine TEXT NOT NULL,
			complete BIGINT NOT NULL,
			cpu_before DOUBLE PRECISION NOT NULL,
			cpu_after DOUBLE PRECISION NOT NULL,
			fsync_before DOUBLE PRECISION NOT NULL,
			fsync_after DOUBLE PRECISION NOT NULL,
			load_before DOUBLE PRECISION NOT NULL,
			load_after DOUBLE PRECISION NOT NULL,
			steal DOUBLE PRECISION NOT NULL
		)`,
		`CREATE INDEX runs_series ON runs (plan_hash, branch, started_at)`,
		`CREATE INDEX runs_seq ON runs (seq)`,
		`CREATE TABLE figures (
			run_id TEXT NOT NULL,
			name TEXT NOT NULL,
			cell TEXT NOT NULL,
			value DOUBLE PRECISION NOT NULL,
			unit TEXT NOT NULL,
			PRIMARY KEY (run_id, name)
		)`,
		`CREATE INDEX figures_name ON figures (name, run_id)`,
	},
	{ // 2: verdicts of interleaved A/B runs of change points (history confirm)
		`CREATE TABLE confirmations (
			plan_hash TEXT NOT NULL,
			cell TEXT NOT NULL,
			figure TEXT NOT NULL,
			before_commit TEXT NOT NULL,
			after_commit TEXT NOT NULL,
			verdict TEXT NOT NULL,
			detail TEXT NOT NULL,
			at BIGINT NOT NULL,
			PRIMARY KEY (plan_hash, cell, figure, before_commit, after_commit)
		)`,
	},
}

// SchemaVersion is the version of the schema this package writes and
// reads: the number of its migrations.
var SchemaVersion = len(migrations)

// migrate brings db's schema forward to SchemaVersion, each migration in
// a transaction of its own with the version it reaches, and refuses a
// database written by a newer gobench.
func migrate(ctx context.Context, db *sql.DB, d dialect) error {
	if _, err := db.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_version (version BIGINT NOT NULL)`); err != nil {
		return fmt.Errorf("creating schema_version: %w", err)
	}
	for {
		done, err := migrateOnce(ctx, db, d)
		if err != nil || done {
			return err
		}
	}
}

// migrateOnce applies the next migration, if any, under the dialect's
// lock; done says the schema is current.
func migrateOnce(ctx context.Context, db *sql.DB, d dialect) (done bool, err error) {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return false, fmt.Errorf("migrating the history: %w", err)
	}
	defer tx.Rollback() //nolint:errcheck // after Commit, a no-op
	if d.lock != "" {
		if _, err := tx.ExecContext(ctx, d.lock); err != nil {
			return false, fmt.Errorf("locking the history to migrate it: %w", err)
		}
	}
	v, err := version(ctx, tx)
	if err != nil {
		return false, err
	}
	switch {
	case v > SchemaVersion:
		return false, fmt.Errorf("the history's schema is version %d, newer than this gobench's (%d): use a newer gobench", v, SchemaVersion)
	case v == SchemaVersion:
		return true, nil
	}
	for _, stmt := range migrations[v] {
		if _, err := tx.ExecContext(ctx, stmt); err != nil {
			return false, fmt.Errorf("migrating the history to version %d: %w", v+1, err)
		}
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM schema_version`); err != nil {
		return false, fmt.Errorf("migrating the history to version %d: %w", v+1, err)
	}
	if _, err := tx.ExecContext(ctx, d.q(`INSERT INTO schema_version (version) VALUES (?)`), v+1); err != nil {
		return false, fmt.Errorf("migrating the history to version %d: %w", v+1, err)
	}
	return false, tx.Commit()
}

// version reads the schema's version: 0 for a new database.
func version(ctx context.Context, tx *sql.Tx) (int, error) {
	var v sql.NullInt64
	if err := tx.QueryRowContext(ctx, `SELECT MAX(version) FROM schema_version`).Scan(&v); err != nil {
		return 0, fmt.Errorf("reading the history's schema version: %w", err)
	}
	return int(v.Int64), nil
}
