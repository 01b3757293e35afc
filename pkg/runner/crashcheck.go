package runner

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/gobench/gobench/pkg/deal"
	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/workload"
)

// CrashIndex holds the acknowledgements of a --crash run: a key-value
// workload's acknowledged writes by key (each a write's tag names), a
// record workload's by record (each names its record and field), a
// sql workload's acknowledged scripts in order. Memory grows with the
// acknowledged writes, as Verify's does.
type CrashIndex struct {
	plan  *workload.Plan
	byWP  map[workerPhase][]store.Ack
	acks  []ackAt // a sql workload's, in order
	byKey map[uint64][]ackedWrite
	byRec map[uint64][]recWrite // a record workload's, by keynum
	ready bool
	// preload is the preload's acknowledgement (store.AckPreload),
	// where the record starts before it; nil for none.
	preload *ackAt
	// content, where set, judges a sql workload's states by their
	// content (SetContent); prefixes are the rebuilt commits' sums, or
	// noPrefixes why there are none; notCompared the columns the rebuild
	// did not reproduce.
	content     *ContentSums
	prefixes    *prefixes
	noPrefixes  string
	notCompared []string
}

// ackAt is one acknowledged write's (or script's) place and time; a sql
// workload's names its script (worker, phase, seq) and where it
// committed (store.Ack.Commit).
type ackAt struct {
	event, at     int64
	worker, phase int
	seq           uint64
	commit        int64
}

// NewCrashIndex returns an empty index for a run of plan.
func NewCrashIndex(plan *workload.Plan) *CrashIndex {
	return &CrashIndex{plan: plan, byWP: map[workerPhase][]store.Ack{}}
}

// Add adds an acknowledgement, as the record holds it, in the record's
// order.
func (x *CrashIndex) Add(a store.Ack) {
	if a.Phase == store.AckPreload {
		x.preload = &ackAt{event: a.Event, at: a.At}
		return
	}
	if transactional(x.plan) {
		for i := range a.N {
			x.acks = append(x.acks, ackAt{event: a.Event, at: a.At, worker: a.Worker, phase: a.Phase,
				seq: a.First + uint64(i), commit: a.Commit})
		}
		return
	}
	if a.Record {
		x.addRecord(a)
		return
	}
	k := workerPhase{a.Worker, a.Phase}
	x.byWP[k] = append(x.byWP[k], a)
}

// Acks returns how many writes (or scripts) were acknowledged in all.
func (x *CrashIndex) Acks() int64 {
	if transactional(x.plan) {
		return int64(len(x.acks))
	}
	var n int64
	for _, ws := range x.byRec {
		n += int64(len(ws))
	}
	for _, as := range x.byWP {
		for _, a := range as {
			n += int64(a.N)
		}
	}
	return n
}

// build finds the key of every acknowledged write, replaying each
// worker's lottery.
func (x *CrashIndex) build() {
	if x.ready {
		return
	}
	x.ready = true
	x.byKey = map[uint64][]ackedWrite{}
	for k, as := range x.byWP {
		bySeq := map[uint64]store.Ack{}
		var maxSeq uint64
		for _, a := range as {
			for i := range a.N {
				bySeq[a.First+uint64(i)] = a
			}
			maxSeq = max(maxSeq, a.First+uint64(a.N)-1)
		}
		// A --crash run has no warm-up: its run phases are its phases.
		l := deal.NewLottery(x.plan, k.p, k.w)
		for seq := uint64(0); seq <= maxSeq; {
			op, key := l.Next()
			if !op.IsWrite() {
				continue
			}
			if a, ok := bySeq[seq]; ok {
				x.byKey[key] = append(x.byKey[key], ackedWrite{worker: k.w, phase: k.p, seq: seq,
					start: time.Duration(a.Start), end: time.Duration(a.At), event: a.Event})
			}
			seq++
		}
	}
	for _, ws := range x.byKey {
		slices.SortFunc(ws, func(a, b ackedWrite) int { return int(a.event - b.event) })
	}
}

