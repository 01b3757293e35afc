package coord

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/gobench/gobench/pkg/bytesize"
	"github.com/gobench/gobench/pkg/crashstate"
	"github.com/gobench/gobench/pkg/iorecord"
	"github.com/gobench/gobench/pkg/recfs"
	"github.com/gobench/gobench/pkg/result"
	"github.com/gobench/gobench/pkg/runner"
	"github.com/gobench/gobench/pkg/sqltrace/dbdigest"
	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/sysinfo"
	"github.com/gobench/gobench/pkg/workload"
)

// crashRun is a --crash run's recording: where its record and the files
// copied at START go, and the store that records.
type crashRun struct {
	dir string
	// owner is the locked file that marks dir as this run's while it
	// lives (see ownCrashDir); nil where the OS cannot lock it.
	owner *os.File
	rec   store.Record
	pcs   store.PowerCutStore
	// layout says how the states find the store's files in the record
	// and its copies (crashstate.Options: Files, and Tree under the file
	// system recorder).
	layout crashstate.Options
	// acks says the workers append their acknowledgements themselves
	// (the recording file system records the files).
	acks    bool
	started bool
	stopErr error
}

// checkCrash refuses, before anything is set up, a --crash (or
// --io-trace) plan whose driver cannot record it, or whose recording
// file system this machine cannot mount, or whose record's limit,
// database and the simulation's copies of it do not fit in the free
// space of dir (where the database goes). That the run fits its limit
// is the plan's own check (workload.Plan.Validate).
func checkCrash(p *workload.Plan, reg *store.Registry, dir string) error {
	if reg != nil && (p.Crash != nil || p.IOTrace != "") {
		drv, err := reg.Lookup(p.Driver)
		if err != nil {
			return err
		}
		if err := workload.CheckDriver(p, drv); err != nil {
			if !errors.Is(err, store.ErrInvalid) {
				err = fmt.Errorf("%w: %w", store.ErrInvalid, err)
			}
			return err
		}
		if trace, _ := workload.IOTraceOf(p, drv); trace == workload.IOTraceFS {
			what := "--io-trace fs"
			if p.Crash != nil {
				what = "--crash"
			}
			if err := checkFSRecorder(fmt.Sprintf("%s on %s records its I/O through a FUSE file system", what, p.Driver)); err != nil {
				return err
			}
		}
	}
	c := p.Crash
	if c == nil {
		return nil
	}
	// Beside the database, the record and the simulation's two copies
	// of the database: its files at the start, and the state being
	// built (a copy replayed to its cut), each at least the data's size.
	u := bytesize.Units{}
	data := p.MinStoredBytes()
	need := float64(c.RecordLimit) + 3*data
	if free, ok := sysinfo.FreeBytes(dir); ok && need > float64(free) {
		return fmt.Errorf("%w: --crash: a crash record of up to --crash-record-limit %s, the database and the two copies of it the simulation makes (%s each at the least) do not fit in the %s free on the file system of %s: lower the limit, or give a --db or --dir elsewhere",
			store.ErrInvalid, u.Round(c.RecordLimit), u.Round(int64(data)), u.Round(free), dir)
	}
	return nil
}

