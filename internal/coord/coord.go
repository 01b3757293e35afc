// Package coord runs a plan: it sets the store up once, starts the
// workers (as worker processes re-executing gobench, or as goroutines),
// holds them at a START barrier until every one is ready, and merges what
// they report into a result.
//
// # Processes
//
// Each worker process gets the plan on stdin and streams its samples back
// on fd 3 (see package wire); its stdout and stderr are kept, the last
// lines of them quoted if it fails. One reader goroutine per process
// decodes its stream straight into that worker's result.Recorder, so the
// coordinator's memory follows the number of workers, not of ops. Worker
// processes die with the coordinator: they stop when their stdin closes,
// and on Linux the kernel kills them if the coordinator dies first.
package coord

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/gobench/gobench/internal/sysinfo"
	"github.com/gobench/gobench/internal/wire"
	"github.com/gobench/gobench/pkg/bytesize"
	"github.com/gobench/gobench/pkg/disk"
	"github.com/gobench/gobench/pkg/result"
	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/workload"
)

// Config is what Run needs besides the plan.
type Config struct {
	Plan     *workload.Plan
	Registry *store.Registry
	// Command returns the command that starts one worker process; it must
	// run ServeWorker with stdin and fd 3 as given. Nil runs this
	// executable with the "worker" argument.
	Command func() (*exec.Cmd, error)
	// ReadyTimeout bounds how long workers may take to open the store and
	// report ready for a phase. Zero means one minute.
	ReadyTimeout time.Duration
	// StopGrace is how long worker processes have to stop after an
	// interrupt before they are killed. Zero means ten seconds.
	StopGrace time.Duration
	// StallTimeout fails the run when a worker sends nothing for this
	// long while it runs a phase (a worker process streams at least every
	// 100 ms of completed ops, so silence means an op stuck that long, or
	// a hung process; a goroutine worker counts from its last completed
	// op). A stalled process is killed; a stalled goroutine, which cannot
	// be, is left to end with the process. Zero means one minute.
	StallTimeout time.Duration
	// Abort, when closed, kills the worker processes at once (a second
	// interrupt); Run still returns what they sent.
	Abort <-chan struct{}
	// Observe, if set, receives every second of the timeline as it is
	// finished (see result.Builder.Observe): for progress and interval
	// logs.
	Observe func(result.Interval)
	// Log receives notes on the run's progress (store set up, preload
	// progress, workers started). Nil discards them.
	Log io.Writer
	// ProgressEvery is how often a long preload reports how far it got on
	// Log. Zero means every ten seconds.
	ProgressEvery time.Duration
}

// ErrSetupInterrupted marks a run interrupted while it set up its store,
// before anything was measured. It also matches context.Canceled.
var ErrSetupInterrupted = errors.New("interrupted while setting up the store, before anything was measured")

// setupError is an interruption during setup, saying how far setup got.
type setupError struct{ detail error }

func (e setupError) Error() string   { return ErrSetupInterrupted.Error() + ": " + e.detail.Error() }
func (e setupError) Unwrap() []error { return []error{ErrSetupInterrupted, e.detail} }

// setupErr marks err, met while setting up, as an interruption of the
// setup when ctx was cancelled.
func setupErr(ctx context.Context, err error) error {
	if ctx.Err() == nil {
		return err
	}
	return setupError{err}
}

// preloadProgress returns the preload's progress callback: a note on log
// every `every` (ten seconds by default), with the share done and an ETA.
func preloadProgress(logf func(string, ...any), total uint64, every time.Duration) func(uint64) {
	if every <= 0 {
		every = 10 * time.Second
	}
	t0 := time.Now()
	last := t0
	return func(done uint64) {
		now := time.Now()
		if now.Sub(last) < every || done >= total {
			return
		}
		last = now
		frac := float64(done) / float64(total)
		eta := time.Duration(float64(now.Sub(t0)) * (1 - frac) / frac).Round(time.Second)
		logf("preloading: %d of %d rows (%.0f%%), ETA %v", done, total, 100*frac, eta)
	}
}

