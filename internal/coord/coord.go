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
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/gobench/gobench/pkg/bench"
	"github.com/gobench/gobench/pkg/bytesize"
	"github.com/gobench/gobench/pkg/disk"
	"github.com/gobench/gobench/pkg/result"
	"github.com/gobench/gobench/pkg/runner"
	"github.com/gobench/gobench/pkg/sqltrace/dbdigest"
	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/sysinfo"
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
	// Notes receives notes on the run's progress (store set up, preload
	// progress, workers started). Nil discards them.
	Notes io.Writer
	// ProgressEvery is how often a long preload reports how far it got on
	// Notes. Zero means every ten seconds.
	ProgressEvery time.Duration
	// Ceiling, if set, is the disk's fsync rate measured before the run,
	// recorded in the result's environment.
	Ceiling *result.Ceiling
	// Recorder returns the command that starts the FUSE recording file
	// system's helper (a run with Plan.IOTrace fs); it must run
	// recfs.Serve on its stdin and stdout. Nil runs this executable with
	// the "recordfs" argument.
	Recorder func() (*exec.Cmd, error)
	// CrashChecker returns the command that checks one --crash state in
	// a child process (an engine whose C code can abort the process that
	// opens a broken state: store.CrashCheckIsolator); it must run
	// ServeCrashCheck on its stdin and stdout. Nil runs this executable
	// with the "crashcheck" argument.
	CrashChecker func() (*exec.Cmd, error)
	// Calibrate measures the machine just before the workers start and
	// just after the last op (bench.StartMachine): its load and a short
	// CPU loop and fsync probe, recorded in the result's environment.
	Calibrate bool
}

// ErrTempDir marks a run refused before any work because the OS's
// temporary directory (TMPDIR) cannot hold what the run keeps there: bad
// input, like a path that cannot be written.
var ErrTempDir = errors.New("the temporary directory cannot hold the run's files")

// ErrWorker marks a failure of a worker process.
var ErrWorker = errors.New("worker failed")

// Run sets up the store, runs every phase of cfg.Plan and returns the
// result. When ctx is cancelled, workers stop after their current op and
// Run returns the partial result, marked incomplete, with ctx's error.
// When a worker fails, Run stops the others and returns the partial result
// with an error naming the worker and the cause.
func Run(ctx context.Context, cfg Config) (*result.Result, error) {
	peak := startPeak(cfg.Plan)
	s, err := prepare(ctx, cfg)
	if err != nil {
		return nil, err
	}
	defer s.close()
	var meter *bench.MachineMeter
	if cfg.Calibrate {
		meter = bench.StartMachine(ctx, calibrationDir(cfg.Plan))
	}
	res, b, runErr := s.measure(ctx)
	var machine *result.Machine
	if meter != nil {
		machine = meter.Stop(ctx)
	}
	switch {
	case runErr == nil && res.Complete:
		runErr = s.verify(ctx, res, nil)
	case s.canVerifyAfter(ctx, runErr):
		// The run most likely to have lost writes is checked too: what
		// was acknowledged before a worker died.
		runErr = errors.Join(runErr, s.verify(ctx, res, func(w, p int) bool { return !b.Finished(w, p) }))
	}
	if res.Complete && (runErr == nil || errors.Is(runErr, workload.ErrVerify)) {
		// A write the run did not acknowledge that the store holds (a
		// commit that failed with an I/O error under --crash-model
		// fsync-fail, and took effect) does not keep the power cuts
		// from being simulated: both are findings.
		runErr = errors.Join(runErr, s.simulate(ctx, res))
	}
	if runErr == nil {
		s.closeStore(res)
	}
	res.Environment = bench.Environment(s.cfg.Plan.Store.Path, s.drv, s.facts)
	if s.fs != nil && s.fs.files.Prefix != "" {
		// The database's directory is the mount: say what is under it.
		res.Environment.Filesystem, res.Environment.MountOptions = s.fs.filesystem, s.fs.mountOptions
	}
	res.Environment.Ceiling, res.Environment.Machine = s.cfg.Ceiling, machine
	res.CoordinatorMaxRSSBytes, res.WorkerMaxRSSBytes = peak.read(&s.workerPeak)
	return res, outcome(ctx, res, runErr)
}

// calibrationDir is where the machine's fsync probe writes: the
// database's directory, or none when it has no such directory.
func calibrationDir(p *workload.Plan) string {
	if p.Store.Path == "" {
		return ""
	}
	dir := filepath.Dir(p.Store.Path)
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return ""
	}
	return dir
}

