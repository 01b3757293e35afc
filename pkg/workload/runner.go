package workload

import (
	"context"
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

// SampleFlags mark open-loop samples and the lock contention an op met.
type SampleFlags uint8

// Sample flags.
const (
	// FlagLate marks an op that began more than the plan's latency limit
	// behind its due time.
	FlagLate SampleFlags = 1 << iota
	// FlagSkipped marks a late op that was skipped, not run (Plan.SkipLate):
	// its sample only counts it.
	FlagSkipped
	// FlagBusyBegin and FlagBusyCommit mark an op whose BEGIN or COMMIT
	// found the database busy or locked at least once, as the engine
	// counted it (store.BusyStepCounter).
	FlagBusyBegin
	FlagBusyCommit

	// KnownFlags holds every flag defined.
	KnownFlags = FlagLate | FlagSkipped | FlagBusyBegin | FlagBusyCommit
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
		w := h.newWorker(id, phase, spec, conns[i], keys)
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

// Preload writes keys 0 to plan.Preload-1 with seeded values, in
// transactions of up to 1,000 rows where the connection can batch. It runs
// before any measurement. progress, if not nil, is called after each
// chunk with the rows written so far. Cancelling ctx stops it between
// chunks, with an error that says how far it got.
func Preload(ctx context.Context, st store.Store, plan *Plan, progress func(done uint64)) (err error) {
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
			return fmt.Errorf("preload stopped after %d of %d rows: %w", lo, plan.Preload, err)
		}
		if err := preloadChunk(c, tx, r, plan, value, lo, min(lo+chunk, plan.Preload)); err != nil {
			return fmt.Errorf("preload of keys %d and up: %w", lo, err)
		}
		if progress != nil {
			progress(min(lo+chunk, plan.Preload))
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
	if err := Preload(ctx, st, plan, nil); err != nil {
		return err
	}
	h := &Host{Plan: plan, Store: st, Workers: plan.WorkerIDs(), Collector: c}
	return h.Run(ctx)
}