// checkRoom refuses a preload whose values alone cannot fit in the free
// space of the database's file system: no engine stores them in less.
func checkRoom(p *workload.Plan) error {
	if p.Preload == 0 || p.Store.Path == "" {
		return nil
	}
	dir := filepath.Dir(p.Store.Path)
	free, ok := sysinfo.FreeBytes(dir)
	if !ok {
		return nil
	}
	per := uint64(p.ValueSize - p.ValueVariance)
	if per > 0 && p.Preload > uint64(free)/per {
		need := int64(min(float64(p.Preload)*float64(per), 1<<62))
		return fmt.Errorf("%w: preloading %d rows of at least %d bytes needs at least %s, and the file system of %s has %s free (lower --keys or --value-size, or give a --db elsewhere)",
			store.ErrInvalid, p.Preload, per, bytesize.Units{}.Round(need), dir, bytesize.Units{}.Round(free))
	}
	return nil
}

// ErrWorker marks a failure of a worker process.
var ErrWorker = errors.New("worker failed")

// Run sets up the store, runs every phase of cfg.Plan and returns the
// result. When ctx is cancelled, workers stop after their current op and
// Run returns the partial result, marked incomplete, with ctx's error.
// When a worker fails, Run stops the others and returns the partial result
// with an error naming the worker and the cause.
func Run(ctx context.Context, cfg Config) (*result.Result, error) {
	p := cfg.Plan
	if err := p.Validate(); err != nil {
		return nil, fmt.Errorf("%w: %w", store.ErrInvalid, err)
	}
	drv, err := cfg.Registry.Lookup(p.Driver)
	if err != nil {
		return nil, err
	}
	if p.Mode == workload.ModeProcess && store.IsInProcess(drv) {
		// Each worker process would open its own, empty copy.
		return nil, fmt.Errorf("%w: driver %s keeps its data in one process's memory, which worker processes cannot share: run its workers as goroutines (mode %s)", store.ErrInvalid, p.Driver, workload.ModeGoroutine)
	}
	logf := func(format string, args ...any) {
		if cfg.Log != nil {
			fmt.Fprintf(cfg.Log, format+"\n", args...)
		}
	}
	if err := checkRoom(p); err != nil {
		return nil, err
	}
	st, err := drv.Open(ctx, p.Store)
	if err != nil {
		return nil, fmt.Errorf("opening the store: %w", err)
	}
	defer st.Close()
	lock, err := setUp(ctx, st, p.Store.Path)
	if err != nil {
		return nil, setupErr(ctx, err)
	}
	defer lock.Unlock()
	if p.Preload > 0 {
		t0 := time.Now()
		if err := workload.Preload(ctx, st, p, preloadProgress(logf, p.Preload, cfg.ProgressEvery)); err != nil {
			return nil, setupErr(ctx, err)
		}
		logf("preloaded %d rows in %v", p.Preload, time.Since(t0).Round(time.Millisecond))
	}
	var facts []store.Fact
	if d, ok := st.(store.Describer); ok {
		if facts, err = d.Describe(ctx); err != nil {
			return nil, err
		}
	}

	b := result.NewBuilder(p)
	if cfg.Observe != nil {
		b.Observe(cfg.Observe)
	}
	var wlog *writeLog
	if p.Verify {
		if wlog, err = newWriteLog(); err != nil {
			return nil, err
		}
		defer wlog.remove()
		b.SetWriteLog(wlog)
	}
	started := time.Now().UTC()
	logs := startLogSampler(ctx, st, b)
	var m mode
	if p.Mode == workload.ModeGoroutine {
		m = &goroutineMode{plan: p, store: st, cfg: cfg, onStart: logs.started}
	} else {
		m = &processMode{cfg: cfg, onStart: logs.started}
	}
	if p.Warmup != nil {
		logf("warming up, then running %d phase(s) on %d×%d %s workers", len(p.Phases), p.Procs, p.Goroutines, p.Mode)
	} else {
		logf("running %d phase(s) on %d×%d %s workers", len(p.Phases), p.Procs, p.Goroutines, p.Mode)
	}
	runErr := m.run(ctx, b)
	logs.close()
	if runErr == nil {
		measureSize(b, p, len(p.RunPhases())-1)
	}

	res := b.Result()
	if wlog != nil && runErr == nil && res.Complete {
		logf("verifying every key against the acknowledged writes")
		var logErr error
		rep, verr := workload.Verify(ctx, st, p, wlog.records(&logErr))
		res.Verify = rep
		if verr == nil {
			verr = logErr
		}
		if verr != nil {
			runErr = verr
		}
	}
	res.CoordinatorMaxRSSBytes = sysinfo.MaxRSS()
	res.StartedAt = started
	res.Environment.Store = facts
	mach := sysinfo.ReadMachine()
	res.Environment.Kernel, res.Environment.CPUModel, res.Environment.Governor, res.Environment.MemoryBytes = mach.Kernel, mach.CPUModel, mach.Governor, mach.MemoryBytes
	switch {
	case runErr != nil && ctx.Err() != nil:
		res.Complete = false
		res.Problems = append([]string{"interrupted"}, res.Problems...)
		return res, ctx.Err()
	case runErr != nil:
		res.Complete = false
		res.Problems = append([]string{runErr.Error()}, res.Problems...)
		return res, runErr
	case !res.Complete:
		return res, fmt.Errorf("%w: %s", ErrWorker, strings.Join(res.Problems, "; "))
	}
	return res, nil
}

