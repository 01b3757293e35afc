package workload

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/gobench/gobench/pkg/store"
)

// Sample is the record of one operation: what ran, how it ended, when it
// started (as an offset from the phase's START) and how long it took, by
// the monotonic clock around the operation alone.
//
// In an open-loop run Start is the op's due time and Latency counts from
// it; Lag is how late the op actually began. Under the retry busy policy
// Wait is the time from the first attempt's start to the final attempt's,
// over Retries failed attempts. So Latency = Lag + Wait + the final
// attempt's service time. Under the timeout policy, on a connection that
// counts its engine's busy handler (store.LockWaitCounter), Retries is the
// handler's calls and Wait the time it waited, inside the op.
type Sample struct {
	Op      Op
	Class   store.Class
	Start   time.Duration
	Latency time.Duration
	Lag     time.Duration
	Wait    time.Duration
	Retries uint16
	Flags   SampleFlags
}

// SampleFlags mark open-loop samples.
type SampleFlags uint8

// Sample flags.
const (
	// FlagLate marks an op that began more than the plan's latency limit
	// behind its due time.
	FlagLate SampleFlags = 1 << iota
	// FlagSkipped marks a late op that was skipped, not run (Plan.SkipLate):
	// its sample only counts it.
	FlagSkipped
)

// MaxRetries caps the retries a sample counts.
const MaxRetries = 1<<16 - 1

// WorkerStats is what a worker reports when its phase ends: the number of
// samples it recorded, so a receiver can prove none went missing, and the
// offset at which its last op finished.
type WorkerStats struct {
	Worker  int
	Phase   int
	Samples int64
	End     time.Duration
}

// Sink receives one worker's samples for one phase. Its methods are called
// from that worker's goroutine only, never concurrently. Record runs
// between operations, outside the clocked window, but still on the
// worker's path: it should cost little and never block for long.
type Sink interface {
	// Record takes one sample. An error stops the worker.
	Record(s Sample) error
	// Done is called once, after the last Record of the phase.
	Done(st WorkerStats) error
}

// Collector hands out the Sink of each worker and phase. Sink is called
// before the phase's barrier, from any goroutine, for every worker of a
// host; implementations must be safe for that concurrent use.
type Collector interface {
	Sink(worker, phase int) Sink
}

// Host runs some of a plan's workers in this process, each on its own
// connection to one shared Store. A worker process runs one Host; in-process
// runs (Run, and the coordinator's goroutine mode) run one Host with every
// worker.
type Host struct {
	Plan  *Plan
	Store store.Store
	// Workers are the worker ids this host runs.
	Workers   []int
	Collector Collector
	// Barrier is called once per phase, when every worker of the host
	// holds its connection, has its lottery and sink and is ready to
	// deal; it returns when the phase may start (the START barrier), with
	// the instant of START as a Now reading. Sample offsets count from
	// that instant, so a coordinator that stamps START once puts every
	// process on one time line, and a worker that gets the CPU late shows
	// it in its first op's offset. Nil starts at once, at Now().
	Barrier func(ctx context.Context, phase int) (start int64, err error)
}

// Run runs every phase of the plan on the host's workers. Cancelling ctx
// stops the workers after their current op; their samples so far are
// delivered and Done is called, and Run returns ctx's error.
func (h *Host) Run(ctx context.Context) (err error) {
	conns := make([]store.Conn, len(h.Workers))
	defer func() {
		for _, c := range conns {
			if c != nil {
				if cerr := c.Close(); cerr != nil && err == nil {
					err = fmt.Errorf("closing connection: %w", cerr)
				}
			}
		}
	}()
	for i := range h.Workers {
		c, err := h.Store.Conn(ctx)
		if err != nil {
			return fmt.Errorf("worker %d: opening connection: %w", h.Workers[i], err)
		}
		conns[i] = c
		if err := checkCapabilities(h.Plan, c); err != nil {
			return err
		}
	}
	keys := newKeyChooser(h.Plan.Keys)
	phases := h.Plan.RunPhases()
	for phase := range phases {
		if err := h.runPhase(ctx, phase, &phases[phase], conns, keys); err != nil {
			return err
		}
	}
	return nil
}

