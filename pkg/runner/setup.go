package runner

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/gobench/gobench/pkg/deal"
	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/workload"
)

// Setup says how OpenStore sets a store up. The zero value runs the
// store's own Init and preloads without progress notes.
type Setup struct {
	// Init, if not nil, initialises the store in place of its own Init: a
	// caller that guards initialisation (with a lock on the database)
	// wraps Init here. Its errors are returned as they are.
	Init func(ctx context.Context, st store.Store) error
	// Progress, if not nil, follows the preload (see Preload).
	Progress func(done uint64)
	// Notes, if not nil, is told what the setup did that a user would
	// want to know, such as how long a sql workload's schema took.
	Notes func(format string, args ...any)
	// Check, if not nil, checks the store once initialised, before the
	// schema and the preload: a replay's statements, each prepared once
	// (replay.CheckSQL). Its errors are returned as they are.
	Check func(ctx context.Context, st store.Store) error
	// Preloading, if not nil, is called once the store is set up (its
	// schema too), before the preload; Preloaded once the preload's
	// last commit returned. Their errors are returned as they are.
	Preloading, Preloaded func(ctx context.Context, st store.Store) error
}

// OpenStore opens plan's store with drv, initialises it and preloads
// plan.Preload rows: the store a Host runs on, set up the same way by the
// library's Run and by gobench's coordinator. plan.Driver must name drv:
// results carry the plan's name. On an error the store is closed.
func OpenStore(ctx context.Context, plan *workload.Plan, drv store.Driver, setup Setup) (_ store.Store, err error) {
	if err := plan.Validate(); err != nil {
		return nil, fmt.Errorf("%w: %w", store.ErrInvalid, err)
	}
	if plan.Driver != drv.Name() {
		return nil, fmt.Errorf("%w: the plan names driver %q, but the driver given is %q", store.ErrInvalid, plan.Driver, drv.Name())
	}
	if err := workload.CheckDriver(plan, drv); err != nil {
		return nil, err
	}
	st, err := drv.Open(ctx, plan.Store)
	if err != nil {
		return nil, fmt.Errorf("opening the store: %w", err)
	}
	defer func() {
		if err != nil {
			st.Close()
		}
	}()
	if setup.Init != nil {
		err = setup.Init(ctx, st)
	} else if err = st.Init(ctx); err != nil {
		err = fmt.Errorf("setting up the store: %w", err)
	}
	if err != nil {
		return nil, err
	}
	if setup.Check != nil {
		if err := setup.Check(ctx, st); err != nil {
			return nil, err
		}
	}
	if plan.SQL != nil {
		took, err := setUpSQL(ctx, st, plan)
		if err != nil {
			return nil, err
		}
		if setup.Notes != nil && plan.SQL.Schema != nil {
			setup.Notes("schema %s ran in %v, before the workers started", plan.SQL.Schema.File, took.Round(time.Millisecond))
		}
	}
	if err := checkStoreConn(ctx, plan, st); err != nil {
		return nil, err
	}
	if setup.Preloading != nil {
		if err := setup.Preloading(ctx, st); err != nil {
			return nil, err
		}
	}
	if err := Preload(ctx, st, plan, setup.Progress); err != nil {
		return nil, err
	}
	if setup.Preloaded != nil {
		if err := setup.Preloaded(ctx, st); err != nil {
			return nil, err
		}
	}
	return st, nil
}

// Preload writes the rows plan preloads (deal.Preloader): keys 0 to
// plan.Preload-1 with seeded values, or a record workload's records, in
// transactions of up to 1,000 rows where the connection can batch. It runs
// before any measurement; under the retry busy policy a busy BEGIN or
// COMMIT is retried within the plan's budget, as the workers retry. progress, if not nil, is called with 0 as it
// starts and after each chunk with the rows written so far. Cancelling
// ctx stops it, within the statement under way where the connection can
// be interrupted (store.Interrupter), else between chunks, with an error
// that says how far it got.
func Preload(ctx context.Context, st store.Store, plan *workload.Plan, progress func(done uint64)) (err error) {
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
	pl := deal.NewPreloader(plan)
	rows, keys, first := "rows", "keys", uint64(0)
	var rec store.Recorder
	if pl.Records() {
		rows, keys, first = "records", "keynums", plan.Records.InsertStart
		var ok bool
		if rec, ok = c.(store.Recorder); !ok {
			return fmt.Errorf("%w: driver %s keeps no record tables", store.ErrInvalid, plan.Driver)
		}
	}
	defer interruptible(ctx, c)()
	retry := newSetupRetry(plan)
	retry.install(c)
	if progress != nil {
		progress(0)
	}
	tx, _ := c.(store.Batcher)
	const chunk = 1000
	n := pl.Len()
	for lo := uint64(0); lo < n; lo += chunk {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("preload stopped after %d of %d %s: %w", lo, n, rows, err)
		}
		retry.start()
		if err := preloadChunk(c, rec, tx, pl, min(lo+chunk, n)-lo); err != nil {
			if ctx.Err() != nil {
				return fmt.Errorf("preload stopped after %d of %d %s: %w", lo, n, rows, errors.Join(ctx.Err(), err))
			}
			return fmt.Errorf("preload of %s %d and up: %w", keys, first+lo, err)
		}
		if progress != nil {
			progress(min(lo+chunk, n))
		}
	}
	return nil
}