// newCrashRun makes the directory of a --crash run's record, beside its
// database, and an empty record in it.
func newCrashRun(s *session, st store.Store) (*crashRun, error) {
	p := s.cfg.Plan
	if p.Crash == nil {
		return nil, nil
	}
	pcs, ok := st.(store.PowerCutStore)
	df, named := s.drv.(store.DiskFiler)
	beside := filepath.Dir(p.Store.Path)
	var layout crashstate.Options
	if s.fs != nil {
		// Outside the mount, beside the directory it covers.
		pcs, ok, beside = s.fs, true, filepath.Dir(s.fs.files.Dir)
		layout = crashstate.Options{Files: s.fs.files, Tree: recfs.TreeFile}
	} else if ok && named {
		files, err := df.DiskFiles(p.Store)
		if err != nil {
			return nil, fmt.Errorf("%w: --crash: %w", store.ErrInvalid, err)
		}
		layout = crashstate.Options{Files: files}
	}
	if !ok || !named {
		return nil, fmt.Errorf("%w: --crash: the %s driver's store cannot record a run", store.ErrInvalid, p.Driver)
	}
	sweepCrashDirs(beside, s.notef)
	if strings.HasPrefix(filepath.Base(beside), "gobench-") {
		// A run without --db: those of earlier such runs are in the
		// temporary directories beside this one's.
		sweepCrashDirs(filepath.Dir(beside), s.notef)
	}
	dir, err := os.MkdirTemp(beside, crashDirPrefix)
	if err != nil {
		return nil, fmt.Errorf("--crash: %w", err)
	}
	owner, err := ownCrashDir(dir)
	if err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("--crash: %w", err)
	}
	rec := store.Record{Path: filepath.Join(dir, "record"), Limit: p.Crash.RecordLimit, FailSync: p.Crash.FailSync(p.Seed)}
	f, err := os.OpenFile(rec.Path, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if err == nil {
		err = f.Close()
	}
	if err != nil {
		os.RemoveAll(dir)
		if owner != nil {
			owner.Close()
		}
		return nil, fmt.Errorf("--crash: %w", err)
	}
	return &crashRun{dir: dir, owner: owner, rec: rec, pcs: pcs, layout: layout, acks: s.fs != nil}, nil
}

// record returns what the plan of a worker process carries so that its
// engine records its I/O, or nil.
func (c *crashRun) record() *store.Record {
	if c == nil || c.acks {
		return nil
	}
	return &c.rec
}

// ackRecord returns what a plan's workers append their acknowledgements
// to themselves (workload.Plan.AckRecord), or nil.
func (c *crashRun) ackRecord() *store.Record {
	if c == nil || !c.acks {
		return nil
	}
	return &c.rec
}

// start copies the database's files and marks the run's start in the
// record, before the first phase's START: every worker is ready, none
// writes. A record that started in the setup (startSetup) goes on.
func (c *crashRun) start(phase int) error {
	if c == nil || phase != 0 || c.started {
		return nil
	}
	c.started = true
	return c.pcs.StartRecording(c.dir, c.rec)
}

// startSetup starts the record of a plan whose record starts at from
// (workload.CrashFromOpen, before the store's Init; CrashFromPreload,
// before its preload) on st, the store being set up, making the crash
// run first: the copies are of the files as they are (none, for a new
// store), and every cut from here on may land in the setup.
func (s *session) startSetup(st store.Store, from string) error {
	c := s.cfg.Plan.Crash
	if c == nil || c.From != from || s.crash != nil {
		return nil
	}
	var err error
	if s.crash, err = newCrashRun(s, st); err != nil {
		return err
	}
	s.crash.started = true
	if err := s.crash.pcs.StartRecording(s.crash.dir, s.crash.rec); err != nil {
		return err
	}
	s.notef("--crash-from %s: recording from before the store's %s", from, map[string]string{workload.CrashFromOpen: "creation and open", workload.CrashFromPreload: "preload"}[from])
	return nil
}

// preloaded appends, to a record started in the setup, the preload's
// acknowledgement (store.AckPreload): its last commit returned, so
// every preloaded row is acknowledged from here on.
func (c *crashRun) preloaded(rows uint64) error {
	if c == nil || !c.started {
		return nil
	}
	r, err := iorecord.OpenRecorder(c.rec.Path, c.rec.Limit)
	if err != nil {
		return fmt.Errorf("--crash: %w", err)
	}
	r.Append(iorecord.Event{Kind: iorecord.KindAck, Time: iorecord.Now(),
		Data: iorecord.AppendAck(nil, iorecord.Ack{Worker: -1, Phase: store.AckPreload, N: int(rows)})})
	if err := r.Close(); err != nil {
		return fmt.Errorf("--crash: the preload's acknowledgement: %w", err)
	}
	return nil
}

// stop marks the run's end in the record, once every worker is done.
func (c *crashRun) stop() {
	if c != nil && c.started {
		c.stopErr = c.pcs.StopRecording()
	}
}

// remove deletes the record and the copies.
func (c *crashRun) remove() {
	if c != nil {
		os.RemoveAll(c.dir)
		if c.owner != nil {
			c.owner.Close()
		}
	}
}