// runPhase runs run phase number phase (see Plan.RunPhases), whose spec is
// spec.
func (h *Host) runPhase(ctx context.Context, phase int, spec *Phase, conns []store.Conn, keys keyChooser) error {
	var start int64 // nanotime of START
	begin := make(chan struct{})
	g, gctx := errgroup.WithContext(ctx)
	for i, id := range h.Workers {
		w := &worker{
			id:      id,
			phase:   phase,
			spec:    spec,
			onError: h.Plan.OnError,
			conn:    conns[i],
			lottery: lotteryOf(h.Plan, spec, h.Plan.seedPhase(phase), id, keys),
			sink:    h.Collector.Sink(id, phase),
			limit:   time.Duration(h.Plan.LatencyLimit),

			skipLate: h.Plan.SkipLate,
		}
		if h.Plan.Rate > 0 {
			w.sched = newSchedule(h.Plan, h.Plan.seedPhase(phase), id)
		}
		if h.Plan.Busy == BusyRetry {
			w.busyBudget = time.Duration(h.Plan.BusyBudget)
		} else if lw, ok := conns[i].(store.LockWaitCounter); ok {
			w.lockWaits = lw
			lw.TakeLockWaits() // what setup waited is not the phase's
		}
		g.Go(func() error {
			select {
			case <-begin:
			case <-gctx.Done():
				return nil
			}
			return w.run(gctx, start)
		})
	}
	start = nanotime()
	if h.Barrier != nil {
		var err error
		if start, err = h.Barrier(ctx, phase); err != nil {
			// Release the waiting workers without running them.
			g.Go(func() error { return err })
			_ = g.Wait()
			return err
		}
	}
	close(begin)
	if err := g.Wait(); err != nil {
		return err
	}
	return ctx.Err()
}

// checkCapabilities refuses, before any phase starts, a plan whose ops or
// batching the connection cannot do.
func checkCapabilities(p *Plan, c store.Conn) error {
	for _, ph := range p.RunPhases() {
		for _, op := range ph.Mix.Ops() {
			if !supports(c, op) && !ph.Optional {
				return fmt.Errorf("%w: driver %s cannot do %v operations", store.ErrInvalid, p.Driver, op)
			}
		}
		if _, ok := c.(store.Batcher); ph.Batch > 1 && !ok {
			return fmt.Errorf("%w: driver %s cannot batch operations into transactions", store.ErrInvalid, p.Driver)
		}
	}
	return nil
}

func supports(c store.Conn, op Op) bool {
	switch op {
	case OpRead, OpUpsert, OpInsert:
		return true
	case OpScan:
		_, ok := c.(store.Scanner)
		return ok
	case OpUpdate:
		_, ok := c.(store.Updater)
		return ok
	case OpDelete:
		_, ok := c.(store.Deleter)
		return ok
	}
	return false
}

// worker is one worker's state for one phase.
type worker struct {
	id, phase int
	spec      *Phase
	onError   string
	conn      store.Conn
	lottery   *Lottery
	sink      Sink
	buf       []byte
	samples   int64
	end       time.Duration

	// Open loop: the schedule of due times (nil in closed loop), the
	// latency limit and whether late ops are skipped.
	sched    *schedule
	limit    time.Duration
	skipLate bool
	timer    *time.Timer
	// Retry busy policy: the time an op may spend retrying (0: the
	// engine's handler waits instead).
	busyBudget time.Duration
	// lockWaits, under the timeout policy, counts the engine's own busy
	// handler where the connection can (nil otherwise).
	lockWaits store.LockWaitCounter
}

// ErrOp wraps an operation error that stopped a worker.
var ErrOp = errors.New("operation failed")

func (w *worker) run(ctx context.Context, start int64) error {
	err := w.loop(ctx, start)
	if derr := w.sink.Done(WorkerStats{Worker: w.id, Phase: w.phase, Samples: w.samples, End: w.end}); derr != nil && err == nil {
		err = fmt.Errorf("worker %d: %w", w.id, derr)
	}
	return err
}