// setUp initialises the store at path and returns the lock the run holds
// on it for its lifetime: a second run on the same database is refused
// (ErrInUse) before it touches anything. Runs set up databases of one
// directory one at a time, so two runs creating one new database cannot
// both set it up.
func setUp(ctx context.Context, st store.Store, path string) (*runLock, error) {
	if path == "" {
		return nil, initStore(ctx, st)
	}
	if fi, err := os.Lstat(path); err == nil && fi.Mode()&os.ModeSymlink != 0 {
		if _, err := os.Stat(path); os.IsNotExist(err) {
			target, _ := os.Readlink(path)
			return nil, fmt.Errorf("%w: %s is a symlink to %s, which does not exist: gobench creates no file a link points to; give the target's own path", store.ErrInvalid, path, target)
		}
	}
	release, err := setupLock(path)
	if err != nil {
		return nil, err
	}
	defer release()
	lock, err := lockRun(path)
	if err != nil {
		return nil, err
	}
	if err := initStore(ctx, st); err != nil {
		lock.Unlock()
		return nil, err
	}
	if lock == nil { // the database did not exist before Init
		if lock, err = lockRun(path); err != nil {
			return nil, err
		}
	}
	return lock, nil
}

func initStore(ctx context.Context, st store.Store) error {
	if err := st.Init(ctx); err != nil {
		return fmt.Errorf("setting up the store: %w", err)
	}
	return nil
}

// betweenPhases runs, before phase's START and outside any measured
// window, what comes between phases: the size the previous phase left,
// then with ColdCache the dropping of the store's files from the page
// cache.
func betweenPhases(b *result.Builder, p *workload.Plan, phase int) {
	if phase > 0 {
		measureSize(b, p, phase-1)
	}
	if p.ColdCache {
		note := "dropped"
		if err := disk.DropCache(p.Store.Path); err != nil {
			note = "not dropped: " + err.Error()
		}
		b.SetPageCache(phase, note)
	}
}

// measureSize records the database's size at the end of a phase, when
// the engine keeps it on disk. It runs between phases, outside any
// measured window.
func measureSize(b *result.Builder, p *workload.Plan, phase int) {
	if app, alloc, err := sysinfo.DiskUsage(p.Store.Path); err == nil {
		b.SetSize(phase, app, alloc)
	}
}

// mode runs the workers of a plan into a builder.
type mode interface {
	run(ctx context.Context, b *result.Builder) error
}

// goroutineMode runs every worker in this process on the coordinator's
// store.
type goroutineMode struct {
	plan    *workload.Plan
	store   store.Store
	cfg     Config
	onStart func(phase int, at int64) // hears each phase's START
}