// session is one run under way: its configuration, its store set up and
// locked, the engine's facts.
type session struct {
	cfg   Config
	drv   store.Driver
	st    store.Store
	lock  *runLock
	facts []store.Fact
	notef func(format string, args ...any)
	// build is the worker build the plan's options ask for, buildExe
	// its executable; nil and "" for this executable.
	build    *store.WorkerBuild
	buildExe string
	// local is the plan as this process opens its store, where a build
	// runs the workers (localPlan).
	local  *workload.Plan
	ledger *writeLedger // nil without Plan.Verify
	// setupIO is the file I/O of the store's setup, where traced.
	setupIO *store.IOCounts
	crash   *crashRun   // nil without Plan.Crash
	fs      *fsRecorder // nil unless Plan.IOTrace is fs
	// tally counts the run's I/O outside its phases, from the start of
	// the measurement until the store is closed.
	tally *ioTally
	// workerPeak is the largest peak memory a worker process reported.
	workerPeak peakMax
}

// ioReader returns what reads the run's I/O counts in this process: the
// file system recorder's, or those of st, the store; nil where nothing
// counts.
func (s *session) ioReader(st store.Store) func() (store.IOCounts, bool) {
	if s.fs != nil {
		return s.fs.read
	}
	return storeIO(st, s.cfg.Plan)
}

// prepare checks the plan, opens, sets up and preloads the store, and
// reads the engine's facts, before any worker starts.
func prepare(ctx context.Context, cfg Config) (_ *session, err error) {
	p := cfg.Plan
	if err := p.Validate(); err != nil {
		return nil, fmt.Errorf("%w: %w", store.ErrInvalid, err)
	}
	drv, err := cfg.Registry.Lookup(p.Driver)
	if err != nil {
		return nil, err
	}
	if err := workload.CheckDriver(p, drv); err != nil {
		return nil, err
	}
	if err := checkRoom(p, drv); err != nil {
		return nil, err
	}
	if p.Pin != nil && p.Pin.Coordinator != nil {
		if err := sysinfo.PinProcess(*p.Pin.Coordinator); err != nil {
			return nil, fmt.Errorf("%w: the coordinator: %w", store.ErrInvalid, err)
		}
	}
	if err := checkCrash(p, cfg.Registry, filepath.Dir(p.Store.Path)); err != nil {
		return nil, err
	}
	if err := checkNotRecorded(p); err != nil {
		return nil, err
	}
	s := &session{cfg: cfg, drv: drv, notef: func(format string, args ...any) {
		if cfg.Notes != nil {
			fmt.Fprintf(cfg.Notes, format+"\n", args...)
		}
	}}
	defer func() {
		if err != nil {
			s.close()
		}
	}()
	if err := s.workerBuild(ctx); err != nil {
		return nil, err
	}
	if err := s.traceIO(); err != nil {
		return nil, err
	}
	if p.Verify {
		// Before any work: a ledger that cannot be made refuses the run.
		if s.ledger, err = newWriteLedger(""); err != nil {
			return nil, fmt.Errorf("--verify: %w (give a TMPDIR that can be written): %w", ErrTempDir, err)
		}
	}
	var setupIO *ioTally
	s.st, err = runner.OpenStore(ctx, s.localPlan(), drv, s.setup(&setupIO))
	if err != nil {
		return nil, setupErr(ctx, err)
	}
	if io, ok := setupIO.outside(); ok {
		s.setupIO = &io
	}
	if s.crash == nil {
		if s.crash, err = newCrashRun(s, s.st); err != nil {
			return nil, err
		}
	}
	if d, ok := s.st.(store.Describer); ok {
		if s.facts, err = d.Describe(ctx); err != nil {
			return nil, err
		}
	}
	if err := s.describeBuild(ctx); err != nil {
		return nil, err
	}
	if s.fs != nil {
		s.facts = s.fs.fact(s.facts)
	}
	return s, nil
}

// setup is how the session sets its store up: under its lock, its I/O
// counted into *io, the crash record started in it where --crash-from
// asks, the preload's end marked in the record.
func (s *session) setup(io **ioTally) runner.Setup {
	p := s.cfg.Plan
	return runner.Setup{
		Init: func(ctx context.Context, st store.Store) (err error) {
			*io = newIOTally(s.ioReader(st))
			if err := s.startSetup(st, workload.CrashFromOpen); err != nil {
				return err
			}
			s.lock, err = setUp(ctx, st, p.Store.Path)
			return err
		},
		Preloading: func(_ context.Context, st store.Store) error {
			return s.startSetup(st, workload.CrashFromPreload)
		},
		Preloaded: func(context.Context, store.Store) error { return s.crash.preloaded(p.Preload) },
		Progress:  preloadProgress(s.notef, p.Preload, s.cfg.ProgressEvery),
		Notes:     s.notef,
		Check:     setupCheck(p),
	}
}

