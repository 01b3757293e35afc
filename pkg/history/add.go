package history

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/gobench/gobench/pkg/result"
)

// Added counts what Add did: runs new to the history, and runs it held
// already (the same result added again); Elsewhere is how many of those
// it holds under another commit than the one given, left there;
// Incomplete how many runs it left out because they did not complete
// (interrupted, or failed part way): a partial run's figures are no
// point of a series.
type Added struct {
	Runs, Figures, Known int
	Elsewhere            int
	Incomplete           int
}

// Add keeps every run of the suites in the history, each with meta, in
// one transaction: all of them or, on an error, none. A run the history
// holds already (its id, the hash of its content, is there) is left as
// it is, and so is a run that did not complete (Added.Incomplete).
func (s *Store) Add(ctx context.Context, meta Meta, suites ...*result.Suite) (Added, error) {
	var runs []run
	incomplete := 0
	for _, su := range suites {
		for _, c := range su.Cells {
			for _, r := range c.Runs {
				if !r.Complete {
					incomplete++
					continue
				}
				rr, err := runOf(r, meta)
				if err != nil {
					return Added{}, err
				}
				runs = append(runs, rr)
			}
		}
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return Added{}, fmt.Errorf("adding to the history %s: %w", s, err)
	}
	defer tx.Rollback() //nolint:errcheck // after Commit, a no-op
	n, err := s.insert(ctx, tx, meta, runs)
	if err != nil {
		return Added{}, fmt.Errorf("adding to the history %s: %w", s, err)
	}
	if err := tx.Commit(); err != nil {
		return Added{}, fmt.Errorf("adding to the history %s: %w", s, err)
	}
	n.Incomplete = incomplete
	return n, nil
}

const (
	insertRun = `INSERT INTO runs (id, plan_hash, command, args, cell, settings, commit_rev, branch, machine,
		started_at, added_at, seq, tool_version, tool_revision, go_version, engine, complete,
		cpu_before, cpu_after, fsync_before, fsync_after, load_before, load_after, steal)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (id) DO NOTHING`
	insertFigure = `INSERT INTO figures (run_id, name, cell, value, unit) VALUES (?, ?, ?, ?, ?)
		ON CONFLICT (run_id, name) DO NOTHING`
)

// insert adds runs in tx, numbering the new ones after every run the
// history holds (seq: the order of adding, which orders runs that
// started at the same moment).
func (s *Store) insert(ctx context.Context, tx *sql.Tx, meta Meta, runs []run) (Added, error) {
	var seq int64
	if err := tx.QueryRowContext(ctx, `SELECT COALESCE(MAX(seq), 0) FROM runs`).Scan(&seq); err != nil {
		return Added{}, err
	}
	rs, err := tx.PrepareContext(ctx, s.d.q(insertRun))
	if err != nil {
		return Added{}, err
	}
	defer rs.Close()
	fs, err := tx.PrepareContext(ctx, s.d.q(insertFigure))
	if err != nil {
		return Added{}, err
	}
	defer fs.Close()
	now := time.Now().UnixNano()
	var n Added
	for _, r := range runs {
		seq++
		c := r.cal
		res, err := rs.ExecContext(ctx, r.id, r.planHash, r.command, r.args, r.cell, r.settings, meta.Commit, meta.Branch, r.machine,
			r.startedAt, now, seq, r.toolVersion, r.toolRevision, r.goVersion, r.engine, boolInt(r.complete),
			c.CPUBefore, c.CPUAfter, c.FsyncBefore, c.FsyncAfter, c.LoadBefore, c.LoadAfter, c.Steal)
		if err != nil {
			return Added{}, err
		}
		if k, err := res.RowsAffected(); err != nil || k == 0 {
			n.Known++ // the same result, added before
			var was string
			if err := tx.QueryRowContext(ctx, s.d.q(`SELECT commit_rev FROM runs WHERE id = ?`), r.id).Scan(&was); err == nil && was != meta.Commit {
				n.Elsewhere++
			}
			continue
		}
		n.Runs++
		for _, f := range r.figures {
			if _, err := fs.ExecContext(ctx, r.id, f.name, r.cell, f.value, f.unit); err != nil {
				return Added{}, err
			}
			n.Figures++
		}
	}
	return n, nil
}

// boolInt is 1 for true, 0 for false: a column both dialects read.
func boolInt(b bool) int64 {
	if b {
		return 1
	}
	return 0
}