func (g *goroutineMode) run(ctx context.Context, b *result.Builder) error {
	ids := g.plan.WorkerIDs()
	for phase := range g.plan.RunPhases() {
		for _, id := range ids {
			b.SetPID(id, phase, os.Getpid())
		}
	}
	wc := newWatchedCollector(b, g.plan.Workers())
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	h := &workload.Host{Plan: g.plan, Store: g.store, Workers: ids, Collector: wc,
		Barrier: func(_ context.Context, phase int) (int64, error) {
			betweenPhases(b, g.plan, phase)
			b.SetStart(phase, time.Now())
			at := workload.Now()
			wc.start(ids, at)
			g.onStart(phase, at)
			return at, nil
		}}
	done := make(chan error, 1)
	go func() { done <- h.Run(ctx) }()
	limit := stallLimit(g.cfg)
	tick := time.NewTicker(watchInterval(limit))
	defer tick.Stop()
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
				return context.Canceled // an op that never returns is left behind
			}
		case <-tick.C:
			id, ok := wc.stalled(limit)
			if !ok {
				continue
			}
			err := fmt.Errorf("%w: worker %d (a goroutine of this process) completed nothing for longer than the stall time-out (%v) while running a phase", ErrWorker, id, limit)
			cancel() // the others stop after their current op
			select {
			case <-done:
			case <-time.After(stopGrace(g.cfg)):
				// The stalled op never returned; it is left behind, and
				// the process ends with the run. Reading every worker's
				// stamps orders what each recorded before them ahead of
				// the result built from it.
				wc.settle()
			}
			return err
		}
	}
}

// stallLimit returns the configured stall time-out, or its default.
func stallLimit(cfg Config) time.Duration {
	if cfg.StallTimeout == 0 {
		return time.Minute
	}
	return cfg.StallTimeout
}

// watchInterval is how often a stall watchdog with time-out limit looks:
// ten times per time-out, at most once a second, at least every
// millisecond (a ticker must have a positive period).
func watchInterval(limit time.Duration) time.Duration {
	return max(min(limit/10, time.Second), time.Millisecond)
}

// stopGrace returns the configured grace period for stopping, or its
// default.
func stopGrace(cfg Config) time.Duration {
	if cfg.StopGrace == 0 {
		return 10 * time.Second
	}
	return cfg.StopGrace
}

// watchedCollector passes samples on to the builder and keeps, per worker,
// the monotonic clock of its last completion while it runs a phase: the
// stall watchdog of goroutine workers, which cannot be killed.
type watchedCollector struct {
	b       *result.Builder
	last    []atomic.Int64 // by worker id
	running []atomic.Bool
}

func newWatchedCollector(b *result.Builder, workers int) *watchedCollector {
	return &watchedCollector{b: b, last: make([]atomic.Int64, workers), running: make([]atomic.Bool, workers)}
}

// start marks the workers as running a phase begun at START instant at.
func (c *watchedCollector) start(ids []int, at int64) {
	for _, id := range ids {
		c.last[id].Store(at)
		c.running[id].Store(true)
	}
}

// stalled returns a worker that has run a phase without completing an op
// for longer than limit.
func (c *watchedCollector) stalled(limit time.Duration) (int, bool) {
	now := workload.Now()
	for id := range c.last {
		if c.running[id].Load() && time.Duration(now-c.last[id].Load()) > limit {
			return id, true
		}
	}
	return 0, false
}

// settle reads every worker's stamps: what a worker recorded before its
// last stamp happens before what follows (the result built from it).
func (c *watchedCollector) settle() {
	for id := range c.last {
		c.running[id].Load()
		c.last[id].Load()
	}
}

// Sink wraps the builder's recorder of worker in phase.
func (c *watchedCollector) Sink(worker, phase int) workload.Sink {
	return &watchedSink{Sink: c.b.Sink(worker, phase), last: &c.last[worker], running: &c.running[worker]}
}

type watchedSink struct {
	workload.Sink
	last    *atomic.Int64
	running *atomic.Bool
}

// Record records the sample, then stamps the completion: a watchdog that
// reads the stamp sees everything recorded before it.
func (s *watchedSink) Record(smp workload.Sample) error {
	err := s.Sink.Record(smp)
	s.last.Store(workload.Now())
	return err
}

func (s *watchedSink) Done(st workload.WorkerStats) error {
	s.running.Store(false)
	return s.Sink.Done(st)
}

