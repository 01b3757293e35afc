package replay

import (
	"errors"
	"fmt"
	"os"

	"github.com/gobench/gobench/pkg/deal"
	"github.com/gobench/gobench/pkg/sqltrace"
	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/workload"
)

// Statement is a replayed statement, as a replay's dealer deals it: the
// deal.Action of its deal.Deal.
type Statement struct {
	// SQL is the statement's text, or Stmts its statements when the
	// text holds several (an sqlite3_exec's); Args its parameters' values
	// by index.
	SQL   string
	Stmts []string
	Args  []any
	// MaxRows is how many rows to step through (-1: to the end, as the
	// application did); Changes asks for the rows it changed.
	MaxRows int64
	Changes bool
	// Want is what the statement did when captured.
	Want Captured
	// Due is when the statement is due, in nanoseconds from the phase's
	// START; -1 in closed loop.
	Due int64
	// Gate, if not -1, is the state of the order of commits at which the
	// statement began its transaction; Commit, if not -1, the state its
	// commit made (workload.ReplayCommit only).
	Gate, Commit int64
	// Lock, if not -1, is the state at which the statement, the first of
	// a transaction that commits to take the write lock, took it: it runs
	// once every transaction that took the lock there and committed
	// nothing ended. IdleEnd, if not -1, says it ended such a transaction,
	// which took the lock at that state (workload.ReplayCommit only).
	Lock, IdleEnd int64
	// Overridden says the statement set a setting of the run's: it runs
	// as a read of the setting and is not compared with the capture.
	Overridden bool
	// Skip says not to run the statement: it found the database busy
	// when captured, and the order of commits has the application's
	// retry run in its place; or the trace cut its text
	// (sqltrace.FlagCut), which would run as other SQL.
	Skip bool
	// Unjudged says not to judge whether it did something else than when
	// captured (workload.Replay.Judged): its errors and latency count.
	Unjudged bool
	// Setup, on the first statement of a slice's or a window's part of a
	// connection, is the CREATE statements of the connection's temporary
	// objects live at the part's start, made earlier on another
	// connection: they run first, schema only, and are not judged.
	Setup []string

	// kind is its kind's id (workload.ReplayKind.ID); log keeps the
	// first of each kind that diverged (nil: none kept).
	kind string
	log  *divergences
}

// Run runs the statement on conn (store.Executor), and flags its sample
// where it did something else than when captured.
func (rd *Statement) Run(conn store.Conn) (workload.SampleFlags, error) {
	var flags workload.SampleFlags
	if rd.Want.Code != 0 {
		flags |= workload.FlagCaptureError
	}
	if err := rd.setup(conn); err != nil {
		return flags, err
	}
	if rd.Skip {
		return flags | workload.FlagSkipped, nil
	}
	ex, ok := conn.(store.Executor)
	if !ok {
		return flags, fmt.Errorf("%w: the driver cannot run a trace's statements", store.ErrInvalid)
	}
	out, err := rd.exec(ex)
	class := store.OK
	if err != nil {
		class = store.Classify(err)
		if class.IsError() {
			rd.log.noteError(rd, class, err)
		}
	}
	if what := rd.diverged(out, class); what != "" && !rd.Overridden && !rd.Unjudged {
		flags |= workload.FlagDiverged
		rd.log.note(rd, what, out, class)
	}
	if rd.Want.Committed && class == store.OK {
		flags |= workload.FlagCommitted
	}
	if rd.Want.Uncertain {
		flags |= workload.FlagUncertain
	}
	if errors.Is(err, store.ErrInvalid) {
		// A statement refused by the guard, or one no driver could run:
		// bad input, which stops the replay.
		err = fmt.Errorf("the trace's statement %.80q: %w", rd.SQL, err)
	}
	return flags, err
}