func (w *worker) loop(ctx context.Context, start int64) error {
	done := ctx.Done()
	if w.sched != nil {
		defer lockForSleep()()
	}
	batch := w.spec.Batch
	var tx store.Batcher
	if batch > 1 {
		tx = w.conn.(store.Batcher)
	}
	inTx := 0
	limit := time.Duration(w.spec.Duration)
	count := w.spec.Ops
	for _, op := range w.spec.Mix.Ops() {
		if w.spec.Optional && !supports(w.conn, op) {
			return nil // an optional phase this engine cannot do: no ops
		}
	}
	if n := w.lottery.Len(); n > 0 {
		count = n
	} else if w.spec.Access == AccessEach {
		return nil // an empty share: nothing to do
	}
	for n := int64(0); count == 0 || n < count; n++ {
		select {
		case <-done:
			return w.finishTx(tx, inTx, start)
		default:
		}
		due := int64(-1) // closed loop: no due time
		if w.sched != nil {
			d := w.sched.next()
			if limit > 0 && d >= int64(limit) {
				break // the schedule ends with the phase
			}
			due = start + d
			if !w.waitUntil(done, due) {
				return nil
			}
			if w.skipLate {
				if lag := nanotime() - due; lag > int64(w.limit) {
					op, _ := w.lottery.Next() // dealt and dropped, so later ops stay as dealt
					if err := w.skipped(op, start, due, lag); err != nil {
						return err
					}
					continue
				}
			}
		}
		op, key := w.lottery.Next()
		if tx != nil && inTx == 0 {
			if _, err := w.timed(OpBegin, start, func() error { return tx.Begin() }); err != nil {
				return err
			}
		}
		class, err := w.timedAt(op, start, due, func() error { return w.exec(op, key) })
		if err != nil {
			if tx != nil {
				_ = tx.Rollback()
			}
			return err
		}
		if tx != nil && class.IsError() && class != store.Busy && class != store.Locked {
			// Under --on-error continue: a failed op may leave the
			// transaction unusable (LMDB's does), so the batch is rolled
			// back, its earlier ops with it, and the next op starts anew.
			_ = tx.Rollback()
			inTx = 0
		} else if tx != nil {
			if inTx++; inTx == batch {
				inTx = 0
				if _, err := w.timed(OpCommit, start, func() error { return tx.Commit() }); err != nil {
					_ = tx.Rollback()
					return err
				}
			}
		}
		if w.sched == nil && limit > 0 && w.end >= limit {
			break
		}
	}
	return w.finishTx(tx, inTx, start)
}

// Open-loop waiting: a long wait sleeps on a cancellable Go timer until
// coarseMargin before the due time (the Go timer wakes up to about a
// millisecond late), then sleepUntil sleeps precisely and spins the last
// spinWindow.
const (
	coarseMargin = 2 * time.Millisecond
	spinWindow   = 30 * time.Microsecond
)

// waitUntil sleeps until the instant due (a nanotime reading), and reports
// false when the run was cancelled first. The lag left over (the kernel's
// wake-up delay, tens of microseconds) is measured and reported with the
// op, not hidden.
func (w *worker) waitUntil(done <-chan struct{}, due int64) bool {
	if d := time.Duration(due-nanotime()) - coarseMargin; d > 0 {
		if w.timer == nil {
			w.timer = time.NewTimer(d)
		} else {
			w.timer.Reset(d)
		}
		select {
		case <-w.timer.C:
		case <-done:
			return false
		}
	}
	sleepUntil(due)
	return true
}

// skipped records a late op that was not run.
func (w *worker) skipped(op Op, start, due, lag int64) error {
	w.samples++
	if serr := w.sink.Record(Sample{Op: op, Start: time.Duration(due - start), Lag: time.Duration(lag), Flags: FlagLate | FlagSkipped}); serr != nil {
		return fmt.Errorf("worker %d: recording a sample: %w", w.id, serr)
	}
	return nil
}

// finishTx commits a partly filled batch.
func (w *worker) finishTx(tx store.Batcher, inTx int, start int64) error {
	if tx == nil || inTx == 0 {
		return nil
	}
	if _, err := w.timed(OpCommit, start, func() error { return tx.Commit() }); err != nil {
		_ = tx.Rollback()
		return err
	}
	return nil
}

// timed runs f in closed loop; see timedAt.
func (w *worker) timed(op Op, start int64, f func() error) (store.Class, error) {
	return w.timedAt(op, start, -1, f)
}

// Backoff of the retry busy policy: doubling from the first to the last.
const (
	firstBackoff = 100 * time.Microsecond
	maxBackoff   = 10 * time.Millisecond
)

// timedAt runs f, clocks it, records the sample and returns the outcome's
// class, and an error only when the worker must stop: the sink failed, or
// f failed with a class the error policy does not let the worker continue
// after. due is the op's due time in open loop (a nanotime reading), or
// negative. Under the retry busy policy a busy or locked f is run again
// after a backoff until it succeeds or the budget is spent.
func (w *worker) timedAt(op Op, start, due int64, f func() error) (store.Class, error) {
	t0 := nanotime()
	err := f()
	class := store.Classify(err)
	var retries int
	var wait int64
	if w.busyBudget > 0 && (class == store.Busy || class == store.Locked) {
		backoff := firstBackoff
		for retries < MaxRetries {
			spent := time.Duration(nanotime() - t0)
			if spent >= w.busyBudget {
				break
			}
			time.Sleep(min(backoff, w.busyBudget-spent))
			backoff = min(2*backoff, maxBackoff)
			ta := nanotime()
			err = f()
			class = store.Classify(err)
			retries++
			wait = ta - t0
			if class != store.Busy && class != store.Locked {
				break
			}
		}
	}
	t1 := nanotime()
	if w.lockWaits != nil {
		calls, wt := w.lockWaits.TakeLockWaits()
		retries, wait = min(calls, MaxRetries), int64(wt)
	}
	origin, lag := t0, int64(0)
	var flags SampleFlags
	if due >= 0 {
		origin = min(due, t0)
		lag = t0 - origin
		if w.limit > 0 && lag > int64(w.limit) {
			flags = FlagLate
		}
	}
	w.end = time.Duration(t1 - start)
	w.samples++
	smp := Sample{Op: op, Class: class, Start: time.Duration(origin - start), Latency: time.Duration(t1 - origin),
		Lag: time.Duration(lag), Wait: time.Duration(wait), Retries: uint16(retries), Flags: flags}
	if serr := w.sink.Record(smp); serr != nil {
		return class, fmt.Errorf("worker %d: recording a sample: %w", w.id, serr)
	}
	if err != nil && class != store.Busy && class != store.Locked && class != store.NotFound && w.onError != OnErrorContinue {
		return class, fmt.Errorf("worker %d: %v: %w: %w", w.id, op, ErrOp, err)
	}
	return class, nil
}

