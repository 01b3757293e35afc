package runner

import (
	"context"
	"fmt"
	"slices"

	"github.com/gobench/gobench/pkg/deal"
	"github.com/gobench/gobench/pkg/generator"
	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/workload"
	"golang.org/x/sync/errgroup"
)

// Host runs some of a plan's workers in this process, each on its own
// connection to one shared Store. A worker process runs one Host; in-process
// runs (Run, and the coordinator's goroutine mode) run one Host with every
// worker.
type Host struct {
	Plan  *workload.Plan
	Store store.Store
	// Workers are the worker ids this host runs.
	Workers   []int
	Collector workload.Collector
	// Barrier is called once per phase, when every worker of the host
	// holds its connection, has its lottery and sink and is ready to
	// deal; it returns when the phase may start (the START barrier), with
	// the instant of START as a Now reading. Sample offsets count from
	// that instant, so a coordinator that stamps START once puts every
	// process on one time line, and a worker that gets the CPU late shows
	// it in its first op's offset. Nil starts at once, at Now().
	Barrier func(ctx context.Context, phase int) (start int64, err error)
	// Counter, for a record workload, is the run's insert counter, shared
	// by every worker of the run (see Counter); nil gives the host one of
	// its own, which is right only when it runs every worker, or when no
	// phase inserts.
	Counter *generator.Counter
	// PhaseCPU, if set, is called when every worker of the host finished
	// a phase, with the processor time this process spent from START to
	// then (ProcessCPU; not called where the system cannot say). An error
	// stops the run.
	PhaseCPU func(phase int, cpu workload.CPU) error
	// Clock, if set, replaces the monotonic clock for the workers'
	// timestamps and waits (a test's virtual clock); nil is the real one.
	Clock Clock
	// PhaseIO, if set, is called when every worker of the host finished
	// a phase, with the file I/O the store's engine counted in this
	// process from START to then (store.IOTracer; not called for a store
	// whose I/O is not traced). An error stops the run.
	PhaseIO func(phase int, io store.IOCounts) error
	// IO, if set, reads the run's I/O counts in place of the store's
	// (the file system recorder's, which counts what every process of
	// the run did: only a host that runs every worker may take it).
	IO func() (store.IOCounts, bool)

	// Source, if set, deals and paces the workers' ops in place of the
	// source the plan's data names, for a source whose dealing lives in a
	// package of its own (a replayed trace's: the host source its
	// workload.Around gives, Host); see deal.Shared.Use.
	Source workload.Source

	// acks is the record the workers append their acknowledgements to
	// themselves (workload.Plan.AckRecord), nil when the engine does.
	acks *ackRecorder
}

// ackRecorder returns what records the acknowledgements of a worker on
// conn: the host's record, or the engine's (store.AckRecorder), or nil.
func (h *Host) ackRecorder(conn store.Conn) store.AckRecorder {
	if h.acks != nil {
		return h.acks
	}
	rec, _ := conn.(store.AckRecorder)
	return rec
}

// Run runs every phase of the plan on the host's workers. Cancelling ctx
// stops the workers after their current op; their samples so far are
// delivered and Done is called, and Run returns ctx's error.
func (h *Host) Run(ctx context.Context) (err error) {
	conns := make([]store.Conn, len(h.Workers))
	prepared := make([]*scripts, len(h.Workers))
	if h.acks, err = recordAcks(h.Plan); err != nil {
		return fmt.Errorf("opening the crash record: %w", err)
	}
	defer func() {
		if cerr := h.acks.Close(); cerr != nil && err == nil {
			err = fmt.Errorf("the crash record: %w", cerr)
		}
		h.acks = nil
	}()
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
		if h.Plan.SQL != nil {
			if prepared[i], err = prepareScripts(h.Plan, c); err != nil {
				return fmt.Errorf("worker %d: %w", h.Workers[i], err)
			}
		}
	}
	if h.Counter == nil && len(h.Workers) < h.Plan.Workers() && h.Plan.InsertsDuringRun() {
		return fmt.Errorf("%w: the record workload inserts, and this host runs %d of its %d workers: they need the run's shared counter", store.ErrInvalid, len(h.Workers), h.Plan.Workers())
	}
	sh := deal.NewShared(h.Plan, h.Counter)
	if h.Source != nil {
		sh.Use(h.Source)
	}
	phases := h.Plan.RunPhases()
	for phase := range phases {
		if err := h.runPhase(ctx, phase, &phases[phase], conns, prepared, sh); err != nil {
			return err
		}
	}
	return nil
}