// processMode runs each group of goroutines in a worker process.
type processMode struct {
	cfg     Config
	onStart func(phase int, at int64) // hears each phase's START
}

// proc is one worker process.
type proc struct {
	index  int
	cmd    *exec.Cmd
	ctl    *wire.Writer
	stdin  io.Closer
	output *tailBuffer
	// ready receives each phase the process reports ready for.
	ready chan int
	// spawned is the monotonic clock just before the process started.
	spawned int64
	// running is set while the process runs a phase; lastFrame is the
	// monotonic clock of its last frame; stalled is set when the
	// watchdog killed it for silence.
	running   atomic.Bool
	lastFrame atomic.Int64
	stalled   atomic.Bool
}

func (m *processMode) run(ctx context.Context, b *result.Builder) error {
	p := m.cfg.Plan
	planJSON, err := json.Marshal(p)
	if err != nil {
		return fmt.Errorf("encoding the plan: %w", err)
	}
	g, gctx := errgroup.WithContext(context.Background())
	var procs []*proc
	for _, i := range p.ProcIndexes() {
		pr, samples, serr := m.start(i, planJSON)
		if serr != nil {
			err = serr
			break
		}
		procs = append(procs, pr)
		g.Go(func() error { return pr.serve(samples, p, b) })
	}
	kill := func() {
		for _, pr := range procs {
			_ = pr.cmd.Process.Kill() // a no-op for a process already reaped
		}
	}
	stop := sync.OnceFunc(func() {
		for _, pr := range procs {
			_ = pr.ctl.Stop()
		}
	})
	watchdog := m.watch(procs)
	defer watchdog()
	if err == nil {
		err = m.barriers(ctx, gctx, procs, b)
	}
	if err != nil && ctx.Err() == nil {
		kill() // the run never got going: nothing to save
	}
	waitErr := m.wait(ctx, gctx, g, stop, kill)
	for _, pr := range procs {
		_ = pr.stdin.Close()
	}
	switch {
	case ctx.Err() != nil:
		return ctx.Err()
	case err != nil:
		return err // the cause; the workers' deaths that follow are its effect
	}
	return waitErr
}

// wait waits for every worker process to finish. On an interrupt or a
// failed worker, it asks the rest to stop after their current op, and
// kills them if they have not stopped within the grace period.
func (m *processMode) wait(ctx, gctx context.Context, g *errgroup.Group, stop, kill func()) error {
	done := make(chan error, 1)
	go func() { done <- g.Wait() }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
	case <-gctx.Done():
	case <-m.cfg.Abort:
		kill()
		return <-done
	}
	stop()
	grace := stopGrace(m.cfg)
	select {
	case err := <-done:
		return err
	case <-m.cfg.Abort:
		kill()
		return <-done
	case <-time.After(grace):
		kill()
		return <-done
	}
}

// watch starts the stall watchdog: a worker process silent for the stall
// time-out while it runs a phase is killed, and its reader reports why.
// The returned function stops the watchdog.
func (m *processMode) watch(procs []*proc) (stop func()) {
	limit := stallLimit(m.cfg)
	tick := time.NewTicker(watchInterval(limit))
	quit := make(chan struct{})
	go func() {
		defer tick.Stop()
		for {
			select {
			case <-quit:
				return
			case <-tick.C:
				now := workload.Now()
				for _, pr := range procs {
					if pr.running.Load() && time.Duration(now-pr.lastFrame.Load()) > limit && !pr.stalled.Swap(true) {
						_ = pr.cmd.Process.Kill()
					}
				}
			}
		}
	}()
	return sync.OnceFunc(func() { close(quit) })
}