// traceIO decides what traces the run's I/O, and mounts the recording
// file system when it is that, once the mounts earlier runs left behind
// over the store's place are gone.
func (s *session) traceIO() (err error) {
	p := s.cfg.Plan
	if p.Store.Path != "" {
		cleanStaleMounts(s.drv, p.Store, s.notef)
	}
	if dir := filepath.Dir(p.Store.Path); p.Crash != nil {
		if _, known := sysinfo.FreeBytes(dir); !known {
			s.notef("--crash: the file system of %s does not say how much room it has (statfs reports no blocks): the crash record's limit of %s is not checked against it", dir, bytesize.Units{}.Round(p.Crash.RecordLimit))
		}
	}
	if p.IOTrace, err = workload.IOTraceOf(p, s.drv); err != nil {
		return fmt.Errorf("%w: %w", store.ErrInvalid, err)
	}
	if p.IOTrace == workload.IOTraceFS {
		// What the store would refuse is refused before the mount, in
		// one line (another database's -wal beside a new --db, say).
		if err := precheckConfig(s.drv, p.Store); err != nil {
			return err
		}
		s.fs, err = startFSRecorder(s)
	}
	return err
}

// precheckConfig opens the store cfg describes, which touches no file,
// and prechecks it (see store.Prechecker).
func precheckConfig(drv store.Driver, cfg store.Config) error {
	st, err := drv.Open(context.Background(), cfg)
	if err != nil {
		return err
	}
	defer st.Close()
	return precheck(st)
}

// closeStore closes the store of a run that went well before its result
// is returned. Under the file system recorder, what closing it wrote and
// synced (pebble syncs its WAL a last time; a WAL's last connection
// checkpoints it) is the run's I/O outside its phases, with what the
// processes did outside them before; the store's own tracer stops
// counting when it closes, so there the result keeps what it had.
func (s *session) closeStore(res *result.Result) {
	if s.st == nil {
		return
	}
	if err := s.st.Close(); err != nil {
		s.notef("closing the store: %v", err)
	}
	s.st = nil
	if s.fs == nil || s.tally == nil {
		return
	}
	if outside, ok := s.tally.outside(); ok {
		res.IOOutside = &outside
	}
}

// close releases the run's lock and store.
func (s *session) close() {
	if s.ledger != nil {
		s.ledger.close()
	}
	s.lock.Unlock()
	if s.st != nil {
		s.st.Close()
	}
	if err := s.fs.close(); err != nil {
		s.notef("%v", err)
	}
	s.crash.remove()
}

// measure runs every phase on the workers and builds the result; the
// builder tells which workers finished.
func (s *session) measure(ctx context.Context) (*result.Result, *result.Builder, error) {
	p := s.cfg.Plan
	b := result.NewBuilder(p)
	if s.setupIO != nil {
		b.SetSetupIO(*s.setupIO)
	}
	if s.cfg.Observe != nil {
		b.Observe(s.cfg.Observe)
	}
	if s.ledger != nil {
		b.SetWriteLedger(s.ledger)
	}
	started := time.Now().UTC()
	handed := s.handOver()
	// This process's own I/O from here on (the WAL sampler's connection,
	// the last to close; in goroutine mode the workers too) that falls
	// outside the phases' counts is the run's too.
	tally := newIOTally(s.ioReader(s.st))
	s.tally = tally
	logs := startWALSampler(ctx, s.st, b)
	var m mode = &processMode{cfg: s.cfg, onStart: logs.started, crash: s.crash, fs: s.fs, io: tally, peak: &s.workerPeak}
	if p.Mode == workload.ModeGoroutine {
		m = &goroutineMode{plan: p, store: s.st, cfg: s.cfg, onStart: logs.started, io: tally, crash: s.crash, fs: s.fs}
	}
	what := "running"
	if p.Warmup != nil {
		what = "warming up, then running"
	}
	s.notef("%s %d phase(s) on %d×%d %s workers", what, len(p.Phases), p.Procs, p.Goroutines, p.Mode)
	runErr := m.run(ctx, b)
	s.crash.stop()
	logs.close()
	if outside, ok := tally.outside(); ok && runErr == nil {
		b.AddIO(-1, outside)
	}
	if runErr == nil {
		measureSize(b, p, len(p.RunPhases())-1)
	}
	res := b.Result()
	if handed && runErr == nil {
		runErr = s.reopen(ctx)
	}
	if runErr == nil {
		res.Space = measureSpace(ctx, s.st, p)
	}
	res.StartedAt = started
	return res, b, runErr
}

