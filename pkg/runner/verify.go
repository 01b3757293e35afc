package runner

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/gobench/gobench/pkg/deal"
	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/workload"
)

type ackedWrite struct {
	worker, phase int
	seq           uint64
	start, end    time.Duration
	event         int64 // a --crash run's: the acknowledgement's place in the record
}

// Verify checks a database after a run of plan. records yields every
// write record of the run (in any order). Every key of the key space is
// read back: its value must come from an acknowledged write (or the
// preload, when no write to it was acknowledged), and no other
// acknowledged write to that key may have started after that write ended
// (was acknowledged: for a write in a batch, when its COMMIT returned, as
// WriteRecord.End says). The keys of the writes come from replaying each
// worker's lottery, so the records need not carry them. Memory grows with
// acknowledged writes.
func Verify(ctx context.Context, st store.Store, plan *workload.Plan, records func(yield func(workload.WriteRecord) bool)) (*workload.VerifyReport, error) {
	return VerifyDied(ctx, st, plan, records, nil)
}

// VerifyDied checks a database after a run of plan in which some workers
// died: died reports which worker did not finish which phase (nil: none).
// A worker can commit a write and die before it reports it, so a value of
// such a worker's, from a write after the last one the records hold for
// that phase, is counted in doubt (VerifyReport.InDoubt) rather than as
// a violation. Everything else is checked as Verify checks it.
func VerifyDied(ctx context.Context, st store.Store, plan *workload.Plan, records func(yield func(workload.WriteRecord) bool), died func(worker, phase int) bool) (*workload.VerifyReport, error) {
	if !plan.Verify {
		return nil, errors.New("the plan did not tag its values (Plan.Verify)")
	}
	rep := &workload.VerifyReport{Integrity: "not available"}
	if err := checkIntegrity(ctx, rep, st); err != nil {
		return nil, err
	}
	acked, last := ackedWrites(records, rep)
	v := &keyCheck{rep: rep, died: died, last: last}
	if err := v.checkKeys(ctx, st, plan, writesByKey(plan, acked)); err != nil {
		return nil, err
	}
	if rep.Violations > 0 {
		return rep, fmt.Errorf("%w: %d violations in %d keys (for example: %s)", workload.ErrVerify, rep.Violations, rep.KeysChecked, rep.Examples[0])
	}
	return rep, nil
}

// violation counts one, keeping the first five as examples.
func violation(rep *workload.VerifyReport, format string, args ...any) {
	rep.Violations++
	if len(rep.Examples) < 5 {
		rep.Examples = append(rep.Examples, fmt.Sprintf(format, args...))
	}
}

// checkIntegrity runs the engine's own check, where it has one.
func checkIntegrity(ctx context.Context, rep *workload.VerifyReport, st store.Store) error {
	c, ok := st.(store.Checker)
	if !ok {
		return nil
	}
	problems, err := c.Check(ctx)
	if err != nil {
		return fmt.Errorf("integrity check: %w", err)
	}
	rep.Integrity = "ok"
	if len(problems) > 0 {
		rep.Integrity = fmt.Sprint(problems)
		rep.Violations += int64(len(problems))
	}
	return nil
}

// workerPhase names one worker's writes in one phase.
type workerPhase struct{ w, p int }

// ackedWrites gathers the acknowledged writes, per worker and phase, by
// sequence number, and counts them; last is the number of writes each
// worker's records hold per phase, acknowledged or not (one past the
// highest sequence number).
func ackedWrites(records func(yield func(workload.WriteRecord) bool), rep *workload.VerifyReport) (acked map[workerPhase]map[uint64]ackedWrite, last map[workerPhase]uint64) {
	acked = map[workerPhase]map[uint64]ackedWrite{}
	last = map[workerPhase]uint64{}
	for r := range records {
		if k := (workerPhase{r.Worker, r.Phase}); r.Seq+1 > last[k] {
			last[k] = r.Seq + 1
		}
		if !r.Acked {
			continue
		}
		k := workerPhase{r.Worker, r.Phase}
		if acked[k] == nil {
			acked[k] = map[uint64]ackedWrite{}
		}
		acked[k][r.Seq] = ackedWrite{worker: r.Worker, phase: r.Phase, seq: r.Seq, start: r.Start, end: r.End}
		rep.AckedWrites++
	}
	return acked, last
}

