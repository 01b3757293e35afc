package history

import (
	"context"
	"fmt"
	"time"
)

// The verdicts history confirm records, as gobench ab judged the change
// point's two commits.
const (
	VerdictRegression   = "regression"
	VerdictPass         = "pass"
	VerdictInconclusive = "inconclusive"
)

// Confirmation is the verdict of an interleaved A/B run of a change
// point's two commits, kept beside the change point.
type Confirmation struct {
	Plan, Cell, Figure string
	Before, After      string
	// Verdict is VerdictRegression, VerdictPass or VerdictInconclusive;
	// Detail says what the A/B run found, in a line.
	Verdict, Detail string
	At              time.Time
}

const upsertConfirmation = `INSERT INTO confirmations (plan_hash, cell, figure, before_commit, after_commit, verdict, detail, at)
	VALUES (?, ?, ?, ?, ?, ?, ?, ?)
	ON CONFLICT (plan_hash, cell, figure, before_commit, after_commit)
	DO UPDATE SET verdict = excluded.verdict, detail = excluded.detail, at = excluded.at`

// Confirm records c, replacing an earlier verdict of the same change
// point.
func (s *Store) Confirm(ctx context.Context, c Confirmation) error {
	switch c.Verdict {
	case VerdictRegression, VerdictPass, VerdictInconclusive:
	default:
		return fmt.Errorf("verdict %q: want %s, %s or %s", c.Verdict, VerdictRegression, VerdictPass, VerdictInconclusive)
	}
	if c.At.IsZero() {
		c.At = time.Now()
	}
	_, err := s.db.ExecContext(ctx, s.d.q(upsertConfirmation), c.Plan, c.Cell, c.Figure, c.Before, c.After, c.Verdict, c.Detail, c.At.UnixNano())
	if err != nil {
		return fmt.Errorf("recording the verdict in the history %s: %w", s, err)
	}
	return nil
}

// verdicts fills the recorded verdicts of the series' change points.
func (s *Store) verdicts(ctx context.Context, sr *Series) error {
	if len(sr.Changes) == 0 {
		return nil
	}
	rows, err := s.db.QueryContext(ctx, s.d.q(`SELECT before_commit, after_commit, verdict, detail FROM confirmations
		WHERE plan_hash = ? AND cell = ? AND figure = ?`), sr.Plan, sr.Cell, sr.Figure)
	if err != nil {
		return fmt.Errorf("reading the history %s: %w", s, err)
	}
	defer rows.Close()
	for rows.Next() {
		var before, after, verdict, detail string
		if err := rows.Scan(&before, &after, &verdict, &detail); err != nil {
			return fmt.Errorf("reading the history %s: %w", s, err)
		}
		for i := range sr.Changes {
			if c := &sr.Changes[i]; c.Before == before && c.After == after {
				c.Verdict, c.Detail = verdict, detail
			}
		}
	}
	return rows.Err()
}