// barriers runs the START barrier of every phase.
func (m *processMode) barriers(ctx, gctx context.Context, procs []*proc, b *result.Builder) error {
	timeout := m.cfg.ReadyTimeout
	if timeout == 0 {
		timeout = time.Minute
	}
	for phase := range m.cfg.Plan.RunPhases() {
		deadline := time.NewTimer(timeout)
		for _, pr := range procs {
			select {
			case got := <-pr.ready:
				if got != phase {
					deadline.Stop()
					return fmt.Errorf("%w: worker process %d reported ready for phase %d while phase %d was due", ErrWorker, pr.index, got, phase)
				}
			case <-deadline.C:
				return fmt.Errorf("%w: worker process %d (pid %d) was not ready for phase %d within %v%s", ErrWorker, pr.index, pr.cmd.Process.Pid, phase, timeout, pr.output.quote())
			case <-gctx.Done():
				deadline.Stop()
				return nil // the failing reader reports why
			case <-ctx.Done():
				deadline.Stop()
				return ctx.Err()
			}
		}
		deadline.Stop()
		betweenPhases(b, m.cfg.Plan, phase) // every process is done with the previous phase
		// One START instant for every process: offsets count from it.
		b.SetStart(phase, time.Now())
		at := workload.Now()
		for _, pr := range procs {
			pr.lastFrame.Store(at)
			pr.running.Store(true)
			if err := pr.ctl.Start(wire.Start{Phase: phase, At: at}); err != nil {
				return fmt.Errorf("%w: starting worker process %d: %v", ErrWorker, pr.index, err)
			}
		}
		b.SetStartSkew(phase, time.Duration(workload.Now()-at))
		m.onStart(phase, at)
	}
	return nil
}

// start launches worker process i and sends it the plan. It returns the
// read end of the process's sample pipe.
func (m *processMode) start(i int, planJSON []byte) (*proc, *os.File, error) {
	newCmd := m.cfg.Command
	if newCmd == nil {
		newCmd = selfCommand
	}
	cmd, err := newCmd()
	if err != nil {
		return nil, nil, err
	}
	pr, pw, err := os.Pipe()
	if err != nil {
		return nil, nil, fmt.Errorf("creating the sample pipe: %w", err)
	}
	cmd.ExtraFiles = []*os.File{pw}
	out := newTailBuffer(8 << 10)
	cmd.Stdout, cmd.Stderr = out, out
	stdin, err := cmd.StdinPipe()
	if err != nil {
		pr.Close()
		pw.Close()
		return nil, nil, err
	}
	dieWithParent(cmd)
	spawned := workload.Now()
	if err := cmd.Start(); err != nil {
		pr.Close()
		pw.Close()
		return nil, nil, fmt.Errorf("starting worker process %d: %w", i, err)
	}
	pw.Close() // the child holds its own copy
	p := &proc{index: i, cmd: cmd, ctl: wire.NewWriter(stdin), stdin: stdin, output: out, ready: make(chan int, len(m.cfg.Plan.RunPhases())), spawned: spawned}
	if err := p.ctl.Plan(i, planJSON); err != nil {
		// No reader will serve this process: stop and reap it here.
		pr.Close()
		stdin.Close()
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		return nil, nil, fmt.Errorf("%w: sending the plan to worker process %d (pid %d): %v%s", ErrWorker, i, cmd.Process.Pid, err, out.quote())
	}
	return p, pr, nil
}

// selfCommand re-executes this program as a worker.
func selfCommand() (*exec.Cmd, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("finding the gobench executable to start workers: %w", err)
	}
	return exec.Command(exe, "worker"), nil
}

// serve reads a worker process's stream into the builder until the
// process closes it, then waits for the process to exit.
func (pr *proc) serve(samples *os.File, p *workload.Plan, b *result.Builder) error {
	err := pr.read(samples, p, b)
	samples.Close()
	if err != nil {
		_ = pr.cmd.Process.Kill() // its stream is broken: nothing more from it counts
	}
	waitErr := pr.cmd.Wait()
	switch {
	case pr.stalled.Load():
		return fmt.Errorf("%w: worker process %d (pid %d) sent nothing for longer than the stall time-out while running a phase, and was killed%s", ErrWorker, pr.index, pr.cmd.Process.Pid, pr.output.quote())
	case err != nil:
		return err
	case waitErr != nil:
		return fmt.Errorf("%w: worker process %d (pid %d) %v%s", ErrWorker, pr.index, pr.cmd.Process.Pid, waitErr, pr.output.quote())
	}
	return nil
}