// setup makes the connection's temporary objects (Setup), once.
func (rd *Statement) setup(conn store.Conn) error {
	ex, ok := conn.(store.Executor)
	if !ok || len(rd.Setup) == 0 {
		return nil // one that is not refuses the statement itself
	}
	for _, s := range rd.Setup {
		if _, err := ex.Execute(s, nil, -1, false); err != nil {
			return fmt.Errorf("making the connection's temporary objects first: %.80q: %w", s, err)
		}
	}
	rd.Setup = nil
	return nil
}

// exec runs the statement: each of its statements in turn if its text
// holds several.
func (rd *Statement) exec(ex store.Executor) (store.Outcome, error) {
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

// How a statement diverged (workload.ReplayDivergence.What).
const (
	whatOutcome = "another outcome"
	whatChanges = "other changes"
	whatRows    = "other rows"
	whatValues  = "other values"
)

// diverged says how the statement did something else than when captured,
// or "" if it did not: another outcome, or (as far as the application
// read) other rows or other values in them, or other changes.
func (rd *Statement) diverged(out store.Outcome, class store.Class) string {
	want := rd.Want
	switch {
	case class != store.OK || want.Code != 0:
		if class != want.Class() {
			return whatOutcome
		}
		return ""
	case want.Uncertain:
		return "" // which state it saw is not known: its rows say nothing
	case rd.Changes:
		if out.Changes != want.Changes {
			return whatChanges
		}
		return ""
	case out.Rows != want.Rows, want.Done && !out.Done:
		return whatRows
	case !rd.sameRows(out):
		return whatValues
	}
	return ""
}

// sameRows reports whether the rows a statement returned are the ones it
// returned when captured, as far as their digests tell: a statement of
// several (an sqlite3_exec's), or one whose digest one side lacks (a
// trace of format version 1), compares its rows' number only.
func (rd *Statement) sameRows(out store.Outcome) bool {
	if !rd.Want.HasDigest || !out.Digested || len(rd.Stmts) > 0 {
		return true
	}
	got := out.Unordered
	if rd.Want.Ordered {
		got = out.Ordered
	}
	return got == rd.Want.Digest
}

// Captured is what a statement did when captured.
type Captured struct {
	Rows, Changes int64
	HasChanges    bool
	// Digest is the digest of its rows (sqltrace.Exec.Digest), with
	// HasDigest; Ordered says it folds them in order.
	Digest             uint64
	HasDigest, Ordered bool
	Done               bool
	// Code is the result code it failed with, or 0.
	Code int
	// Committed says it committed a transaction; Uncertain that the
	// capture could not tell which state it saw (its rows are not
	// compared).
	Committed bool
	Uncertain bool
}

// Source deals a trace's statements, each worker its connection's, and
// paces them at the replay's speed and in its order of commits: the part
// of a replay's source that reads the trace (its kinds and descriptions
// are the plan's source's, planSource). The workers of one host share
// one, through their deal.Shared (the plan's workload.Around's Host,
// or NewSource, then deal.Shared.Use).
type Source struct {
	workload.Source
	order *Order
}

// NewSource returns the source of p's replay for a host's workers, nil if
// p replays no trace. order is the run's shared order of commits (a
// worker process's, mapped from the file the coordinator made); nil gives
// a host that runs every worker one of its own, counted from the trace.
func NewSource(p *workload.Plan, hostWorkers int, order *Order) (workload.Source, error) {
	r := p.Replay
	if r == nil {
		return nil, nil
	}
	s := &Source{Source: p.Source(&p.Phases[0])}
	if r.Order != workload.ReplayCommit {
		return s, nil
	}
	if order == nil {
		if hostWorkers < p.Workers() {
			return nil, fmt.Errorf("%w: the replay in the order of commits runs on %d hosts: they need the run's shared order", store.ErrInvalid, p.Workers()/max(hostWorkers, 1))
		}
		var err error
		if order, err = NewOrder(r); err != nil {
			return nil, err
		}
	}
	s.order = order
	return s, nil
}

// Progress returns the progress of the replay's order of commits
// (Order.Progress), and false when it replays in no order: a stall
// watchdog counts a worker waiting for its turn as alive while the order
// progresses.
func (s *Source) Progress() (int64, bool) {
	if s == nil || s.order == nil {
		return 0, false
	}
	return s.order.Progress(), true
}

// Dealer returns the dealer of worker's connection.
func (s *Source) Dealer(p *workload.Plan, _, worker int, _ *deal.Shared) (deal.Dealer, error) {
	r := p.Replay
	if worker < 0 || worker >= len(r.Workers) {
		return nil, fmt.Errorf("worker %d has no connection of the trace's", worker)
	}
	w := r.Workers[worker]
	d := &replayDealer{r: r, w: w, kinds: map[string]replayText{}, remap: newRemapper(r, w.Copy)}
	d.fold = newFoldDealer(r, w)
	if r.Window != nil || d.fold != nil {
		d.clock = &txnClock{}
	}
	judged, _ := r.Judged()
	d.unjudged = !judged
	if r.DivergedFile != "" {
		d.log = &divergences{path: r.DivergedFile, seen: map[string]bool{}}
	}
	if r.Order == workload.ReplayCommit {
		if s.order == nil {
			return nil, errors.New("a replay in the order of commits needs the run's shared order (NewSource)")
		}
		d.order = s.order
	}
	if w.Stream == 0 {
		return d, nil
	}
	f, err := os.Open(r.Trace)
	if err != nil {
		return nil, fmt.Errorf("opening the trace: %w", err)
	}
	d.f, d.tr = f, sqltrace.NewReader(f)
	d.tr.Filter(func(s uint64) bool { return s == w.Stream }, false)
	if d.sel, err = newDealerSel(r, w); err != nil {
		f.Close()
		return nil, err
	}
	if d.order != nil {
		// A second reading of the connection's statements, ahead of the
		// first, finds whether a transaction that takes the write lock
		// commits.
		if d.aheadF, err = os.Open(r.Trace); err != nil {
			f.Close()
			return nil, fmt.Errorf("opening the trace: %w", err)
		}
		d.ahead = sqltrace.NewReader(d.aheadF)
		d.ahead.Filter(func(s uint64) bool { return s == w.Stream }, false)
	}
	return d, nil
}

// replayText is what a dealer knows of a statement's text.
type replayText struct {
	op       workload.Op
	id       string   // its kind's id
	pragma   string   // the setting it sets, if overridden
	multiple []string // its statements, if several
}

// replayDealer deals one connection's statements.
type replayDealer struct {
	r     *workload.Replay
	w     workload.ReplayWorker
	f     *os.File
	tr    *sqltrace.Reader
	order *Order
	kinds map[string]replayText
	deal  Statement
	log   *divergences // nil: no examples kept
	n     int64
	// clock, in a window, follows the connection's transactions
	// (nil: every statement is dealt); unjudged is the replay's
	// Judged, negated.
	clock    *txnClock
	unjudged bool
	// remap moves the statements of a scaled replay's copy to its keys
	// (nil: they run as captured).
	remap *remapper
	// fold, in a folded replay, is the worker's slice (nil: not folded).
	fold *foldDealer
	// temps follows the connection's temporary objects, for the first
	// statement dealt to make them (Statement.Setup).
	temps tempDefs
	// sel, in a selection (workload.ReplaySelect), says which of the
	// connection's transactions run (nil: all).
	sel *selReader
	// In the order of commits: the connection's transaction, and the
	// reading ahead (aheadN of the connection's statements read).
	txn    replayTxn
	aheadF *os.File
	ahead  *sqltrace.Reader
	aheadN int64
}

// Len returns how many statements the connection ran.
func (d *replayDealer) Len() int64 { return d.w.Statements }

// Pacer returns a replay worker's pace: the statements' recorded due
// times at a speed, then their turns in the order of commits; neither is
// the closed loop (nil).
func (s *Source) Pacer(p *workload.Plan, _, worker int, _ *deal.Shared) (deal.Pacer, error) {
	r := p.Replay
	var due, turn deal.Pacer
	if r.Speed > 0 {
		due = recordedDue{}
	}
	if r.Order == workload.ReplayCommit {
		if s.order == nil {
			return nil, errors.New("a replay in the order of commits needs the run's shared order (NewSource)")
		}
		g := &commitOrder{o: s.order, worker: worker, stall: r.Stall}
		if worker >= 0 && worker < len(r.Workers) {
			g.stream, g.conn = r.Workers[worker].Stream, r.Workers[worker].Conn
		}
		turn = g
	}
	return deal.Pacers(due, turn), nil
}

// Release is not used: a replay claims no keynums.
func (d *replayDealer) Release(uint64) error { return nil }

// Close leaves the examples of the statements that diverged and closes
// the trace.
func (d *replayDealer) Close() error {
	err := errors.Join(d.log.flush(), d.sel.Close())
	if d.aheadF != nil {
		d.aheadF.Close()
	}
	if d.f == nil {
		return err
	}
	if cerr := d.f.Close(); err == nil {
		err = cerr
	}
	return err
}

// Deal deals the connection's next statement.
func (d *replayDealer) Deal(out *deal.Deal) error {
	if d.tr == nil {
		return deal.ErrDealt // an idle worker: its process has fewer connections than another
	}
	if d.n >= d.w.Statements {
		return errors.New("the connection's statements are all dealt")
	}
	for d.tr.Next() {
		rec := d.tr.Record()
		if rec.Kind != sqltrace.KindExec || rec.Exec.Conn != d.w.Conn {
			continue
		}
		if !d.keep(&rec.Exec) {
			d.temps.note(&rec.Exec)
			continue
		}
		d.n++
		d.fill(&rec.Exec)
		if d.n == 1 && d.clock != nil { // a part of the connection that may start late
			d.deal.Setup = d.temps.live()
		}
		d.temps.note(&rec.Exec)
		*out = deal.Deal{Op: d.text(rec.Exec.SQL).op, Action: &d.deal, Seq: uint64(d.n - 1)}
		return nil
	}
	if err := d.tr.Err(); err != nil {
		return fmt.Errorf("reading the trace: %w", err)
	}
	return fmt.Errorf("the trace ended after %d of connection %d's %d statements", d.n, d.w.Conn, d.w.Statements)
}

// text returns what the dealer knows of a statement's text, learning it
// the first time.
func (d *replayDealer) text(sql string) replayText {
	if t, ok := d.kinds[sql]; ok {
		return t
	}
	fp := sqltrace.Fingerprint(sql)
	t := replayText{op: d.r.KindOf(fp), pragma: OverriddenPragma(fp)}
	for _, k := range d.r.Kinds {
		if k.Op == t.op {
			t.id = k.ID
			break
		}
	}
	if stmts := sqltrace.SplitStatements(sql); len(stmts) > 1 {
		t.multiple = stmts
	}
	if len(d.kinds) < sqltrace.MaxTexts {
		d.kinds[sql] = t
	}
	return t
}

// fill deals e into d.deal.
func (d *replayDealer) fill(e *sqltrace.Exec) {
	t := d.text(e.SQL)
	rd := &d.deal
	args := rd.Args[:0]
	for _, v := range e.Params {
		args = append(args, v.Any())
	}
	*rd = Statement{SQL: e.SQL, Stmts: t.multiple, Args: args, MaxRows: -1, Due: -1, Gate: -1, Commit: -1, Lock: -1, IdleEnd: -1, kind: t.id, log: d.log,
		Unjudged: d.unjudged,
		Want: Captured{Rows: e.Rows, Changes: e.Changes, HasChanges: e.Flags&sqltrace.FlagChanges != 0,
			Digest: e.Digest, HasDigest: e.Flags&sqltrace.FlagDigest != 0, Ordered: e.Flags&sqltrace.FlagOrdered != 0,
			Done: e.Flags&sqltrace.FlagDone != 0, Code: e.Code, Committed: e.MadeCommit() && e.Code == 0,
			Uncertain: e.Flags&sqltrace.FlagUncertain != 0}}
	d.unfold(rd)
	if !rd.Want.Done && e.Code == 0 {
		rd.MaxRows = e.Rows // the application read no more
	}
	rd.Changes = rd.Want.HasChanges && e.Rows == 0
	if t.pragma != "" {
		rd.SQL, rd.Stmts, rd.Args, rd.MaxRows, rd.Changes, rd.Overridden = "PRAGMA "+t.pragma, nil, args[:0], -1, false, true
	}
	if d.r.Speed > 0 {
		rd.Due = int64(float64(e.Start-d.origin()) / d.r.Speed)
	}
	if d.order != nil {
		rd.Gate, rd.Commit = d.txn.place(d.r.Table, e)
		rd.Skip = busyCode(e.Code)
		var lock bool
		if lock, rd.IdleEnd = d.txn.step(e, rd.Gate, rd.Commit); lock {
			rd.Lock = d.lockState(e, rd.Commit)
		}
	}
	if e.Flags&sqltrace.FlagCut != 0 {
		rd.Skip = true
	}
	d.remap.apply(rd)
}

// GateOf returns where a captured statement stands in its database's order
// of commits: the state at which it began its transaction (gate), and the
// state its commit made (commit); -1 for neither. A statement that found
// the database busy when captured stands nowhere: it is not replayed in
// the order of commits.
func GateOf(t sqltrace.OrderTable, e *sqltrace.Exec) (gate, commit int64) {
	gate, commit = -1, -1
	if busyCode(e.Code) {
		return gate, commit
	}
	if k, ok := t.Position(e.Snap); ok {
		gate = k
	}
	if c, ok := t.Position(e.Commit); ok && c > 0 && e.Code == 0 && e.MadeCommit() {
		commit = c
	}
	return gate, commit
}

// busyCode reports whether a result code is SQLITE_BUSY or SQLITE_LOCKED
// (extended or not).
func busyCode(code int) bool { return code&0xff == 5 || code&0xff == 6 }

// Class returns the class of the error the statement failed with when
// captured, by SQLite's primary result code; OK if it did not fail.
func (w Captured) Class() store.Class {
	switch w.Code & 0xff {
	case 0:
		return store.OK
	case 5:
		return store.Busy
	case 6:
		return store.Locked
	case 19:
		return store.Constraint
	case 10:
		return store.IO
	case 13:
		return store.Full
	}
	return store.Other
}

// lockState returns the state at which statement e, the first of its
// transaction to take the write lock, took it, if the transaction commits:
// the state before its commit (the write lock is held from then to the
// commit); -1 if it commits nothing. commit is e's own.
func (d *replayDealer) lockState(e *sqltrace.Exec, commit int64) int64 {
	switch {
	case commit > 0:
		return commit - 1
	case e.Flags&sqltrace.FlagAutocommitAfter != 0 || d.ahead == nil:
		return -1
	}
	for d.ahead.Next() {
		rec := d.ahead.Record()
		if rec.Kind != sqltrace.KindExec || rec.Exec.Conn != d.w.Conn {
			continue
		}
		if d.aheadN++; d.aheadN <= d.n {
			continue // not yet past the statement dealt
		}
		if rec.Exec.Flags&sqltrace.FlagAutocommitBefore != 0 {
			return -1 // another transaction
		}
		if _, c := GateOf(d.r.Table, &rec.Exec); c > 0 {
			return c - 1
		}
		if rec.Exec.Flags&sqltrace.FlagAutocommitAfter != 0 {
			return -1
		}
	}
	return -1 // the trace ends inside the transaction (or does not read: the dealing will say)
}