// interruptible makes the cancellation of ctx stop c's statement under
// way where the connection can be interrupted (store.Interrupter). The
// function it returns ends that; it must run before c closes.
func interruptible(ctx context.Context, c store.Conn) (stop func()) {
	if i, ok := c.(store.Interrupter); ok {
		return i.Interruptible(ctx)
	}
	return func() {}
}

// setupRetry is the retry busy policy for what runs before any worker
// starts (a schema, a preload): a step that finds the database busy or
// locked is tried again, with the workers' backoff, for up to the plan's
// budget, counted from start. Nothing is measured yet, so nothing is
// counted. A nil *setupRetry (the timeout policy: SQLite's own handler
// waits) retries nothing.
type setupRetry struct {
	budget  time.Duration
	t0      time.Time
	backoff time.Duration
}

// newSetupRetry returns the plan's setup retry policy, nil unless it
// retries busy ops itself.
func newSetupRetry(plan *workload.Plan) *setupRetry {
	if plan.Busy != workload.BusyRetry || plan.BusyBudget <= 0 {
		return nil
	}
	r := &setupRetry{budget: time.Duration(plan.BusyBudget)}
	r.start()
	return r
}

// install makes c retry its busy steps through r (store.BusyRetrier).
func (r *setupRetry) install(c store.Conn) {
	if br, ok := c.(store.BusyRetrier); ok && r != nil {
		br.SetBusyRetry(r.wait)
	}
}

// start begins the budget of the next step.
func (r *setupRetry) start() {
	if r != nil {
		r.t0, r.backoff = time.Now(), firstBackoff
	}
}

// wait sleeps the next backoff and reports true, or false once the
// budget is spent.
func (r *setupRetry) wait() bool {
	spent := time.Since(r.t0)
	if spent >= r.budget {
		return false
	}
	time.Sleep(min(r.backoff, r.budget-spent))
	r.backoff = min(2*r.backoff, maxBackoff)
	return true
}

// do runs f from a fresh budget, again while it fails busy or locked and
// the budget and ctx allow.
func (r *setupRetry) do(ctx context.Context, f func() error) error {
	r.start()
	for {
		err := f()
		if c := store.Classify(err); r == nil || (c != store.Busy && c != store.Locked) || ctx.Err() != nil || !r.wait() {
			return err
		}
	}
}

// preloadChunk writes the next n rows pl deals, in one transaction where
// the connection can batch (tx), as records on rec when it is set.
func preloadChunk(c store.Conn, rec store.Recorder, tx store.Batcher, pl *deal.Preloader, n uint64) error {
	if tx != nil {
		if err := tx.Begin(); err != nil {
			return err
		}
	}
	var d deal.Deal
	for range n {
		err := pl.Deal(&d)
		if err == nil {
			if rec != nil {
				err = rec.InsertRecord(d.Record, d.Values)
			} else {
				err = c.Put(d.Key, d.Value)
			}
		}
		if err != nil {
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

// checkStoreConn refuses, once, before any worker starts, a plan whose
// ops or batching the store's connections cannot do (checkCapabilities),
// so that the refusal is one line, not one per worker.
func checkStoreConn(ctx context.Context, plan *workload.Plan, st store.Store) error {
	if plan.SQL != nil || plan.Replay != nil {
		return nil // checked with their statements (CheckSQL, a source's own check)
	}
	c, err := st.Conn(ctx)
	if err != nil {
		return fmt.Errorf("opening a connection: %w", err)
	}
	return errors.Join(checkCapabilities(plan, c), c.Close())
}
