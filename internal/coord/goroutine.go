package coord

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gobench/gobench/pkg/result"
	"github.com/gobench/gobench/pkg/runner"
	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/workload"
)

// goroutineMode runs every worker in this process on the coordinator's
// store.
type goroutineMode struct {
	plan    *workload.Plan
	store   store.Store
	cfg     Config
	onStart func(phase int, at int64) // hears each phase's START
	// io tallies this process's I/O: the phases' counts go to it.
	io    *ioTally
	crash *crashRun   // a --crash run's recording, nil otherwise
	fs    *fsRecorder // the recording file system, nil when none counts the I/O
}

// setPIDs records this process as every worker's, in every phase.
func (g *goroutineMode) setPIDs(b *result.Builder, ids []int) {
	for phase := range g.plan.RunPhases() {
		for _, id := range ids {
			b.SetPID(id, phase, os.Getpid())
		}
	}
}

// sourceProgress is the progress of what the workers of src wait on each
// other for (workload.Progressor), for the stall watchdog; nil when they
// never wait so.
func sourceProgress(src workload.Source) func() int64 {
	pr, ok := src.(workload.Progressor)
	if !ok {
		return nil
	}
	if _, waits := pr.Progress(); !waits {
		return nil
	}
	return func() int64 { n, _ := pr.Progress(); return n }
}

func (g *goroutineMode) run(ctx context.Context, b *result.Builder) error {
	ids := g.plan.WorkerIDs()
	g.setPIDs(b, ids)
	wc := newWatchedCollector(b, g.plan.Workers())
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	p := *g.plan
	p.AckRecord = g.crash.ackRecord() // the workers' acknowledgements, under the recording file system
	limit := stallLimit(g.cfg)
	p.StallTimeout = workload.Duration(limit) // a source whose workers wait on each other gives up below it
	src, release, err := hostSource(&p, len(ids))
	if err != nil {
		return err
	}
	defer release()
	progress := sourceProgress(src)
	h := &runner.Host{Plan: &p, Store: g.store, Workers: ids, Collector: wc, Source: src,
		Barrier: func(_ context.Context, phase int) (int64, error) {
			betweenPhases(b, g.plan, phase)
			if err := g.crash.start(phase); err != nil {
				return 0, err
			}
			b.SetStart(phase, time.Now())
			at := runner.Now()
			wc.start(ids, at)
			g.onStart(phase, at)
			return at, nil
		},
		PhaseCPU: func(phase int, cpu workload.CPU) error {
			b.AddCPU(phase, result.CPUProcess, cpu)
			return nil
		},
		PhaseIO: func(phase int, io store.IOCounts) error {
			g.io.phase(io)
			b.AddIO(phase, io)
			return nil
		}}
	if g.fs != nil {
		h.IO = g.fs.read
	}
	done := make(chan error, 1)
	go func() { done <- h.Run(ctx) }()
	tick := time.NewTicker(watchInterval(limit))
	defer tick.Stop()
	var seen progressSeen
	for {
		select {
		case err := <-done:
			return err
		case <-g.cfg.Abort:
			cancel()
			select {
			case err := <-done:
				return err
			case <-time.After(stopGrace(g.cfg)):
				wc.close() // an op that never returns is left behind
				return context.Canceled
			}
		case <-tick.C:
			now := runner.Now()
			id, ok := wc.stalled(now, limit, seen.moved(progress, now))
			if !ok {
				continue
			}
			err := fmt.Errorf("%w: worker %d (a goroutine of this process) completed nothing for longer than the stall time-out (%v) while running a phase", ErrWorker, id, limit)
			cancel() // the others stop after their current op
			select {
			case <-done:
			case <-time.After(stopGrace(g.cfg)):
				// The stalled op never returned; it is left behind, and
				// the process ends with the run. The sinks are closed
				// before the result is built from what they recorded.
				wc.close()
			}
			return err
		}
	}
}

// watchedCollector passes samples on to the builder and keeps, per worker,
// the monotonic clock of its last completion while it runs a phase: the
// stall watchdog of goroutine workers, which cannot be killed.
type watchedCollector struct {
	b       *result.Builder
	last    []atomic.Int64 // by worker id
	begun   []atomic.Int64 // the phase's START instant, by worker id
	running []atomic.Bool
	gates   []sinkGate
}

func newWatchedCollector(b *result.Builder, workers int) *watchedCollector {
	return &watchedCollector{b: b, last: make([]atomic.Int64, workers), begun: make([]atomic.Int64, workers), running: make([]atomic.Bool, workers), gates: make([]sinkGate, workers)}
}

// start marks the workers as running a phase begun at START instant at.
func (c *watchedCollector) start(ids []int, at int64) {
	for _, id := range ids {
		c.last[id].Store(at)
		c.begun[id].Store(at)
		c.running[id].Store(true)
	}
}

// stalled returns a worker that has, at monotonic clock now, run a phase
// without completing an op for longer than limit, nor seen a replay's
// order of commits progress since the clock moved (0: no order, or none
// seen).
func (c *watchedCollector) stalled(now int64, limit time.Duration, moved int64) (int, bool) {
	for id := range c.last {
		if c.running[id].Load() && time.Duration(now-max(c.last[id].Load(), moved)) > limit {
			return id, true
		}
	}
	return 0, false
}

// close ends the recording of every worker, once the coordinator stops
// waiting for them (a stalled op, an abort past the grace): a worker still
// recording finishes the sample under way first, and whatever a worker
// records after is dropped (its sink fails, which stops it). What was
// recorded before happens before the result built from it.
func (c *watchedCollector) close() {
	for i := range c.gates {
		g := &c.gates[i]
		g.mu.Lock()
		g.closed = true
		g.mu.Unlock()
	}
}

// Sink wraps the builder's recorder of worker in phase.
func (c *watchedCollector) Sink(worker, phase int) workload.Sink {
	return &watchedSink{Sink: c.b.Sink(worker, phase), last: &c.last[worker], begun: &c.begun[worker], running: &c.running[worker], gate: &c.gates[worker]}
}

// errRecordingClosed fails a sample recorded after the coordinator stopped
// waiting for its worker.
var errRecordingClosed = errors.New("the run ended without this worker: its recording is closed")

// sinkGate guards one worker's recording against the coordinator's close.
type sinkGate struct {
	mu     sync.Mutex
	closed bool
}

type watchedSink struct {
	workload.Sink
	last    *atomic.Int64
	begun   *atomic.Int64
	running *atomic.Bool
	gate    *sinkGate
}

// Record records the sample, then stamps the completion: the watchdog
// reads the stamp. The stamp is the sample's own end (its phase's START
// instant on the monotonic clock, plus its start and latency), not a
// clock read of the sink's: one clock read an op less.
func (s *watchedSink) Record(smp workload.Sample) error {
	s.gate.mu.Lock()
	defer s.gate.mu.Unlock()
	if s.gate.closed {
		return errRecordingClosed
	}
	err := s.Sink.Record(smp)
	s.last.Store(s.begun.Load() + int64(smp.Start+smp.Latency))
	return err
}

// Done ends the worker's phase, then marks it no longer running.
func (s *watchedSink) Done(st workload.WorkerStats) error {
	s.gate.mu.Lock()
	defer s.gate.mu.Unlock()
	if s.gate.closed {
		return errRecordingClosed
	}
	err := s.Sink.Done(st)
	s.running.Store(false)
	return err
}
