package coord

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"

	"github.com/gobench/gobench/internal/wire"
	"github.com/gobench/gobench/pkg/runner"
	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/sysinfo"
	"github.com/gobench/gobench/pkg/workload"
)

// ServeWorker is the body of a worker process. It reads the plan from in
// (the coordinator's pipe to its stdin), opens the store, runs its share
// of the workers, and streams Ready, Samples and Done frames to out (fd 3).
// It waits for a Start frame before each phase. A Stop frame, or the end of
// in (the coordinator is gone), stops the workers after their current op.
// Any failure is also sent as an Error frame before ServeWorker returns it.
func ServeWorker(ctx context.Context, in io.Reader, out io.Writer, reg *store.Registry, pid int) (err error) {
	w := wire.NewWriter(out)
	defer func() {
		if err != nil && !errors.Is(err, context.Canceled) {
			_ = w.Error(err.Error())
		}
	}()
	r := wire.NewReader(in, "coordinator")
	plan, proc, drv, err := readPlan(r, reg)
	if err != nil {
		return err
	}
	counter, src, unmap, err := openShared(plan, len(procWorkers(proc, plan.Goroutines)))
	if err != nil {
		return err
	}
	defer unmap()
	defer oneProcessor(plan.Goroutines)()

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	starts := make(chan wire.Start, len(plan.RunPhases()))
	go readControl(r, starts, cancel)

	st, err := drv.Open(ctx, plan.Store)
	if err != nil {
		return fmt.Errorf("opening the store: %w", err)
	}
	tally := newIOTally(storeIO(st, plan))
	h := &runner.Host{
		Plan:      plan,
		Store:     st,
		Workers:   procWorkers(proc, plan.Goroutines),
		Collector: wireCollector{w: w, batch: sampleBatch(plan.Goroutines)},
		Counter:   counter,
		Source:    src,
		Barrier: func(ctx context.Context, phase int) (int64, error) {
			if err := w.Ready(wire.Ready{Phase: phase, PID: pid, Clock: runner.Now()}); err != nil {
				return 0, fmt.Errorf("reporting ready: %w", err)
			}
			select {
			case s, ok := <-starts:
				if !ok {
					return 0, context.Canceled
				}
				if s.Phase != phase {
					return 0, fmt.Errorf("coordinator started phase %d while phase %d was due", s.Phase, phase)
				}
				return s.At, nil
			case <-ctx.Done():
				return 0, ctx.Err()
			}
		},
		PhaseCPU: func(phase int, cpu workload.CPU) error {
			if err := w.CPU(wire.CPU{Phase: phase, CPU: cpu}); err != nil {
				return fmt.Errorf("reporting CPU time: %w", err)
			}
			return nil
		},
		PhaseIO: func(phase int, counts store.IOCounts) error {
			tally.phase(counts)
			if err := w.IO(wire.IO{Phase: phase, IO: counts}); err != nil {
				return fmt.Errorf("reporting I/O: %w", err)
			}
			return nil
		},
	}
	err = h.Run(ctx)
	if cerr := st.Close(); cerr != nil && err == nil {
		err = fmt.Errorf("closing the store: %w", cerr)
	}
	if err == nil {
		err = reportEnd(w, tally)
	}
	return err
}

// reportEnd sends what a worker process reports once its store is
// closed: the I/O outside every phase, where counted, and its own peak
// memory (the coordinator's rusage of its children is the largest child
// of its lifetime, not this run's), where the OS tells it.
func reportEnd(w *wire.Writer, tally *ioTally) error {
	if outside, ok := tally.outside(); ok {
		if err := w.IO(wire.IO{Phase: -1, IO: outside}); err != nil {
			return fmt.Errorf("reporting I/O: %w", err)
		}
	}
	if peak, err := sysinfo.PeakRSS(); err == nil {
		if err := w.RSS(peak); err != nil {
			return fmt.Errorf("reporting peak memory: %w", err)
		}
	}
	return nil
}

// oneProcessor runs a worker process whose ops run on one goroutine with
// one Go processor (GOMAXPROCS=1) unless GOMAXPROCS is set, and returns
// what puts the runtime's default back. Its ops run one after another, so
// a second processor ran none of them; what it cost, with 25 worker
// processes on 2 cores, was the runtime's own waking: a thread spinning
// for work on the idle processor whenever a goroutine woke, and sysmon
// polling every 20 µs to 10 ms while the worker's goroutine was in a call
// into C (with a processor idle it waits 10 ms before taking back the one
// in the call, then polls again). Each wake-up takes a core from another
// worker in the middle of its op. perf stat over the whole capi run (25
// processes × 20,000 ops, WAL, 5 interleaved rounds at load 19 to 38,
// medians per op): nanosleep 0.015 → 0.007, context switches 0.045 →
// 0.028, CPU 9.0 → 7.7 µs.
func oneProcessor(goroutines int) (restore func()) {
	if goroutines != 1 || os.Getenv("GOMAXPROCS") != "" {
		return func() {}
	}
	runtime.GOMAXPROCS(1)
	return runtime.SetDefaultGOMAXPROCS
}