// canVerifyAfter reports whether a run that failed with runErr can still
// be verified against its ledger: a worker process failed (not an
// interrupt: the user wants out), and every worker process is gone, so
// nothing writes any more. A goroutine worker that stalled may still be
// inside its op, so a run of goroutines is not.
func (s *session) canVerifyAfter(ctx context.Context, runErr error) bool {
	return s.ledger != nil && ctx.Err() == nil && s.cfg.Plan.Mode == workload.ModeProcess &&
		(runErr == nil || errors.Is(runErr, ErrWorker))
}

// verify checks every key against the acknowledged writes (Plan.Verify),
// or runs a sql workload's check. died, if not nil, says which worker
// did not finish which phase: the run failed, and only the ledger is
// checked (see runner.VerifyDied).
func (s *session) verify(ctx context.Context, res *result.Result, died func(worker, phase int) bool) error {
	if a := s.cfg.Plan.Around(); a != nil && died == nil {
		s.notef("comparing the database at the run's end with the one its source recorded")
		if chk := a.After(s.cfg.Plan, dbdigest.File); chk != nil {
			res.Replay = chk
			return nil
		}
	}
	if p := s.cfg.Plan; p.SQL != nil && p.SQL.Check != "" && died == nil {
		s.notef("checking the database (%s)", p.SQL.Check)
		rep, err := runner.CheckSQL(ctx, s.st, p, acknowledged(res))
		res.Verify = rep
		return err
	}
	if s.ledger == nil {
		return nil
	}
	if died == nil {
		s.notef("verifying every key against the acknowledged writes")
	} else {
		s.notef("a worker failed: verifying every key against the writes acknowledged before it did")
	}
	var logErr error
	rep, err := runner.VerifyDied(ctx, s.st, s.cfg.Plan, s.ledger.records(&logErr), died)
	res.Verify = rep
	if err == nil {
		err = logErr
	}
	if rep != nil && died != nil {
		s.notef("verified %d keys against %d acknowledged writes: %d violations, %d keys holding a write in doubt (committed by a worker that died before reporting it)",
			rep.KeysChecked, rep.AckedWrites, rep.Violations, rep.InDoubt)
	}
	return err
}

// acknowledged counts the data ops of a run that succeeded, warm-up
// included: every one of them committed (a sql workload's scripts).
func acknowledged(res *result.Result) int64 {
	var n int64
	if w := res.Warmup; w != nil {
		n += w.Ops - w.Errors.Total
	}
	for _, ph := range res.Phases {
		t := ph.Total
		n += t.Count - t.NotFound - t.Errors.Total - t.Skipped
	}
	return n
}

// outcome marks the result incomplete when the run failed or a worker
// did not finish, and returns the run's error.
func outcome(ctx context.Context, res *result.Result, runErr error) error {
	switch {
	case runErr != nil && ctx.Err() != nil:
		res.Complete = false
		res.Problems = append([]string{"interrupted"}, res.Problems...)
		return ctx.Err()
	case runErr != nil:
		res.Complete = false
		res.Problems = append([]string{runErr.Error()}, res.Problems...)
		return runErr
	case !res.Complete:
		return fmt.Errorf("%w: %s", ErrWorker, strings.Join(res.Problems, "; "))
	}
	return nil
}

// betweenPhases runs, before phase's START and outside any measured
// window, what comes between phases: the size the previous phase left,
// then with ColdCache the dropping of the store's files from the page
// cache, or with Settle their writing back to the disk.
func betweenPhases(b *result.Builder, p *workload.Plan, phase int) {
	if phase > 0 {
		measureSize(b, p, phase-1)
	}
	switch {
	case p.ColdCache:
		note := "dropped"
		if err := disk.DropCache(p.Store.Path); err != nil {
			note = "not dropped: " + err.Error()
		}
		b.SetPageCache(phase, note)
	case p.Settle:
		note := "written back"
		if err := disk.Settle(p.Store.Path); err != nil {
			note = "not written back: " + err.Error()
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
