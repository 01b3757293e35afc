package history

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/gobench/gobench/pkg/judge"
	"github.com/gobench/gobench/pkg/result"
)

// Query selects the runs of one figure: its name (as judge.ParseMetric
// reads it: "read p99", "total ops/s"), and optionally the settings every
// run's cell has, the branch, the earliest start and the plan.
type Query struct {
	Figure string
	// Where lists settings a run's cell must have ("journal=wal").
	Where result.Settings
	// Branch keeps the runs of one branch; "" every branch.
	Branch string
	// Since keeps the runs that started at or after it; zero: all.
	Since time.Time
	// Plan keeps the runs whose plan hash begins with it; "" all.
	Plan string
}

// Sample is one run's value of a figure, as the history holds it.
type Sample struct {
	RunID, Commit, Branch, Machine string
	StartedAt                      time.Time
	// Value is the figure as the run measured it.
	Value float64
	Cal   Calibration
	seq   int64
}

// rawSeries is a query's samples of one plan and cell, in the order the
// runs started (and were added).
type rawSeries struct {
	planHash, command, cell string
	settings                result.Settings
	unit                    string
	samples                 []Sample
	// args is the command line of the series' latest run, as JSON.
	args string
}

const selectSamples = `SELECT r.id, r.plan_hash, r.command, r.args, r.cell, r.settings, r.commit_rev, r.branch, r.machine,
	r.started_at, r.seq, r.cpu_before, r.cpu_after, r.fsync_before, r.fsync_after,
	r.load_before, r.load_after, r.steal, f.value, f.unit
	FROM figures f JOIN runs r ON r.id = f.run_id
	WHERE f.name = ?`

// samples reads the query's runs, grouped by plan and cell.
func (s *Store) samples(ctx context.Context, q Query) ([]*rawSeries, error) {
	m, err := judge.ParseMetric(q.Figure)
	if err != nil {
		return nil, err
	}
	stmt, args := selectSamples, []any{m.String()}
	if q.Branch != "" {
		stmt, args = stmt+" AND r.branch = ?", append(args, q.Branch)
	}
	if !q.Since.IsZero() {
		stmt, args = stmt+" AND r.started_at >= ?", append(args, q.Since.UnixNano())
	}
	if q.Plan != "" {
		stmt, args = stmt+" AND r.plan_hash LIKE ?", append(args, strings.ToLower(q.Plan)+"%")
	}
	stmt += " ORDER BY r.plan_hash, r.cell, r.started_at, r.seq, r.id" // ties broken the same way on every database
	rows, err := s.db.QueryContext(ctx, s.d.q(stmt), args...)
	if err != nil {
		return nil, fmt.Errorf("reading the history %s: %w", s, err)
	}
	defer rows.Close()
	var out []*rawSeries
	for rows.Next() {
		var sm Sample
		var plan, command, args, cell, settings, unit string
		var started int64
		c := &sm.Cal
		if err := rows.Scan(&sm.RunID, &plan, &command, &args, &cell, &settings, &sm.Commit, &sm.Branch, &sm.Machine,
			&started, &sm.seq, &c.CPUBefore, &c.CPUAfter, &c.FsyncBefore, &c.FsyncAfter,
			&c.LoadBefore, &c.LoadAfter, &c.Steal, &sm.Value, &unit); err != nil {
			return nil, fmt.Errorf("reading the history %s: %w", s, err)
		}
		sm.StartedAt = time.Unix(0, started).UTC()
		if n := len(out); n == 0 || out[n-1].planHash != plan || out[n-1].cell != cell {
			var st result.Settings
			if err := json.Unmarshal([]byte(settings), &st); err != nil {
				return nil, fmt.Errorf("reading the history %s: run %s's settings: %w", s, sm.RunID, err)
			}
			out = append(out, &rawSeries{planHash: plan, command: command, cell: cell, settings: st, unit: unit})
		}
		last := out[len(out)-1]
		last.samples = append(last.samples, sm)
		last.args = args // the latest run's
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("reading the history %s: %w", s, err)
	}
	// The series in byte order of plan and cell, whatever the server's
	// collation ordered them by (a PostgreSQL database's locale).
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].planHash != out[j].planHash {
			return out[i].planHash < out[j].planHash
		}
		return out[i].cell < out[j].cell
	})
	return filterWhere(out, q.Where), nil
}

// filterWhere keeps the series whose settings include every one of where.
func filterWhere(all []*rawSeries, where result.Settings) []*rawSeries {
	var out []*rawSeries
	for _, rs := range all {
		ok := true
		for _, w := range where {
			if v, has := rs.settings.Get(w.Name); !has || v != w.Value {
				ok = false
				break
			}
		}
		if ok {
			out = append(out, rs)
		}
	}
	return out
}

// ParseWhere reads "journal=wal,procs=4" (or several such, as --where
// repeats) as settings.
func ParseWhere(specs []string) (result.Settings, error) {
	var out result.Settings
	for _, spec := range specs {
		for _, part := range strings.Split(spec, ",") {
			name, value, ok := strings.Cut(strings.TrimSpace(part), "=")
			if !ok || name == "" {
				return nil, fmt.Errorf("--where %q: want NAME=VALUE, such as journal=wal", part)
			}
			out = append(out, result.Setting{Name: name, Value: value})
		}
	}
	return out, nil
}
