package coord

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/gobench/gobench/internal/wire"
	"github.com/gobench/gobench/pkg/result"
	"github.com/gobench/gobench/pkg/runner"
	"github.com/gobench/gobench/pkg/workload"
)

// processMode runs each group of goroutines in a worker process.
type processMode struct {
	cfg     Config
	onStart func(phase int, at int64) // hears each phase's START
	crash   *crashRun                 // a --crash run's recording, nil otherwise
	fs      *fsRecorder               // the recording file system, nil when none counts the I/O
	io      *ioTally                  // the coordinator's tally of the I/O the file system counts
	cpu     coordCPU
	peak    *peakMax // the largest peak memory a worker process reported
}

// coordCPU measures the coordinator's own processor time over each phase,
// from START until the last of its workers finished it.
type coordCPU struct {
	mu    sync.Mutex
	start []workload.CPU // at each phase's START
	ok    []bool         // start was measured
	left  []int          // workers yet to finish each phase
	// lastDone, if set, hears the end of each phase: its last worker
	// finished it.
	lastDone func(phase int)
}

func (c *coordCPU) init(phases, workers int) {
	c.start, c.ok, c.left = make([]workload.CPU, phases), make([]bool, phases), make([]int, phases)
	for i := range c.left {
		c.left[i] = workers
	}
}

// started notes the processor time at phase's START.
func (c *coordCPU) started(phase int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.start[phase], c.ok[phase] = runner.ProcessCPU()
}

// finished counts one worker's end of phase; after the last, it records
// the coordinator's time over the phase in b.
func (c *coordCPU) finished(phase int, b *result.Builder) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.left[phase]--; c.left[phase] != 0 {
		return
	}
	if c.lastDone != nil {
		c.lastDone(phase)
	}
	if !c.ok[phase] {
		return
	}
	if now, ok := runner.ProcessCPU(); ok {
		b.SetCoordinatorCPU(phase, now.Sub(c.start[phase]))
	}
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
	// peak keeps the largest peak memory the run's processes reported.
	peak *peakMax
}

