package runner

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"time"

	"github.com/gobench/gobench/pkg/sqltrace"
	"github.com/gobench/gobench/pkg/sqltrace/dbdigest"
	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/workload"
)

// A replayed trace's worker (Plan.Replay) runs its connection's
// statements in their order, each when it is due (a speed) and, in the
// order of commits, when its turn comes; it compares what each did with
// what it did when captured, and flags its sample when they differ.

// replayDealer is what the worker asks of a replay's dealer besides its
// statements.
type replayDealer interface {
	Order() *workload.ReplayOrder
}

// StallTimeout is how long a replay in the order of commits waits for
// its turn with no progress anywhere before it fails: the statement whose
// turn comes before cannot run.
var StallTimeout = 2 * time.Minute

// replayLoop runs the worker's replayed connection.
func (w *worker) replayLoop(ctx context.Context, start int64, rd replayDealer) error {
	if c, ok := w.dealer.(io.Closer); ok {
		defer c.Close()
	}
	n := w.dealer.Len()
	if n == 0 {
		return nil // an idle worker: its process has fewer connections than another
	}
	ex, ok := w.conn.(store.Executor)
	if !ok {
		return fmt.Errorf("worker %d: %w: the driver cannot run a trace's statements", w.id, store.ErrInvalid)
	}
	order := rd.Order()
	defer w.rollbackLeftOver()
	for i := int64(0); i < n; i++ {
		if ctx.Err() != nil {
			return nil
		}
		if err := w.dealer.Deal(&w.d); err != nil {
			return fmt.Errorf("worker %d: %w", w.id, err)
		}
		stop, err := w.replayOne(ctx, ex, order, start)
		if err != nil || stop {
			return err
		}
	}
	return nil
}

// replayOne runs the statement dealt; stop says the run was interrupted.
func (w *worker) replayOne(ctx context.Context, ex store.Executor, order *workload.ReplayOrder, start int64) (stop bool, err error) {
	rd := w.d.Replay
	origin := int64(-1)
	if rd.Due >= 0 {
		origin = start + rd.Due
		if !w.waitUntil(ctx.Done(), origin) {
			return true, nil
		}
	}
	ranEarly := false
	if order != nil {
		if ranEarly, err = w.awaitTurn(ctx, order, rd); err != nil || ctx.Err() != nil {
			return true, err
		}
	}
	t0 := w.now()
	if origin < 0 {
		origin = t0
	}
	var out store.Outcome
	if !rd.Skip {
		out, err = execReplayed(ex, rd)
	}
	t1 := w.now()
	if order != nil {
		if rd.Gate >= 0 && !ranEarly {
			order.Ran(rd.Gate)
		}
		if rd.Commit >= 0 {
			order.Committed(rd.Commit)
		}
		if rd.IdleEnd >= 0 {
			order.IdleEnded(rd.IdleEnd)
		}
	}
	if err := w.emit(w.replaySample(rd, out, err, origin, t0, t1, start)); err != nil {
		return true, err
	}
	if errors.Is(err, store.ErrInvalid) {
		// A statement refused by the guard, or one no driver could run:
		// bad input, which stops the replay.
		return true, fmt.Errorf("worker %d: the trace's statement %.80q: %w", w.id, rd.SQL, err)
	}
	return false, nil
}

// execReplayed runs a replayed statement: each of its statements in turn
// if its text holds several.
func execReplayed(ex store.Executor, rd *workload.ReplayDeal) (store.Outcome, error) {
	if len(rd.Stmts) == 0 {
		return ex.Execute(rd.SQL, rd.Args, rd.MaxRows, rd.Changes)
	}
	var total store.Outcome
	for _, s := range rd.Stmts {
		out, err := ex.Execute(s, nil, -1, false)
		total.Rows += out.Rows
		total.Done = out.Done
		if err != nil {
			return total, err
		}
	}
	return total, nil
}

