package replay

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"

	"github.com/gobench/gobench/pkg/sqltrace"
	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/workload"
)

// NewOrder returns a replay's order of commits in memory of its own,
// each state's statements counted from the trace.
func NewOrder(r *workload.Replay) (*Order, error) {
	o, err := newOrder(r.States, len(r.Workers))
	if err != nil {
		return nil, err
	}
	if err := CountGates(r, openTrace(r), o); err != nil {
		return nil, fmt.Errorf("reading the trace: %w", err)
	}
	return o, nil
}

// openTrace opens a replay's trace.
func openTrace(r *workload.Replay) func() (io.ReadCloser, error) {
	return func() (io.ReadCloser, error) { return os.Open(r.Trace) }
}

// InstallSnapshot writes the trace's snapshot of the replayed database to
// a new file at dst, synced, and returns its size.
func InstallSnapshot(r *workload.Replay, dst string) (n int64, err error) {
	return installFrom(openTrace(r), r.Snapshot, dst)
}

// installFrom writes snapshot number snap of the trace open opens to a
// new file at dst, synced, and returns its size.
func installFrom(open func() (io.ReadCloser, error), snap uint64, dst string) (n int64, err error) {
	f, err := open()
	if err != nil {
		return 0, fmt.Errorf("opening the trace: %w", err)
	}
	defer f.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return 0, err
	}
	defer func() {
		if cerr := out.Close(); err == nil {
			err = cerr
		}
	}()
	tr := sqltrace.NewReader(f)
	tr.Filter(func(uint64) bool { return false }, true)
	for tr.Next() {
		if rec := tr.Record(); rec.Kind == sqltrace.KindData && rec.Stream == snap {
			k, err := out.Write(rec.Data)
			n += int64(k)
			if err != nil {
				return n, err
			}
		}
	}
	if err := tr.Err(); err != nil {
		return n, fmt.Errorf("reading the trace: %w", err)
	}
	return n, out.Sync()
}

// Check reads the examples of the statements that diverged, and the
// first error of each kind that failed, the workers
// left (workload.Replay.DivergedFile), and compares the replayed database
// at path, once the run is over, with the database the capture ended
// with (the trace's digest): table by table (a replay keeps no table of
// its own there: store.Config.Bare). digest reads the replayed
// database's tables (dbdigest.File).
func Check(r *workload.Replay, path string, digest workload.DigestFile) *workload.ReplayCheck {
	rc := &workload.ReplayCheck{Order: r.Order}
	var err error
	if rc.Diverged, rc.Errors, err = readDivergences(r.DivergedFile, r.Kinds); err != nil {
		rc.Reason = err.Error()
		return rc
	}
	if ok, why := r.EndCompared(); !ok {
		rc.Reason = why
		return rc
	}
	captured, why := capturedDigest(r)
	if why != "" {
		rc.Reason = why
		return rc
	}
	replayed, err := digest(path)
	if err != nil {
		rc.Reason = fmt.Sprintf("reading the replayed database: %v", err)
		return rc
	}
	rc.Compared, rc.Tables = true, len(captured)
	rc.Differences = sqltrace.CompareDigests(captured, replayed, nil)
	rc.Equal = len(rc.Differences) == 0
	return rc
}

// capturedDigest reads the trace's digest of the replayed database, or
// why there is none.
func capturedDigest(r *workload.Replay) ([]sqltrace.TableDigest, string) {
	f, err := os.Open(r.Trace)
	if err != nil {
		return nil, err.Error()
	}
	defer f.Close()
	tr := sqltrace.NewReader(f)
	tr.Filter(func(s uint64) bool { return s == 0 }, false)
	paths := map[uint64]string{}
	for tr.Next() {
		rec := tr.Record()
		switch {
		case rec.Kind == sqltrace.KindDB:
			paths[rec.DB.ID] = rec.DB.Path
		case rec.Kind == sqltrace.KindDigest && paths[rec.Digest.DB] == r.Database:
			if rec.Digest.Error != "" {
				return nil, "the capture could not read the database at its end: " + rec.Digest.Error
			}
			return slices.Clone(rec.Digest.Tables), ""
		}
	}
	if err := tr.Err(); err != nil {
		return nil, err.Error()
	}
	return nil, "the trace holds no digest of the database at the capture's end"
}

// SetupCheck returns the check of p's store before its run
// (runner.Setup.Check): a replay's statements (CheckSQL), then, for a
// window, the schema statements before it (ApplySchema); nil when p
// replays no trace.
func SetupCheck(p *workload.Plan) func(context.Context, store.Store) error {
	r := p.Replay
	if r == nil {
		return nil
	}
	return func(ctx context.Context, st store.Store) error {
		if err := CheckSQL(ctx, st, r); err != nil {
			return err
		}
		return ApplySchema(ctx, st, r)
	}
}

// CheckSQL prepares every statement the replay will run, once each,
// on a connection of the setup's, before any worker starts: a trace whose
// SQL would reach outside the run's database (an ATTACH, a file function,
// a pragma of the process's) is refused before anything of it runs; a
// statement the capture cut is not run, so not checked. A
// statement that cannot be prepared yet for another reason (its table is
// created later in the trace) is left to its run.
func CheckSQL(ctx context.Context, st store.Store, r *workload.Replay) error {
	c, err := st.Conn(ctx)
	if err != nil {
		return fmt.Errorf("checking the trace's statements: opening a connection: %w", err)
	}
	defer c.Close()
	ex, ok := c.(store.Executor)
	if !ok {
		return fmt.Errorf("%w: the driver cannot run a trace's statements", store.ErrInvalid)
	}
	conns := map[[2]uint64]bool{}
	for _, w := range r.Workers {
		conns[[2]uint64{w.Stream, w.Conn}] = w.Stream != 0
	}
	f, err := os.Open(r.Trace)
	if err != nil {
		return fmt.Errorf("opening the trace: %w", err)
	}
	defer f.Close()
	tr := sqltrace.NewReader(f)
	tr.Filter(nil, false)
	seen := map[string]bool{}
	for tr.Next() && ctx.Err() == nil {
		rec := tr.Record()
		if rec.Kind != sqltrace.KindExec || !conns[[2]uint64{rec.Stream, rec.Exec.Conn}] || seen[rec.Exec.SQL] || rec.Exec.Flags&sqltrace.FlagCut != 0 {
			continue
		}
		seen[rec.Exec.SQL] = true
		if err := checkText(ex, rec.Exec.SQL); err != nil {
			return err
		}
	}
	if err := tr.Err(); err != nil {
		return fmt.Errorf("reading the trace: %w", err)
	}
	return ctx.Err()
}

// checkText checks one statement's text (each of its statements, if it
// holds several; a setting the run overrides as the read it runs as).
func checkText(ex store.Executor, sql string) error {
	stmts := sqltrace.SplitStatements(sql)
	if p := OverriddenPragma(sqltrace.Fingerprint(sql)); p != "" {
		stmts = []string{"PRAGMA " + p}
	}
	for _, s := range stmts {
		if err := ex.Check(s); errors.Is(err, store.ErrInvalid) {
			return fmt.Errorf("the trace's SQL must run only inside the run's database: %w", err)
		}
	}
	return nil
}