func (w *worker) exec(op Op, key uint64) error {
	var err error
	switch op {
	case OpRead:
		w.buf, err = w.conn.Get(key, w.buf)
	case OpUpsert:
		err = w.conn.Put(key, w.lottery.Value())
	case OpUpdate:
		err = w.conn.(store.Updater).Update(key, w.lottery.Value())
	case OpDelete:
		err = w.conn.(store.Deleter).Delete(key)
	case OpInsert:
		if ins, ok := w.conn.(store.Inserter); ok {
			err = ins.Insert(key, w.lottery.Value())
		} else {
			err = w.conn.Put(key, w.lottery.Value())
		}
	case OpScan:
		_, err = w.conn.(store.Scanner).Scan(key, w.lottery.ScanLen())
	default:
		err = fmt.Errorf("op %v cannot be executed", op)
	}
	return err
}

// Preload writes keys 0 to plan.Preload-1 with seeded values, in
// transactions of up to 1,000 rows where the connection can batch. It runs
// before any measurement.
func Preload(ctx context.Context, st store.Store, plan *Plan) (err error) {
	if plan.Preload == 0 {
		return nil
	}
	c, err := st.Conn(ctx)
	if err != nil {
		return fmt.Errorf("preload: opening connection: %w", err)
	}
	defer func() {
		if cerr := c.Close(); cerr != nil && err == nil {
			err = fmt.Errorf("preload: closing connection: %w", cerr)
		}
	}()
	tx, _ := c.(store.Batcher)
	const chunk = 1000
	r := newRand(plan.Seed, 0, 0, streamPreload)
	value := make([]byte, plan.ValueSize+plan.ValueVariance)
	for lo := uint64(0); lo < plan.Preload; lo += chunk {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := preloadChunk(c, tx, r, plan, value, lo, min(lo+chunk, plan.Preload)); err != nil {
			return fmt.Errorf("preload of keys %d and up: %w", lo, err)
		}
	}
	return nil
}

func preloadChunk(c store.Conn, tx store.Batcher, r *rand.Rand, plan *Plan, buf []byte, lo, hi uint64) error {
	if tx != nil {
		if err := tx.Begin(); err != nil {
			return err
		}
	}
	for k := lo; k < hi; k++ {
		value := buf[:plan.ValueSizeOf(k)]
		if plan.RandomValues {
			fillRandom(value, r)
		} else {
			fillValue(value, r)
		}
		if plan.Verify {
			copy(value, preloadTag)
		}
		if err := c.Put(k, value); err != nil {
			if tx != nil {
				_ = tx.Rollback()
			}
			return err
		}
	}
	if tx != nil {
		return tx.Commit()
	}
	return nil
}

// Run runs plan in this process against a store opened with drv: it opens
// the store, initialises and preloads it, runs every worker as a goroutine
// (ignoring plan.Mode) and closes the store. Samples go to c. This is the
// library entry point; the gobench command adds worker processes on top of
// the same Host.
func Run(ctx context.Context, plan *Plan, drv store.Driver, c Collector) (err error) {
	if err := plan.Validate(); err != nil {
		return fmt.Errorf("%w: %w", store.ErrInvalid, err)
	}
	st, err := drv.Open(ctx, plan.Store)
	if err != nil {
		return fmt.Errorf("opening store: %w", err)
	}
	defer func() {
		if cerr := st.Close(); cerr != nil && err == nil {
			err = fmt.Errorf("closing store: %w", cerr)
		}
	}()
	if err := st.Init(ctx); err != nil {
		return fmt.Errorf("initialising store: %w", err)
	}
	if err := Preload(ctx, st, plan); err != nil {
		return err
	}
	h := &Host{Plan: plan, Store: st, Workers: plan.WorkerIDs(), Collector: c}
	return h.Run(ctx)
}