// procWorkers returns the ids of worker process proc's goroutines.
func procWorkers(proc, goroutines int) []int {
	ids := make([]int, goroutines)
	for g := range ids {
		ids[g] = proc*goroutines + g
	}
	return ids
}

// ioTally keeps what a process's store counted of its I/O (or the file
// system recorder counted of every process's): from the store's opening,
// and over each phase, so that what was done outside the phases
// (opening the connections, closing them) is known too.
type ioTally struct {
	read   func() (store.IOCounts, bool)
	start  store.IOCounts
	phases store.IOCounts
	ok     bool
}

// newIOTally starts counting with read; nil counts nothing.
func newIOTally(read func() (store.IOCounts, bool)) *ioTally {
	tl := &ioTally{read: read}
	if read != nil {
		tl.start, tl.ok = read()
	}
	return tl
}

// storeIO returns what reads st's I/O counts in this process, if its
// engine traces them and the plan does not have the file system
// recorder count them instead; nil otherwise.
func storeIO(st store.Store, p *workload.Plan) func() (store.IOCounts, bool) {
	t, ok := st.(store.IOTracer)
	if !ok || p.IOTrace == workload.IOTraceFS {
		return nil
	}
	return t.IO
}

// phase adds a phase's counts.
func (tl *ioTally) phase(c store.IOCounts) { tl.phases.Add(c) }

// outside returns what was counted since the start outside the phases.
func (tl *ioTally) outside() (store.IOCounts, bool) {
	if !tl.ok {
		return store.IOCounts{}, false
	}
	now, ok := tl.read()
	return now.Sub(tl.start).Sub(tl.phases), ok
}

// readControl reads the coordinator's frames after the plan: Start frames
// go to starts; Stop, the end of the stream or a bad frame cancel the run.
func readControl(r *wire.Reader, starts chan<- wire.Start, cancel context.CancelFunc) {
	defer close(starts)
	defer cancel()
	for r.Scan() {
		switch f := r.Frame(); f.Type {
		case wire.TypeStart:
			starts <- f.Start()
		default: // Stop, or anything a coordinator does not send
			return
		}
	}
}

// wireCollector hands each worker a sink that streams its samples, in
// frames of up to batch samples.
type wireCollector struct {
	w     *wire.Writer
	batch int
}

func (c wireCollector) Sink(worker, phase int) workload.Sink {
	return wire.NewSampleSink(c.w, worker, phase, c.batch)
}

// sampleBatch is how many samples each of a process's goroutines sends in
// one frame: as many as a frame holds, so that a worker writes and the
// coordinator wakes up and reads as seldom as can be (a slow worker still
// sends what it has every wire.FlushInterval), shared among the process's
// goroutines so that their buffers together stay within one frame's size
// (128 KiB), and never fewer than 256. With 25 capi workers, frames of
// 4096 samples instead of 256 took the coordinator's CPU per op from
// 0.15-0.165 to 0.126-0.13 µs.
func sampleBatch(goroutines int) int {
	return max(wire.MaxBatch/max(goroutines, 1), 256)
}

// readPlan reads the worker's plan and its process index from the
// coordinator, finds the plan's driver, and pins the process to its CPU
// when the plan says so (before any store work, so every thread the run
// starts inherits the CPU).
func readPlan(r *wire.Reader, reg *store.Registry) (*workload.Plan, int, store.Driver, error) {
	if !r.Scan() {
		if r.Err() != nil {
			return nil, 0, nil, fmt.Errorf("reading the plan: %w", r.Err())
		}
		return nil, 0, nil, errors.New("reading the plan: the coordinator closed the pipe")
	}
	if r.Frame().Type != wire.TypePlan {
		return nil, 0, nil, fmt.Errorf("expected a plan frame from the coordinator, got %v", r.Frame().Type)
	}
	pf := r.Frame().Plan()
	plan, err := workload.DecodePlan(pf.JSON)
	if err != nil {
		return nil, 0, nil, err
	}
	if pf.Proc < 0 || pf.Proc >= plan.Procs {
		return nil, 0, nil, fmt.Errorf("process index %d is outside the plan's %d processes", pf.Proc, plan.Procs)
	}
	drv, err := reg.Lookup(plan.Driver)
	if err != nil {
		return nil, 0, nil, err
	}
	if cpu := plan.Pin.WorkerCPU(pf.Proc); cpu >= 0 {
		if err := sysinfo.PinProcess(cpu); err != nil {
			return nil, 0, nil, fmt.Errorf("worker process %d: %w", pf.Proc, err)
		}
	}
	return plan, pf.Proc, drv, nil
}