// replaySample is the sample of a replayed statement, flagged where it
// differed from the capture.
func (w *worker) replaySample(rd *workload.ReplayDeal, out store.Outcome, err error, origin, t0, t1, start int64) workload.Sample {
	class := store.OK
	if err != nil {
		class = store.Classify(err)
	}
	s := workload.Sample{Op: w.d.Op, Class: class, Start: time.Duration(origin - start), Latency: time.Duration(t1 - origin), Lag: time.Duration(t0 - origin)}
	if w.lockWaits != nil {
		calls, wt := w.lockWaits.TakeLockWaits()
		s.Retries, s.Wait = uint16(min(calls, workload.MaxRetries)), wt
	}
	switch {
	case rd.Skip:
		s.Flags |= workload.FlagSkipped
	case !rd.Overridden && diverged(rd, out, class):
		s.Flags |= workload.FlagDiverged
	}
	if rd.Want.Code != 0 {
		s.Flags |= workload.FlagCaptureError
	}
	if rd.Want.Committed && class == store.OK && !rd.Skip {
		s.Flags |= workload.FlagCommitted
	}
	if rd.Want.Uncertain && !rd.Skip {
		s.Flags |= workload.FlagUncertain
	}
	if t := time.Duration(t1 - start); t > w.end {
		w.end = t
	}
	return s
}

// diverged reports whether a replayed statement did something else than
// when captured: another outcome, or (as far as the application read)
// other rows, or other changes.
func diverged(rd *workload.ReplayDeal, out store.Outcome, class store.Class) bool {
	want := rd.Want
	switch {
	case class != store.OK || want.Code != 0:
		return class != want.Class()
	case want.Uncertain:
		return false // which state it saw is not known: its rows say nothing
	case rd.Changes:
		return out.Changes != want.Changes
	case want.Done:
		return out.Rows != want.Rows || !out.Done
	}
	return out.Rows != want.Rows
}

// awaitTurn waits until the statement's turn in the order of commits: a
// statement that begins a transaction at state k once the database reached
// k; one that takes the write lock for a commit at state l once it
// reached l and every transaction that took the lock at l and committed
// nothing ended; a commit that makes state c once it reached c-1 and
// every statement that begins a transaction at c-1 ran. A commit that
// begins its own transaction (an autocommit write) counts itself as run
// first (ranEarly).
func (w *worker) awaitTurn(ctx context.Context, o *workload.ReplayOrder, rd *workload.ReplayDeal) (ranEarly bool, err error) {
	if rd.Gate >= 0 {
		if err := w.waitFor(ctx, o, rd.Gate, func() bool { return o.Reached() >= rd.Gate }); err != nil {
			return false, err
		}
	}
	if l := rd.Lock; l >= 0 {
		if err := w.waitFor(ctx, o, l, func() bool { return o.Reached() >= l && o.Idle(l) <= 0 }); err != nil {
			return false, err
		}
	}
	if rd.Commit < 0 {
		return false, nil
	}
	pre := rd.Commit - 1
	if rd.Gate == pre {
		o.Ran(pre)
		ranEarly = true
	}
	err = w.waitFor(ctx, o, pre, func() bool { return o.Reached() >= pre && o.Pending(pre) <= 0 })
	return ranEarly, err
}

// waitFor waits until ready, sleeping a little longer each time up to a
// millisecond; with no progress of the order (the state reached, the
// statements pending and the idle writers at state k) for StallTimeout it
// fails.
func (w *worker) waitFor(ctx context.Context, o *workload.ReplayOrder, k int64, ready func() bool) error {
	nap := 10 * time.Microsecond
	last := [3]int64{o.Reached(), int64(o.Pending(k)), int64(o.Idle(k))}
	since := w.now()
	for !ready() {
		if ctx.Err() != nil {
			return nil
		}
		now := w.now()
		if !w.waitUntil(ctx.Done(), now+int64(nap)) {
			return nil
		}
		nap = min(2*nap, time.Millisecond)
		if cur := [3]int64{o.Reached(), int64(o.Pending(k)), int64(o.Idle(k))}; cur != last {
			last, since = cur, now
		} else if time.Duration(now-since) > StallTimeout {
			return fmt.Errorf("worker %d: the replay in the order of commits made no progress for %v: waiting at state %d of %d (reached %d, %d statements of state %d yet to run, %d transactions that took the write lock there yet to end); a statement before it in the order could not run", w.id, StallTimeout, k, o.States(), last[0], last[1], k, last[2])
		}
	}
	return nil
}