func (m *processMode) run(ctx context.Context, b *result.Builder) error {
	p := m.cfg.Plan
	sent := *p
	sent.Store.Record = m.crash.record()                     // workers record their I/O from their first connection on
	sent.AckRecord = m.crash.ackRecord()                     // or, under the recording file system, their acknowledgements
	sent.StallTimeout = workload.Duration(stallLimit(m.cfg)) // a source whose workers wait on each other gives up below it
	withOrder, removeOrder, err := shareFiles(&sent)
	if err != nil {
		return err
	}
	defer removeOrder()
	progress, unmapOrder, err := sharedProgress(withOrder)
	if err != nil {
		return err
	}
	defer unmapOrder()
	planJSON, removeCounter, err := counterFile(withOrder)
	if err != nil {
		return fmt.Errorf("encoding the plan: %w", err)
	}
	defer removeCounter()
	g, gctx := errgroup.WithContext(context.Background())
	var procs []*proc
	for _, i := range p.ProcIndexes() {
		pr, samples, serr := m.start(i, planJSON)
		if serr != nil {
			err = serr
			break
		}
		pr.peak = m.peak
		procs = append(procs, pr)
		g.Go(func() error { return pr.serve(samples, p, b, &m.cpu) })
	}
	m.cpu.init(len(p.RunPhases()), len(procs)*p.Goroutines)
	if m.fs != nil {
		m.cpu.lastDone = func(phase int) { m.fs.finished(phase, b, m.io) }
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
	watchdog := m.watch(procs, progress)
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
// progress, if not nil, is the progress of a replay's order of commits: a
// process silent while it grows waits for its turn (a connection whose
// next statement comes after others' commits), and is not stalled. The
// returned function stops the watchdog, and returns once it stopped.
func (m *processMode) watch(procs []*proc, progress func() int64) (stop func()) {
	limit := stallLimit(m.cfg)
	tick := time.NewTicker(watchInterval(limit))
	quit, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		defer tick.Stop()
		var seen progressSeen
		for {
			select {
			case <-quit:
				return
			case <-tick.C:
				now := runner.Now()
				moved := seen.moved(progress, now)
				for _, pr := range procs {
					if pr.running.Load() && time.Duration(now-max(pr.lastFrame.Load(), moved)) > limit && !pr.stalled.Swap(true) {
						_ = pr.cmd.Process.Kill()
					}
				}
			}
		}
	}()
	// Stopping waits for the watchdog's last look: progress reads a
	// mapping its caller unmaps next.
	return sync.OnceFunc(func() { close(quit); <-done })
}

// progressSeen is what a stall watchdog saw of a replay's order of
// commits: its progress, and when it last grew.
type progressSeen struct {
	last, at int64
	ok       bool
}

// moved returns the monotonic clock at which progress (nil: none) last
// grew, as seen at the ticks up to now; 0 before it ever did.
func (s *progressSeen) moved(progress func() int64, now int64) int64 {
	if progress == nil {
		return 0
	}
	if cur := progress(); !s.ok || cur != s.last {
		if s.ok {
			s.at = now
		}
		s.last, s.ok = cur, true
	}
	return s.at
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
		if err := m.crash.start(phase); err != nil {
			return err
		}
		m.fs.started(phase)
		// One START instant for every process: offsets count from it.
		b.SetStart(phase, time.Now())
		m.cpu.started(phase)
		at := runner.Now()
		for _, pr := range procs {
			pr.lastFrame.Store(at)
			pr.running.Store(true)
			if err := pr.ctl.Start(wire.Start{Phase: phase, At: at}); err != nil {
				return fmt.Errorf("%w: starting worker process %d: %v", ErrWorker, pr.index, err)
			}
		}
		b.SetStartSkew(phase, time.Duration(runner.Now()-at))
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
	spawned := runner.Now()
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
		// A process that had exited by itself (the usual reason for a
		// broken pipe here) keeps its exit status: that is the cause.
		var exited *exec.ExitError
		if werr := cmd.Wait(); errors.As(werr, &exited) && exited.Exited() {
			err = fmt.Errorf("%v; it had %v", err, werr)
		}
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
func (pr *proc) serve(samples *os.File, p *workload.Plan, b *result.Builder, cpu *coordCPU) error {
	err := pr.read(samples, p, b, cpu)
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

func (pr *proc) read(samples io.Reader, p *workload.Plan, b *result.Builder, cpu *coordCPU) error {
	source := fmt.Sprintf("worker process %d (pid %d)", pr.index, pr.cmd.Process.Pid)
	r := wire.NewReader(samples, source)
	lo, hi := pr.index*p.Goroutines, (pr.index+1)*p.Goroutines
	phases := len(p.RunPhases()) // once: with a warm-up, RunPhases builds a slice
	nextReady := 0
	done := map[int]int{} // Done frames per phase
	for r.Scan() {
		f := r.Frame()
		pr.lastFrame.Store(runner.Now())
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
			cpu.finished(d.Phase, b)
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
			if now := runner.Now(); rd.Clock < pr.spawned || rd.Clock > now {
				return fmt.Errorf("%w: %s: its monotonic clock (%d) is not this process's (%d to %d): worker processes need a clock shared by the machine's processes, as Linux and macOS have", ErrWorker, source, rd.Clock, pr.spawned, now)
			}
			nextReady++
			for w := lo; w < hi; w++ {
				b.SetPID(w, rd.Phase, rd.PID)
			}
			pr.ready <- rd.Phase
		case wire.TypeCPU:
			c := f.CPU()
			if c.Phase >= phases {
				return &wire.FrameError{Source: source, Offset: f.Offset, Err: fmt.Errorf("cpu for phase %d, which the plan does not have", c.Phase)}
			}
			b.AddCPU(c.Phase, result.CPUWorkers, c.CPU)
		case wire.TypeIO:
			io := f.IO()
			if io.Phase >= phases {
				return &wire.FrameError{Source: source, Offset: f.Offset, Err: fmt.Errorf("io for phase %d, which the plan does not have", io.Phase)}
			}
			b.AddIO(io.Phase, io.IO)
		case wire.TypeRSS:
			pr.peak.add(f.RSS())
		case wire.TypeError:
			return fmt.Errorf("%w: %s: %s", ErrWorker, source, f.Message())
		default:
			return &wire.FrameError{Source: source, Offset: f.Offset, Err: fmt.Errorf("unexpected %v frame from a worker", f.Type)}
		}
	}
	return r.Err()
}

// tailBuffer keeps the last bytes written to it: a worker's output, to
// quote when it fails. It also keeps the first lines of the first crash
// report it sees (crashLine), which a long stack or register dump would
// push out of the last bytes.
type tailBuffer struct {
	mu    sync.Mutex
	max   int
	buf   []byte
	line  []byte   // the line being written, up to maxLine bytes
	crash []string // the crash report's first lines
	more  int      // lines of it still to keep
}

// maxLine bounds the part of a line kept to recognise a crash.
const maxLine = 512

// crashLine matches the first line of a Go program's crash report: a
// panic, a fatal error, a signal the runtime reports with a stack dump
// (SIGSEGV or SIGABRT in cgo code, SIGQUIT, a SIGABRT sent to it), or a
// failure of runtime/cgo.
var crashLine = regexp.MustCompile(`^(panic: |fatal error: |SIG[A-Z]+: |runtime/cgo: )`)

func newTailBuffer(max int) *tailBuffer { return &tailBuffer{max: max} }

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	n := len(p)
	t.buf = append(t.buf, p...)
	if over := len(t.buf) - t.max; over > 0 {
		t.buf = append(t.buf[:0], t.buf[over:]...)
	}
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			t.line = append(t.line, p[:min(len(p), maxLine-len(t.line))]...)
			break
		}
		t.line = append(t.line, p[:min(i, maxLine-len(t.line))]...)
		t.endLine(string(t.line))
		t.line, p = t.line[:0], p[i+1:]
	}
	return n, nil
}

// endLine looks at one whole line for the crash report: its first line,
// and the next ones up to a blank line (at most three in all).
func (t *tailBuffer) endLine(l string) {
	switch {
	case t.more > 0 && strings.TrimSpace(l) == "":
		t.more = 0
	case t.more > 0:
		t.crash = append(t.crash, l)
		t.more--
	case t.crash == nil && crashLine.MatchString(l):
		t.crash, t.more = []string{l}, 2
	}
}

// quote returns the last lines of output, ready to append to a message;
// a crash report's own first lines come first when they are not among
// them, since its stack trace or register dump pushes them out.
func (t *tailBuffer) quote() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	s := strings.TrimSpace(string(t.buf))
	if s == "" {
		return ""
	}
	lines := strings.Split(s, "\n")
	if len(lines) > 10 {
		lines = lines[len(lines)-10:]
	}
	if len(t.crash) > 0 && !slices.Contains(lines, t.crash[0]) {
		lines = append(append(slices.Clip(t.crash), "…"), lines...)
	}
	return "; its last output:\n  " + strings.Join(lines, "\n  ")
}