// simulate builds the run's crash states and checks each, into the
// result's Durability.
func (s *session) simulate(ctx context.Context, res *result.Result) error {
	c, p := s.crash, s.cfg.Plan
	if c == nil {
		return nil
	}
	if c.stopErr != nil {
		return fmt.Errorf("--crash: the record is incomplete: %w", c.stopErr)
	}
	if p.Crash.Exhaustive {
		s.notef("simulating a power cut after every persistence point of the run's record (%s model)", p.Crash.Model)
	} else {
		s.notef("simulating %d power cuts (%s model) at points of the run's record", p.Crash.States, p.Crash.Model)
	}
	x := runner.NewCrashIndex(p)
	if (p.SQL != nil || p.Replay != nil) && s.fs == nil && !p.Crash.FromSetup() {
		// The prefixes are rebuilt from the database as START found it:
		// a record from before the setup has no copy of that.
		src, release, err := hostSource(p, len(p.WorkerIDs()))
		if err != nil {
			return fmt.Errorf("--crash: %w", err)
		}
		defer release()
		x.SetContent(runner.ContentSums{
			Source:  src,
			Open:    func(path string) (runner.Rebuilder, error) { return dbdigest.OpenRebuild(path) },
			Sums:    dbdigest.FileSums,
			Base:    filepath.Join(c.dir, "base", filepath.Base(p.Store.Path)),
			End:     p.Store.Path,
			Scratch: filepath.Join(c.dir, "content"),
		})
	}
	d := result.NewDurability(p.Crash)
	o := c.layout
	o.Record, o.Base, o.Work = c.rec.Path, filepath.Join(c.dir, "base"), filepath.Join(c.dir, "work")
	o.Spec = store.CrashSpec{States: p.Crash.States, Model: p.Crash.Model, Seed: p.Seed,
		Exhaustive: p.Crash.Exhaustive, MaxPoints: workload.MaxExhaustivePoints}
	check := s.crashCheck()
	sum, err := crashstate.Build(ctx, o, x.Add, func(st store.CrashState) error {
		r, err := check(ctx, s.drv, p, st, x)
		if err != nil {
			return err
		}
		d.Add(st, r)
		return nil
	})
	if err == nil && s.fs != nil {
		err = s.fs.failed()
	}
	d.SetRecord(sum, x.Acks())
	if d.FailSync = p.Crash.FailSync(p.Seed); d.FailSync > 0 {
		d.FailedOps = ioErrors(res)
	}
	d.NotCompared = x.NotCompared()
	if err != nil {
		d.Stopped = err.Error()
	}
	if pr, ok := s.drv.(store.Promiser); ok {
		if promise, ok := pr.Promise(s.facts); ok {
			d.SetPromise(promise)
		}
	}
	res.Durability = d
	if sum.Full {
		s.notef("--crash: the record reached --crash-record-limit %s before the run ended: the crash states come from the part recorded", bytesize.Units{}.Round(c.rec.Limit))
	}
	if err != nil {
		return fmt.Errorf("--crash: %w", err)
	}
	return nil
}

// crashCheck returns how each of the run's crash states is checked: in
// this process (runner.CheckCrashState), after a second cut inside its
// recovery (store.CrashRecovery), or in a child process of its own where
// the engine's C code can abort the process that checks a broken state
// (store.CrashCheckIsolator).
func (s *session) crashCheck() crashCheck {
	c, p := s.crash, s.cfg.Plan
	switch {
	case p.Crash.Model == store.CrashRecovery:
		return func(ctx context.Context, drv store.Driver, p *workload.Plan, st store.CrashState, x *runner.CrashIndex) (workload.CrashResult, error) {
			return runner.CheckRecoveryCrash(ctx, drv, p, st, x, c.layout, p.Seed)
		}
	case isolatesCrashChecks(s.drv, p):
		command := s.cfg.CrashChecker
		if command == nil {
			command = crashCheckCommand
		}
		return checkInChild(command, c.rec.Path)
	}
	return runner.CheckCrashState
}

// ioErrors counts the run's ops that failed with an I/O error: under
// --crash-model fsync-fail, those its failed sync reached.
func ioErrors(res *result.Result) int64 {
	var n int64
	for _, ph := range res.Phases {
		n += ph.Total.Errors.IO
	}
	return n
}