// CheckCrashState opens the state st with drv and the run's options and
// checks it: the engine's integrity check, then every write (or script)
// acknowledged before the crash point, present or lost. A key holds a
// lost write when it holds a value from before the write (the preload's,
// or a write that ended before the lost one began) or no value.
//
// Only the state is judged: a state that does not open or fails its
// integrity check is corrupt, but a check stopped by the cancellation of
// ctx, or by an I/O error of this machine (a full disk while the state is
// opened: classes IO and Full), is an error of the run, returned, with no
// verdict on the state.
//
// Where the record starts before the preload, a state cut before the
// preload was acknowledged (in the store's creation, open or preload)
// is InSetup: one that does not open there is counted (NoOpen), not
// corrupt, since nothing was acknowledged yet.
func CheckCrashState(ctx context.Context, drv store.Driver, plan *workload.Plan, st store.CrashState, x *CrashIndex) (workload.CrashResult, error) {
	x.build()
	if err := x.rebuildOnce(ctx); err != nil {
		return workload.CrashResult{}, err
	}
	inSetup := x.inSetup(plan, st)
	res, err := checkState(ctx, drv, plan, st, x, inSetup)
	if inSetup {
		res.InSetup = true
		res.Corrupt = res.Corrupt && !res.NoOpen
	}
	if err == nil && transactional(plan) && !res.Corrupt {
		// The state's store is closed: its content is read by another
		// SQLite.
		err = x.judgeContent(ctx, st, &res)
	}
	return res, err
}

// inSetup says whether st was cut in the store's setup: the record
// starts before the preload, which was not acknowledged by st's cut.
func (x *CrashIndex) inSetup(plan *workload.Plan, st store.CrashState) bool {
	return plan.Crash.FromSetup() && (x.preload == nil || st.Event < x.preload.event)
}

// AbortedCrashState is the verdict on a state whose check aborted the
// process that ran it (the engine's C code failed an assertion: line,
// the last thing it said): the state does not open, which makes it
// corrupt, but in the setup, where nothing was acknowledged yet, as
// CheckCrashState counts a state that does not open there.
func AbortedCrashState(plan *workload.Plan, st store.CrashState, x *CrashIndex, line string) workload.CrashResult {
	inSetup := x.inSetup(plan, st)
	res := corrupt(workload.CrashResult{InSetup: inSetup}, "does not open: the engine aborted opening it: "+line)
	res.Corrupt = !inSetup
	return res
}

// checkState is CheckCrashState's check of one state.
func checkState(ctx context.Context, drv store.Driver, plan *workload.Plan, st store.CrashState, x *CrashIndex, inSetup bool) (workload.CrashResult, error) {
	cfg := plan.Store
	cfg.Path, cfg.Record = st.Path, nil
	res := workload.CrashResult{InSetup: inSetup}
	s, err := drv.Open(ctx, cfg)
	if err != nil {
		return res, fmt.Errorf("opening crash state %d: %w", st.Index, err)
	}
	defer s.Close()
	if c, ok := s.(store.Checker); ok {
		problems, err := c.Check(ctx)
		switch {
		case err != nil:
			return verdict(ctx, st, res, "does not open", err)
		case len(problems) > 0:
			return corrupt(res, "integrity_check: "+problems[0]), nil
		}
	}
	conn, err := s.Conn(ctx)
	if err != nil {
		return verdict(ctx, st, res, "does not open", err)
	}
	defer conn.Close()
	switch {
	case plan.SQL != nil:
		return checkSQLState(ctx, conn, plan, st, x)
	case plan.Replay != nil:
		return checkReplayState(plan, st, x), nil
	case plan.Records != nil:
		res, err = checkRecordState(ctx, conn, plan, st, x)
		res.InSetup = inSetup
		return res, err
	}
	res, err = checkKVState(ctx, conn, st, x)
	res.InSetup = inSetup
	if err != nil || res.Corrupt {
		return res, err
	}
	return checkPreload(ctx, conn, plan, st, res)
}