// writesByKey replays each worker's lottery to find the key of every
// acknowledged write.
func writesByKey(plan *workload.Plan, acked map[workerPhase]map[uint64]ackedWrite) map[uint64][]ackedWrite {
	byKey := map[uint64][]ackedWrite{}
	for k, writes := range acked {
		var maxSeq uint64
		for s := range writes {
			maxSeq = max(maxSeq, s)
		}
		l := deal.NewLottery(plan, k.p, k.w)
		for seq := uint64(0); seq <= maxSeq; {
			op, key := l.Next()
			if !op.IsWrite() {
				continue
			}
			if w, ok := writes[seq]; ok {
				byKey[key] = append(byKey[key], w)
			}
			seq++
		}
	}
	return byKey
}

// keyCheck is the reading back of every key: the report it fills, and
// whose writes may be in doubt (see VerifyDied).
type keyCheck struct {
	rep  *workload.VerifyReport
	died func(worker, phase int) bool // nil: no worker died
	last map[workerPhase]uint64       // writes recorded per worker and phase
	buf  []byte                       // the value read last
}

// inDoubt reports whether tag names a write its worker may have committed
// and died before reporting.
func (v *keyCheck) inDoubt(tag deal.Tag) bool {
	return v.died != nil && v.died(tag.Worker, tag.Phase) && tag.Seq >= v.last[workerPhase{tag.Worker, tag.Phase}]
}

// checkKeys reads every key back and checks it against its writes: each
// key of the key space, then each appended key (workload.OpAppend) an
// acknowledged append wrote. A cancelled ctx stops it, within the
// statement under way where the connection can be interrupted
// (store.Interrupter).
func (v *keyCheck) checkKeys(ctx context.Context, st store.Store, plan *workload.Plan, byKey map[uint64][]ackedWrite) error {
	c, err := st.Conn(ctx)
	if err != nil {
		return err
	}
	defer c.Close()
	defer interruptible(ctx, c)()
	for key := range plan.Keys.Count {
		if err := v.checkKey(ctx, c, key, key < plan.Preload, byKey[key]); err != nil {
			return err
		}
	}
	for _, key := range appendedKeys(byKey) {
		if err := v.checkKey(ctx, c, key, false, byKey[key]); err != nil {
			return err
		}
	}
	return nil
}

// appendedKeys returns the appended keys of byKey, in order.
func appendedKeys(byKey map[uint64][]ackedWrite) []uint64 {
	var keys []uint64
	for key := range byKey {
		if workload.IsAppended(key) {
			keys = append(keys, key)
		}
	}
	slices.Sort(keys)
	return keys
}

// checkKey reads key back and checks it against the acknowledged writes
// to it; preloaded says the preload wrote it.
func (v *keyCheck) checkKey(ctx context.Context, c store.Conn, key uint64, preloaded bool, writes []ackedWrite) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	var err error
	v.buf, err = c.Get(key, v.buf)
	v.rep.KeysChecked++
	if errors.Is(err, store.ErrNotFound) {
		if preloaded || len(writes) > 0 {
			violation(v.rep, "key %d is missing: it was preloaded or written", key)
		}
		return nil
	}
	if err != nil {
		return fmt.Errorf("reading key %d: %w", key, err)
	}
	v.checkValue(key, v.buf, writes)
	return nil
}

// checkValue checks the value a key holds against the acknowledged writes
// to it.
func (v *keyCheck) checkValue(key uint64, value []byte, writes []ackedWrite) {
	rep := v.rep
	tag, ok := deal.ParseTag(value)
	switch {
	case !ok:
		violation(rep, "key %d holds a value with no tag", key)
	case tag.Preload:
		if len(writes) > 0 {
			violation(rep, "key %d still holds its preloaded value, but %d acknowledged writes to it were lost", key, len(writes))
		}
	default:
		i := slices.IndexFunc(writes, func(w ackedWrite) bool {
			return w.worker == tag.Worker && w.phase == tag.Phase && w.seq == tag.Seq
		})
		if i < 0 && v.inDoubt(tag) {
			rep.InDoubt++
			return
		}
		if i < 0 {
			violation(rep, "key %d holds the value of worker %d's write %d in phase %d, which was not acknowledged", key, tag.Worker, tag.Seq, tag.Phase)
			return
		}
		kept := writes[i]
		for _, w := range writes {
			if w.phase > kept.phase || (w.phase == kept.phase && w.start > kept.end) {
				violation(rep, "key %d lost worker %d's write %d (started %v), acknowledged after the surviving write ended (worker %d's write %d, %v to %v)", key, w.worker, w.seq, w.start, kept.worker, kept.seq, kept.start, kept.end)
				return
			}
		}
	}
}
