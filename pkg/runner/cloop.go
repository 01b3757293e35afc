package runner

import (
	"context"
	"fmt"
	"time"

	"github.com/gobench/gobench/pkg/workload"

	"github.com/gobench/gobench/pkg/store"
)

// A worker runs ops through its connection's loop (store.LoopRunner) up to
// loopMax ops a call in a phase of a count of ops, loopMaxTimed in a
// phase of a duration (which it checks between calls), and up to
// loopBytes of values a call. Each return from a call costs: the Go
// runtime's monitor wakes again, and on 2 cores 256 ops a call cost some
// 15% more CPU per op than 4096.
const (
	loopMax      = 4096
	loopMaxTimed = 256
	loopBytes    = 4 << 20
)

// cLoop is a worker's state for running its ops through a LoopRunner: the
// ops dealt and not yet run (ops[:queued]) and their values, vlen bytes
// each at the op's index.
type cLoop struct {
	r      store.LoopRunner
	ops    []store.LoopOp
	values []byte
	vlen   int
	queued int
}

// newLoop returns the worker's loop when its connection runs loops
// (store.LoopRunner, Looping) and the phase is one whose ops a loop runs
// exactly as the per-op path would, nil otherwise. That is a closed-loop
// phase (no --rate) of reads and upserts alone, each its own transaction
// (--batch 1), of values of one size (no value variance), under the
// engine's own busy handling (not --busy retry), with no acknowledgement
// to record at the moment of each commit (no --crash), on the real
// monotonic clock, in a build without the slowdown tag. Then the same ops
// are dealt, in the same order, with the same keys and values, as one by
// one; each runs as Get or Put would, timed by the engine around the op
// alone; and each gets the sample the per-op path would give it, its
// class, lock waits and busy steps as the engine counted them. What
// differs: the worker checks its context and its --duration between
// calls, so a phase that ends runs to the end of the call under way: at
// most loopMaxTimed ops past its duration, and a cancelled run at most
// loopMax ops past the cancellation.
func (w *worker) newLoop(p *workload.Plan, spec *workload.Phase) *cLoop {
	r, ok := w.conn.(store.LoopRunner)
	if !ok || !r.Looping() || w.pacer != nil || p.Busy == workload.BusyRetry || spec.Batch > 1 || w.acks != nil || p.ConnPerOp ||
		p.Records != nil || p.SQL != nil || w.clock != nil || Slowdown != 0 || p.ValueVariance != 0 {
		return nil
	}
	n := loopMax
	if spec.Duration > 0 {
		n = loopMaxTimed
	}
	kinds := p.Kinds(spec) // a trace's statements, a custom source's kinds: not the loop's
	if len(kinds) == 0 {
		return nil
	}
	for _, op := range kinds {
		switch op {
		case workload.OpRead:
		case workload.OpUpsert:
			n = min(n, max(1, loopBytes/max(1, p.ValueSize)))
		default:
			return nil
		}
	}
	return &cLoop{r: r, ops: make([]store.LoopOp, n), values: make([]byte, n*p.ValueSize), vlen: p.ValueSize}
}

// inC deals up to room more ops (as many as the loop holds), runs the ops
// dealt in one call of the loop, and records the samples of those that
// ran; an op that failed ends the call, and those after it wait for the
// next. It returns how many ops it dealt.
func (w *worker) inC(start, room int64) (int64, error) {
	l := w.loopC
	var dealt int64
	for l.queued < len(l.ops) && dealt < room {
		op, key, err := w.deal()
		if err != nil {
			return dealt, err
		}
		i := l.queued
		l.ops[i] = store.LoopOp{Key: key, Upsert: op == workload.OpUpsert}
		if op == workload.OpUpsert {
			copy(l.values[i*l.vlen:(i+1)*l.vlen], w.d.Value)
		}
		l.queued++
		dealt++
	}
	ran, rerr := l.r.RunLoop(l.ops[:l.queued], l.values[:l.queued*l.vlen], l.vlen)
	if ran == 0 && rerr != nil {
		return dealt, fmt.Errorf("worker %d: running ops in a loop: %w", w.id, rerr)
	}
	// The engine's counters moved during the call; the ops carry their
	// share. What the next op counts starts here.
	if w.lockWaits != nil {
		w.lockWaits.TakeLockWaits()
	}
	if w.busySteps != nil {
		w.busySteps.TakeBusySteps()
	}
	var gerr error
	if w.prober != nil && w.prober.InTx() {
		// As single does after each op: the loop's last op left a
		// transaction open.
		var fatal error
		if gerr, fatal = w.guard(loopKind(&l.ops[ran-1])); fatal != nil {
			return dealt, fatal
		}
	}
	for i := range ran {
		var err error
		if i == ran-1 {
			if err = rerr; gerr != nil {
				err = gerr // as single: the open transaction decides
			}
		}
		if serr := w.loopSample(&l.ops[i], start, err, gerr != nil && i == ran-1); serr != nil {
			return dealt, serr
		}
	}
	copy(l.ops, l.ops[ran:l.queued])
	copy(l.values, l.values[ran*l.vlen:l.queued*l.vlen])
	l.queued -= ran
	return dealt, nil
}

// loopSample records the sample of o, an op a loop ran, as single would:
// err is the error it failed with, if it failed (a missing row aside), and
// openTx says that err is the guard's (the op left a transaction open).
// It returns the error that stops the worker.
func (w *worker) loopSample(o *store.LoopOp, start int64, err error, openTx bool) error {
	op := loopKind(o)
	if o.NotFound && err == nil {
		err = store.ErrNotFound
	}
	class := store.OK
	if err != nil {
		class = store.Classify(err)
	}
	if openTx {
		class = store.OpenTx
	}
	s := workload.Sample{Op: op, Class: class, Start: time.Duration(o.Start - start), Latency: time.Duration(o.End - o.Start)}
	if w.lockWaits != nil {
		s.Retries, s.Wait = uint16(min(o.LockWaits, workload.MaxRetries)), o.LockWait
	}
	if w.busySteps != nil {
		if o.BusyBegin > 0 {
			s.Flags |= workload.FlagBusyBegin
		}
		if o.BusyCommit > 0 {
			s.Flags |= workload.FlagBusyCommit
		}
	}
	w.end = time.Duration(o.End - start)
	if serr := w.emit(s); serr != nil || err == nil {
		return serr
	}
	return w.stopOn(op, class, err)
}

// loopAll runs the phase's count ops (0: no count) through the loop, a
// call at a time, until ctx ends or the phase's duration limit (0: none)
// is over between two calls.
func (w *worker) loopAll(ctx context.Context, start, count int64, limit time.Duration) error {
	for n := int64(0); count == 0 || n < count; {
		if ctx.Err() != nil {
			return nil
		}
		room := int64(loopMax)
		if count > 0 {
			room = count - n
		}
		dealt, err := w.inC(start, room)
		if err != nil {
			return err
		}
		if n += dealt; limit > 0 && w.end >= limit {
			return nil
		}
	}
	return w.drainC(ctx, start, limit)
}

// drainC runs the ops dealt and not yet run once the phase has dealt its
// last, unless ctx ends or the phase's duration is over first.
func (w *worker) drainC(ctx context.Context, start int64, limit time.Duration) error {
	for w.loopC.queued > 0 && ctx.Err() == nil && (limit <= 0 || w.end < limit) {
		if _, err := w.inC(start, 0); err != nil {
			return err
		}
	}
	return nil
}

// loopKind is the op a loop's op is.
func loopKind(o *store.LoopOp) workload.Op {
	if o.Upsert {
		return workload.OpUpsert
	}
	return workload.OpRead
}