// runPhase runs run phase number phase (see Plan.RunPhases), whose spec is
// spec.
func (h *Host) runPhase(ctx context.Context, phase int, spec *workload.Phase, conns []store.Conn, prepared []*scripts, sh *deal.Shared) error {
	var start int64 // the clock's reading at START
	begin := make(chan struct{})
	g, gctx := errgroup.WithContext(ctx)
	for i, id := range h.Workers {
		w, err := h.newWorker(id, phase, spec, conns[i], sh, prepared[i])
		if err != nil {
			return err
		}
		if h.Plan.ConnPerOp {
			w.open = func() (store.Conn, *scripts, error) { return h.openConn(gctx) }
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
	if start = nanotime(); h.Clock != nil {
		start = h.Clock.Now()
	}
	if h.Barrier != nil {
		var err error
		if start, err = h.Barrier(ctx, phase); err != nil {
			// Release the waiting workers without running them.
			g.Go(func() error { return err })
			_ = g.Wait()
			return err
		}
	}
	cpu0, measured := ProcessCPU()
	io0, traced := h.io()
	close(begin)
	if err := g.Wait(); err != nil {
		return err
	}
	if io1, ok := h.io(); ok && traced && h.PhaseIO != nil {
		if err := h.PhaseIO(phase, io1.Sub(io0)); err != nil {
			return err
		}
	}
	if cpu1, ok := ProcessCPU(); ok && measured && h.PhaseCPU != nil {
		if err := h.PhaseCPU(phase, cpu1.Sub(cpu0)); err != nil {
			return err
		}
	}
	return ctx.Err()
}

// openConn opens a connection for one op (workload.Plan.ConnPerOp), with
// the plan's scripts prepared on it.
func (h *Host) openConn(ctx context.Context) (store.Conn, *scripts, error) {
	c, err := h.Store.Conn(ctx)
	if err != nil {
		return nil, nil, fmt.Errorf("opening the op's connection: %w", err)
	}
	if h.Plan.SQL == nil {
		return c, nil, nil
	}
	sc, err := prepareScripts(h.Plan, c)
	if err != nil {
		_ = c.Close()
		return nil, nil, err
	}
	return c, sc, nil
}

// io reads the store's I/O counts, where its engine traces them and
// the file system recorder does not count them instead.
func (h *Host) io() (store.IOCounts, bool) {
	if h.IO != nil {
		return h.IO()
	}
	if t, ok := h.Store.(store.IOTracer); ok && h.Plan.IOTrace != workload.IOTraceFS {
		return t.IO()
	}
	return store.IOCounts{}, false
}

// checkCapabilities refuses, before any phase starts, a plan whose ops or
// batching the connection cannot do.
func checkCapabilities(p *workload.Plan, c store.Conn) error {
	if p.Records != nil {
		if err := checkRecordConn(p, c); err != nil {
			return err
		}
	}
	for _, ph := range p.RunPhases() {
		for _, op := range p.Kinds(&ph) {
			if p.Records == nil && !supports(c, op) && !ph.Optional {
				return fmt.Errorf("%w: driver %s cannot do %v operations%s", store.ErrInvalid, p.Driver, op, whyNot(c, op))
			}
		}
		if _, ok := c.(store.Batcher); ph.Batch > 1 && !ok {
			return fmt.Errorf("%w: driver %s cannot batch operations into transactions", store.ErrInvalid, p.Driver)
		}
	}
	return nil
}

// whyNot says why c cannot do op, where the reason is its key order.
func whyNot(c store.Conn, op workload.Op) string {
	if _, ordered := c.(store.Scanner); !ordered && (op == workload.OpScan || op == workload.OpLatest) {
		return ": it keeps keys in no order (scan and latest need a driver that keeps keys in order)"
	}
	return ""
}

func supports(c store.Conn, op workload.Op) bool {
	switch op {
	case workload.OpRead, workload.OpUpsert, workload.OpInsert, workload.OpAppend:
		return true
	case workload.OpScan:
		_, ok := c.(store.Scanner)
		return ok
	case workload.OpLatest:
		_, ok := c.(store.Latester)
		return ok
	case workload.OpUpdate:
		_, ok := c.(store.Updater)
		return ok
	case workload.OpDelete:
		_, ok := c.(store.Deleter)
		return ok
	}
	if op.IsStatement() {
		_, ok := c.(store.Executor) // a replayed trace's (a sql workload's statements come with its scripts)
		return ok
	}
	if op.IsScript() {
		_, ok := c.(store.Scripter)
		return ok
	}
	return false
}

// checkRecordConn refuses a connection that cannot run a record
// workload's ops: without records, or without scans of them.
func checkRecordConn(p *workload.Plan, c store.Conn) error {
	if _, ok := c.(store.Recorder); !ok {
		return fmt.Errorf("%w: driver %s keeps no record tables", store.ErrInvalid, p.Driver)
	}
	for _, ph := range p.RunPhases() {
		if _, ok := c.(store.RecordScanner); !ok && slices.Contains(ph.Mix.Ops(), workload.OpScan) {
			return fmt.Errorf("%w: driver %s keeps records in no key order: it cannot scan them", store.ErrInvalid, p.Driver)
		}
	}
	return nil
}