func (pr *proc) read(samples io.Reader, p *workload.Plan, b *result.Builder) error {
	source := fmt.Sprintf("worker process %d (pid %d)", pr.index, pr.cmd.Process.Pid)
	r := wire.NewReader(samples, source)
	lo, hi := pr.index*p.Goroutines, (pr.index+1)*p.Goroutines
	phases := len(p.RunPhases()) // once: with a warm-up, RunPhases builds a slice
	nextReady := 0
	done := map[int]int{} // Done frames per phase
	for r.Scan() {
		f := r.Frame()
		pr.lastFrame.Store(workload.Now())
		switch f.Type {
		case wire.TypeSamples:
			bt := f.Batch()
			if bt.Worker < lo || bt.Worker >= hi || bt.Phase >= phases {
				return &wire.FrameError{Source: source, Offset: f.Offset, Err: fmt.Errorf("samples for worker %d phase %d, which this process does not run", bt.Worker, bt.Phase)}
			}
			rec := b.Recorder(bt.Worker, bt.Phase)
			for i := range bt.Len() {
				if err := rec.Record(bt.At(i)); err != nil {
					return err
				}
			}
		case wire.TypeDone:
			d := f.Done()
			if d.Worker < lo || d.Worker >= hi || d.Phase >= phases {
				return &wire.FrameError{Source: source, Offset: f.Offset, Err: fmt.Errorf("done for worker %d phase %d, which this process does not run", d.Worker, d.Phase)}
			}
			if err := b.Recorder(d.Worker, d.Phase).Done(d); err != nil {
				return fmt.Errorf("%w: %s: %v", ErrWorker, source, err)
			}
			if done[d.Phase]++; done[d.Phase] == p.Goroutines {
				pr.running.Store(false) // the phase is over for this process
			}
		case wire.TypeReady:
			rd := f.Ready()
			if rd.Phase >= phases {
				return &wire.FrameError{Source: source, Offset: f.Offset, Err: fmt.Errorf("ready for phase %d, which the plan does not have", rd.Phase)}
			}
			if rd.Phase != nextReady {
				return &wire.FrameError{Source: source, Offset: f.Offset, Err: fmt.Errorf("ready for phase %d while phase %d was due", rd.Phase, nextReady)}
			}
			if now := workload.Now(); rd.Clock < pr.spawned || rd.Clock > now {
				return fmt.Errorf("%w: %s: its monotonic clock (%d) is not this process's (%d to %d): worker processes need a clock shared by the machine's processes, as Linux and macOS have", ErrWorker, source, rd.Clock, pr.spawned, now)
			}
			nextReady++
			for w := lo; w < hi; w++ {
				b.SetPID(w, rd.Phase, rd.PID)
			}
			pr.ready <- rd.Phase
		case wire.TypeError:
			return fmt.Errorf("%w: %s: %s", ErrWorker, source, f.Message())
		default:
			return &wire.FrameError{Source: source, Offset: f.Offset, Err: fmt.Errorf("unexpected %v frame from a worker", f.Type)}
		}
	}
	return r.Err()
}

// tailBuffer keeps the last bytes written to it: a worker's output, to
// quote when it fails.
type tailBuffer struct {
	mu  sync.Mutex
	max int
	buf []byte
}

func newTailBuffer(max int) *tailBuffer { return &tailBuffer{max: max} }

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if over := len(t.buf) - t.max; over > 0 {
		t.buf = append(t.buf[:0], t.buf[over:]...)
	}
	return len(p), nil
}

// quote returns the last lines of output, ready to append to a message;
// a Go panic's or fatal error's own line comes first, since its stack
// trace would push it out of the last lines.
func (t *tailBuffer) quote() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	s := strings.TrimSpace(string(t.buf))
	if s == "" {
		return ""
	}
	all := strings.Split(s, "\n")
	lines := all
	if len(lines) > 10 {
		lines = lines[len(lines)-10:]
	}
	for _, l := range all[:len(all)-len(lines)] {
		if strings.HasPrefix(l, "panic: ") || strings.HasPrefix(l, "fatal error: ") {
			lines = append([]string{l, "…"}, lines...)
			break
		}
	}
	return "; its last output:\n  " + strings.Join(lines, "\n  ")
}
