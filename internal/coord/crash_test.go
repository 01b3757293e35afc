package coord

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/gobench/gobench/pkg/recfs"
	"github.com/gobench/gobench/pkg/result"
	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/store/all"
	"github.com/gobench/gobench/pkg/store/sqlite"
	"github.com/gobench/gobench/pkg/sysinfo"
	"github.com/gobench/gobench/pkg/workload"
)

// crashPlan is a write-heavy mix with a power-cut simulation of states
// states.
func crashPlan(t *testing.T, driver, journal, sync string, procs int, ops int64, states int) *workload.Plan {
	p := workload.DefaultPlan()
	p.Driver, p.Procs = driver, procs
	p.Keys.Count, p.Preload = 500, 500
	p.Verify = true
	p.Crash = &workload.Crash{States: states, Model: store.CrashLose, RecordLimit: 256 << 20}
	p.Phases[0].Mix, _ = workload.ParseMix("read=20,upsert=80")
	p.Phases[0].Ops = ops
	o := sqlite.DefaultOptions()
	o.Journal, o.Sync = journal, sync
	p.Store = store.Config{Path: filepath.Join(t.TempDir(), "crash.db"), Options: o.Encode()}
	return &p
}

func runCrash(t *testing.T, p *workload.Plan) *result.Result {
	t.Helper()
	res, err := Run(context.Background(), Config{Plan: p, Registry: all.Registry(), Command: helper("serve"), ReadyTimeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	if res.Durability == nil {
		t.Fatal("a --crash run without its durability")
	}
	return res
}

// acknowledgedWrites counts the run's write ops that succeeded.
func acknowledgedWrites(res *result.Result) int64 {
	o, _ := res.Phases[0].Op("upsert")
	return o.Count - o.Errors.Total
}

// Worker processes record their I/O and acknowledgements into one
// record: every acknowledgement the samples counted is in it, the
// states asked for are built, and in WAL mode at FULL none lost a write
// or is corrupt; at NORMAL (no sync per commit, no checkpoint in so short
// a run) states lose acknowledged writes, and none is corrupt. In
// goroutine mode the same.
func TestCrashRun(t *testing.T) {
	for _, mode := range []string{workload.ModeProcess, workload.ModeGoroutine} {
		full := crashPlan(t, "ncruces", "wal", "full", 2, 150, 8)
		full.Mode = mode
		res := runCrash(t, full)
		d := res.Durability
		if d.States != 8 || d.Corrupt != 0 || d.Lossy != 0 || d.Checked == 0 || d.Acked != acknowledgedWrites(res) || d.Events == 0 {
			t.Errorf("%s, WAL at FULL: %+v (acknowledged writes: %d)", mode, d, acknowledgedWrites(res))
		}
		normal := crashPlan(t, "ncruces", "wal", "normal", 2, 150, 8)
		normal.Mode = mode
		d = runCrash(t, normal).Durability
		if d.Lossy == 0 || d.Corrupt != 0 || d.MaxLost == 0 || d.MaxLostAgeMicros <= 0 {
			t.Errorf("%s, WAL at NORMAL: %+v", mode, d)
		}
	}
}

// A record that reaches its limit stops: the states come from the part
// recorded, and the result says the record filled. Values of 64 KiB make
// every commit write some 32 pages, so a handful of commits fill the
// record; a machine too loaded to make them in the phase's time gets a
// longer phase.
func TestCrashRecordFills(t *testing.T) {
	for secs := 2; ; secs *= 2 {
		p := crashPlan(t, "ncruces", "rollback", "full", 1, 0, 4)
		p.ValueSize = 64 << 10
		p.Phases[0].Ops, p.Phases[0].Duration = 0, workload.Duration(time.Duration(secs)*time.Second)
		p.Crash.RecordLimit = 1 << 20
		d := runCrash(t, p).Durability
		if !d.Full && secs < 32 {
			t.Logf("the record did not fill in %d s (%d acknowledged commits): again, longer", secs, d.Acked)
			continue
		}
		if !d.Full || d.States == 0 || d.RecordBytes > 2<<20 {
			t.Errorf("a record of 1 MiB at most: %+v", d)
		}
		return
	}
}

// --crash is refused, before anything is set up, on a driver that keeps
// no files to record, on one whose files only the FUSE recording file
// system can record where it cannot be mounted, and when the record
// cannot fit its limit.
func TestCrashRefused(t *testing.T) {
	reg := all.Registry()
	for _, driver := range []string{"null", "map"} {
		p := crashPlan(t, driver, "wal", "full", 1, 100, 4)
		p.Store.Options, p.Mode = nil, workload.ModeGoroutine
		if err := checkCrash(p, reg, t.TempDir()); !errors.Is(err, store.ErrInvalid) || !strings.Contains(err.Error(), "keeps no files") {
			t.Errorf("%s: %v", driver, err)
		}
	}
	p := crashPlan(t, "modernc", "wal", "full", 1, 100, 4)
	p.Store.Options = sqlite.DefaultOptions().Encode()
	err := checkCrash(p, reg, t.TempDir())
	if fuse := recfs.Available(); fuse == nil && err != nil {
		t.Errorf("modernc, recorded by the file system: %v", err)
	} else if fuse != nil && (!errors.Is(err, store.ErrInvalid) || !strings.Contains(err.Error(), "fuse3")) {
		t.Errorf("modernc without FUSE (%v): %v", fuse, err)
	}
	p = crashPlan(t, "ncruces", "wal", "full", 4, 1_000_000, 4)
	p.Crash.RecordLimit = 1 << 20
	if err := p.Validate(); err == nil {
		t.Error("a run whose record cannot fit its limit was accepted")
	}
	p = crashPlan(t, "ncruces", "wal", "full", 1, 100, 4)
	p.Crash.RecordLimit = 1 << 62
	if err := checkCrash(p, reg, t.TempDir()); !errors.Is(err, store.ErrInvalid) {
		t.Errorf("a record limit beyond the free space: %v", err)
	}
	if err := checkCrash(crashPlan(t, "ncruces", "wal", "full", 1, 100, 4), reg, t.TempDir()); err != nil {
		t.Errorf("a run that fits: %v", err)
	}
	// A record that fits alone, but not beside the database and the two
	// copies the simulation makes of it (the run completed, then failed).
	dir := t.TempDir()
	free, ok := sysinfo.FreeBytes(dir)
	if !ok {
		t.Skip("no free space figure here")
	}
	p = crashPlan(t, "ncruces", "wal", "full", 1, 100, 4)
	p.ValueSize, p.ValueVariance = workload.MaxValueSize, 0
	p.Preload = uint64(free/2) / uint64(workload.MaxValueSize)
	p.Keys.Count = max(p.Keys.Count, p.Preload)
	p.Crash.RecordLimit = free / 4
	if err := checkCrash(p, reg, dir); !errors.Is(err, store.ErrInvalid) || !strings.Contains(err.Error(), "the two copies of it the simulation makes") {
		t.Errorf("a record that fits only without the copies: %v", err)
	}
}

// What SQLite documents, measured (the full tier: 4 processes writing
// 80% of their ops, 30 power cuts each): in WAL mode at FULL and with the
// rollback journal at EXTRA, no state loses an acknowledged write or is
// corrupt; in WAL mode at NORMAL, states lose acknowledged writes, and
// none is corrupt.
func TestCrashWhatSQLiteDocuments(t *testing.T) {
	if testing.Short() {
		t.Skip("30 power cuts of three runs: the full tier")
	}
	if _, err := all.Registry().Lookup("mattn"); err != nil {
		t.Skip("mattn needs cgo")
	}
	for _, c := range []struct {
		journal, sync string
		lossy         bool
	}{{"wal", "full", false}, {"rollback", "extra", false}, {"wal", "normal", true}} {
		d := runCrash(t, crashPlan(t, "mattn", c.journal, c.sync, 4, 400, 30)).Durability
		t.Logf("%s/%s: %d states, %d corrupt, %d lost acknowledged writes (at most %d in one, the oldest acknowledged %.0f µs before its crash)", c.journal, c.sync, d.States, d.Corrupt, d.Lossy, d.MaxLost, d.MaxLostAgeMicros)
		if d.States != 30 || d.Corrupt != 0 || (d.Lossy > 0) != c.lossy {
			t.Errorf("%s/%s: %+v", c.journal, c.sync, d)
		}
	}
}

// Batched writes are acknowledged together when their COMMIT returns:
// every one is in the record, and none is lost in WAL mode at FULL.
func TestCrashRunBatched(t *testing.T) {
	p := crashPlan(t, "ncruces", "wal", "full", 1, 200, 6)
	p.Mode, p.Goroutines, p.Phases[0].Batch = workload.ModeGoroutine, 2, 4
	res := runCrash(t, p)
	d := res.Durability
	if d.Acked == 0 || d.Acked != acknowledgedWrites(res) || d.Lossy != 0 || d.Corrupt != 0 {
		t.Errorf("batches of 4: %+v (acknowledged writes: %d)", d, acknowledgedWrites(res))
	}
}

// failAt is the ncruces driver, whose crash state number n (counted as
// the states are opened) fails its integrity check with fail's error
// (fail may cancel the run first, as an interrupt does).
type failAt struct {
	*sqlite.Driver
	main   string
	n      int32
	opened atomic.Int32
	fail   func(ctx context.Context) error
}

func (d *failAt) Open(ctx context.Context, cfg store.Config) (store.Store, error) {
	st, err := d.Driver.Open(ctx, cfg)
	if err != nil || cfg.Path == d.main || d.opened.Add(1) != d.n {
		return st, err
	}
	return failingCheck{Store: st, fail: d.fail}, nil
}

// failingCheck is a store whose Check fails with fail's error, after
// fail ran.
type failingCheck struct {
	store.Store
	fail func(ctx context.Context) error
}

func (f failingCheck) Check(ctx context.Context) ([]string, error) {
	if err := f.fail(ctx); err != nil {
		return nil, err
	}
	return f.Store.(store.Checker).Check(ctx)
}

// A check of crash states stopped by an interrupt (the cancel lands while
// state 3 is being checked, and SQLite's own check then refuses to go on)
// or by an I/O error of the machine's (a full disk while state 3 opens)
// counts no state corrupt: the states checked before it stand, the
// durability says the checking stopped and why, and the result is
// incomplete, interrupted or failed.
func TestCrashCheckStopped(t *testing.T) {
	for _, tt := range []struct {
		name   string
		fail   func(cancel context.CancelFunc) func(ctx context.Context) error
		wantIs error
	}{
		{"interrupted", func(cancel context.CancelFunc) func(ctx context.Context) error {
			return func(ctx context.Context) error {
				cancel()
				<-ctx.Done()
				return nil // the real check then meets the cancelled ctx
			}
		}, context.Canceled},
		{"disk full", func(context.CancelFunc) func(ctx context.Context) error {
			return func(context.Context) error {
				return fmt.Errorf("opening state: %w", store.Wrap(store.Full, syscall.ENOSPC))
			}
		}, store.ErrFull},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			p := crashPlan(t, "ncruces", "wal", "normal", 2, 150, 6)
			drv := &failAt{Driver: sqlite.Ncruces(), main: p.Store.Path, n: 3, fail: tt.fail(cancel)}
			reg := store.NewRegistry()
			reg.Register(drv)
			res, err := Run(ctx, Config{Plan: p, Registry: reg, Command: helper("serve"), ReadyTimeout: time.Minute})
			if !errors.Is(err, tt.wantIs) {
				t.Fatalf("Run: %v, want %v", err, tt.wantIs)
			}
			if drv.opened.Load() < 3 {
				t.Fatalf("%d states opened: the failure was never injected", drv.opened.Load())
			}
			d := res.Durability
			if d == nil || d.Corrupt != 0 || d.States != 2 || d.Stopped == "" {
				t.Fatalf("durability %+v: want 2 states checked, none corrupt, and why the checking stopped", d)
			}
			if res.Complete || len(res.Problems) == 0 {
				t.Errorf("the result is complete (%v), problems %q", res.Complete, res.Problems)
			}
			t.Logf("stopped: %s; problems: %q", d.Stopped, res.Problems)
		})
	}
}