// checkPreload counts, where the record starts before the preload, the
// preloaded rows (keys 0 to Preload-1) the state holds: a key holds its
// row when it holds any value (the preload's, or a later write's). Once
// the preload was acknowledged, the rows it lacks are lost.
func checkPreload(ctx context.Context, c store.Conn, plan *workload.Plan, st store.CrashState, res workload.CrashResult) (workload.CrashResult, error) {
	if !plan.Crash.FromSetup() || plan.Preload == 0 || deal.NewPreloader(plan).Records() {
		return res, nil
	}
	res.Preloaded = int64(plan.Preload)
	var buf []byte
	for key := range plan.Preload {
		if key%1024 == 0 {
			if err := ctx.Err(); err != nil {
				return res, fmt.Errorf("checking crash state %d: %w", st.Index, err)
			}
		}
		var err error
		buf, err = c.Get(key, buf)
		switch {
		case err == nil:
			res.PreloadHeld++
		case !errors.Is(err, store.ErrNotFound):
			what := fmt.Sprintf("reading preloaded key %d", key)
			if res.InSetup { // a store whose setup never finished (no table yet)
				what = "does not open: " + what
			}
			return verdict(ctx, st, res, what, err)
		}
	}
	if !res.InSetup {
		res.PreloadLost = res.Preloaded - res.PreloadHeld
	}
	return res, nil
}

// verdict judges a state whose check failed with err: corrupt (what
// says what failed), unless the check was cancelled or met an I/O error
// of the machine's, which are the run's errors.
func verdict(ctx context.Context, st store.CrashState, res workload.CrashResult, what string, err error) (workload.CrashResult, error) {
	if ctx.Err() != nil {
		if errors.Is(err, ctx.Err()) {
			return res, fmt.Errorf("checking crash state %d: %w", st.Index, err)
		}
		return res, fmt.Errorf("checking crash state %d: %w (%v)", st.Index, ctx.Err(), err)
	}
	if c := store.Classify(err); c == store.IO || c == store.Full {
		return res, fmt.Errorf("checking crash state %d: %s: an I/O error of this machine, not a verdict on the engine: %w", st.Index, what, err)
	}
	return corrupt(res, what+": "+err.Error()), nil
}

func corrupt(res workload.CrashResult, why string) workload.CrashResult {
	res.Corrupt, res.Why = true, why
	res.NoOpen = strings.HasPrefix(why, "does not open")
	return res
}

// checkKVState checks every key with writes acknowledged before the
// crash.
func checkKVState(ctx context.Context, c store.Conn, st store.CrashState, x *CrashIndex) (workload.CrashResult, error) {
	var res workload.CrashResult
	var buf []byte
	var l lossTally
	for key, writes := range x.byKey {
		n, err := ackedBefore(ctx, writes, st, &res)
		if err != nil {
			return res, err
		}
		if n == 0 {
			continue
		}
		buf, err = c.Get(key, buf)
		if err != nil && !errors.Is(err, store.ErrNotFound) {
			return verdict(ctx, st, res, fmt.Sprintf("reading key %d", key), err)
		}
		for _, w := range lostWrites(buf, err, writes, n) {
			l.add(&res, st, w, fmt.Sprintf("key %d", key))
		}
	}
	l.done(&res, st)
	return res, nil
}

// eventOf is a write's acknowledgement's place in the record.
func (w ackedWrite) eventOf() int64 { return w.event }

// ackedBefore returns how many of writes (sorted by event) were
// acknowledged before st's crash, and counts them as checked in res;
// or the error of a check cancelled by ctx.
func ackedBefore[W interface{ eventOf() int64 }](ctx context.Context, writes []W, st store.CrashState, res *workload.CrashResult) (int, error) {
	n := 0
	for n < len(writes) && writes[n].eventOf() <= st.Event {
		n++
	}
	if n == 0 {
		return 0, nil
	}
	if err := ctx.Err(); err != nil {
		return 0, fmt.Errorf("checking crash state %d: %w", st.Index, err)
	}
	res.Checked += int64(n)
	return n, nil
}

// lossTally counts a state's lost writes into its result: how many,
// the oldest, and the first few as examples.
type lossTally struct {
	oldest int64 // when the oldest lost write was acknowledged; 0: none yet
	any    bool
}