// rollbackLeftOver rolls back the transaction a trace's connection left
// open when its statements ended (the capture stopped inside one).
func (w *worker) rollbackLeftOver() {
	if w.prober != nil && w.prober.InTx() && w.batcher != nil {
		_ = w.batcher.Rollback()
	}
}

// replayOrder returns the order of commits a host's workers share: the one
// the host was given (a worker process's, mapped from the coordinator's
// file), or, for a host that runs every worker, one of its own.
func (h *Host) replayOrder() (*workload.ReplayOrder, error) {
	r := h.Plan.Replay
	if r == nil || r.Order != workload.ReplayCommit {
		return nil, nil
	}
	if h.ReplayOrder != nil {
		return h.ReplayOrder, nil
	}
	if len(h.Workers) < h.Plan.Workers() {
		return nil, fmt.Errorf("%w: the replay in the order of commits runs on %d hosts: they need the run's shared order", store.ErrInvalid, h.Plan.Workers()/max(len(h.Workers), 1))
	}
	return NewReplayOrder(r)
}

// NewReplayOrder returns a replay's order of commits in memory of its own,
// each state's statements counted from the trace.
func NewReplayOrder(r *workload.Replay) (*workload.ReplayOrder, error) {
	o, err := workload.NewReplayOrder(r.States)
	if err != nil {
		return nil, err
	}
	if err := r.CountGates(openTrace(r), o); err != nil {
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
	f, err := os.Open(r.Trace)
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
		if rec := tr.Record(); rec.Kind == sqltrace.KindData && rec.Stream == r.Snapshot {
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

// CheckReplay compares the replayed database at path, once the run is
// over, with the database the capture ended with (the trace's digest):
// table by table, leaving out the run's own table (kv) if the capture had
// none.
func CheckReplay(r *workload.Replay, path string) *workload.ReplayCheck {
	rc := &workload.ReplayCheck{Order: r.Order}
	captured, why := capturedDigest(r)
	if why != "" {
		rc.Reason = why
		return rc
	}
	replayed, err := dbdigest.File(path)
	if err != nil {
		rc.Reason = fmt.Sprintf("reading the replayed database: %v", err)
		return rc
	}
	capturedKV := slices.ContainsFunc(captured, func(t sqltrace.TableDigest) bool { return t.Name == "kv" })
	rc.Compared, rc.Tables = true, len(captured)
	rc.Differences = sqltrace.CompareDigests(captured, replayed, func(name string) bool { return name == "kv" && !capturedKV })
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

// checkReplaySQL prepares every statement the replay will run, once each,
// on a connection of the setup's, before any worker starts: a trace whose
// SQL would reach outside the run's database (an ATTACH, a file function,
// a pragma of the process's) is refused before anything of it runs; a
// statement the capture cut is not run, so not checked. A
// statement that cannot be prepared yet for another reason (its table is
// created later in the trace) is left to its run.
func checkReplaySQL(ctx context.Context, st store.Store, r *workload.Replay) error {
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
	if p := workload.OverriddenPragma(sqltrace.Fingerprint(sql)); p != "" {
		stmts = []string{"PRAGMA " + p}
	}
	for _, s := range stmts {
		if err := ex.Check(s); errors.Is(err, store.ErrInvalid) {
			return fmt.Errorf("the trace's SQL must run only inside the run's database: %w", err)
		}
	}
	return nil
}