// add counts w, lost by what (a key or a record), in res.
func (l *lossTally) add(res *workload.CrashResult, st store.CrashState, w ackedWrite, what string) {
	res.Lost++
	if st.FailedSyncs > 0 && w.event > st.FailedAt {
		res.LostAfterFail++
	}
	if !l.any || int64(w.end) < l.oldest {
		l.oldest, l.any = int64(w.end), true
	}
	if len(res.Examples) < 3 {
		when := "as the crash came"
		if age := (time.Duration(st.At) - w.end).Round(time.Microsecond); age > 0 {
			when = age.String() + " before the crash"
		}
		res.Examples = append(res.Examples, fmt.Sprintf("%s lost worker %d's write %d, acknowledged %s", what, w.worker, w.seq, when))
	}
}

// done sets res's age of the oldest lost write.
func (l *lossTally) done(res *workload.CrashResult, st store.CrashState) {
	if l.any {
		res.OldestLost = time.Duration(st.At - l.oldest)
	}
}

// lostWrites returns the writes among the first n of writes (those
// acknowledged before the crash) that a key holding value (or none, when
// err is ErrNotFound) lost: all of them when the key holds its preloaded
// value or none; otherwise those that began after the write whose value
// it holds had been acknowledged. A value no acknowledged write put
// there (a write whose COMMIT made it durable but never returned)
// is newer than every acknowledged one.
func lostWrites(value []byte, err error, writes []ackedWrite, n int) []ackedWrite {
	if err != nil {
		return writes[:n]
	}
	tag, ok := deal.ParseTag(value)
	if !ok || tag.Preload {
		return writes[:n]
	}
	i := slices.IndexFunc(writes, func(w ackedWrite) bool {
		return w.worker == tag.Worker && w.phase == tag.Phase && w.seq == tag.Seq
	})
	if i < 0 {
		return nil
	}
	held := writes[i]
	var lost []ackedWrite
	for _, w := range writes[:n] {
		if w.start > held.end {
			lost = append(lost, w)
		}
	}
	return lost
}

// checkSQLState checks a sql workload's state: pgbench's invariants and
// its history, one row per acknowledged transaction, for the built-in
// TPC-B; nothing more for other scripts, which have no check.
func checkSQLState(ctx context.Context, c store.Conn, plan *workload.Plan, st store.CrashState, x *CrashIndex) (workload.CrashResult, error) {
	var res workload.CrashResult
	n := 0
	for n < len(x.acks) && x.acks[n].event <= st.Event {
		n++
	}
	res.Checked = int64(n)
	if plan.SQL.Check != workload.CheckTPCB {
		if x.prefixes == nil {
			res.NotChecked = "these scripts have no check of their data (--builtin tpcb-like has one): only each state's integrity is checked"
			if x.noPrefixes != "" {
				res.NotChecked = "the run's commits could not be rebuilt (" + x.noPrefixes + "): only each state's integrity is checked"
			}
		}
		return res, nil
	}
	sc, ok := c.(store.Scripter)
	if !ok {
		return res, fmt.Errorf("%w: driver %s cannot run SQL", store.ErrInvalid, plan.Driver)
	}
	for _, chk := range tpcbChecks {
		if chk.acked {
			continue
		}
		stmt, err := sc.Prepare(chk.sql, nil)
		if err != nil {
			return verdict(ctx, st, res, "checking that "+chk.what, err)
		}
		rows, err := stmt.Run()
		if err != nil {
			return verdict(ctx, st, res, "checking that "+chk.what, err)
		}
		if rows > 0 {
			return corrupt(res, "TPC-B invariant broken: "+chk.what), nil
		}
		res.Invariants++
	}
	if x.prefixes != nil {
		return res, nil // judged by its content
	}
	stmt, err := sc.Prepare("SELECT 1 FROM pgbench_history", nil)
	if err != nil {
		return verdict(ctx, st, res, "reading the history", err)
	}
	rows, err := stmt.Run()
	if err != nil {
		return verdict(ctx, st, res, "reading the history", err)
	}
	if lost := int64(n) - rows; lost > 0 {
		// The history names no writer: take the lost transactions to be
		// the last ones acknowledged, the oldest of them the first after
		// those the history holds.
		res.Lost = lost
		res.OldestLost = time.Duration(st.At - x.acks[rows].at)
		res.Examples = []string{fmt.Sprintf("the history holds %d rows, %d transactions were acknowledged before the crash", rows, n)}
	}
	return res, nil
}
