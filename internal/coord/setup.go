package coord

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/gobench/gobench/pkg/bytesize"
	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/sysinfo"
	"github.com/gobench/gobench/pkg/workload"
)

// ErrSetupInterrupted marks a run interrupted while it set up its store,
// before anything was measured. It also matches context.Canceled.
var ErrSetupInterrupted = errors.New("interrupted while setting up the store, before anything was measured")

// setupError is an interruption during setup, saying how far setup got.
type setupError struct{ detail error }

func (e setupError) Error() string { return ErrSetupInterrupted.Error() + ": " + e.detail.Error() }

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
// every `every` (ten seconds by default), with the share done and an ETA,
// and one when the preload is done, with its time.
func preloadProgress(logf func(string, ...any), total uint64, every time.Duration) func(uint64) {
	if every <= 0 {
		every = 10 * time.Second
	}
	var t0, last time.Time
	return func(done uint64) {
		now := time.Now()
		switch {
		case done == 0:
			t0, last = now, now
		case done >= total:
			logf("preloaded %d rows in %v", total, now.Sub(t0).Round(time.Millisecond))
		case now.Sub(last) >= every:
			last = now
			frac := float64(done) / float64(total)
			eta := time.Duration(float64(now.Sub(t0)) * (1 - frac) / frac).Round(time.Second)
			logf("preloading: %d of %d rows (%.0f%%), ETA %v", done, total, 100*frac, eta)
		}
	}
}

// checkRoom refuses, before the store is set up, a plan whose data alone
// cannot fit in the free space of the database's file system (see
// Plan.MinStoredBytes: preloaded or inserted values, pgbench's tables at
// --scale): no engine stores them in less, and the run would fill the
// disk instead.
func checkRoom(p *workload.Plan) error {
	if p.Store.Path == "" {
		return nil
	}
	return checkRoomIn(p, filepath.Dir(p.Store.Path))
}

// checkRoom refuses, before the first run, a cell whose data cannot fit
// in the free space where its databases go (see checkRoom): the --db's
// directory, --dir, or the OS's temporary directory.
func (c *Cells) checkRoom() error {
	dir := c.Dir
	switch {
	case c.DB != "":
		dir = filepath.Dir(c.DB)
	case dir == "":
		dir = os.TempDir()
	}
	for _, p := range c.Plans {
		if err := checkRoomIn(p, dir); err != nil {
			return err
		}
		if err := checkCrash(p, c.Base.Registry, dir); err != nil {
			return err
		}
	}
	return nil
}

// checkRoomIn is checkRoom for a database in dir.
func checkRoomIn(p *workload.Plan, dir string) error {
	need := p.MinStoredBytes()
	if need == 0 {
		return nil
	}
	free, ok := sysinfo.FreeBytes(dir)
	if !ok || need <= float64(free) {
		return nil
	}
	what, fix := "", "lower --scale"
	if p.SQL != nil && p.SQL.MinBytes() > 0 {
		what = fmt.Sprintf("pgbench's tables at scale %d", p.SQL.Scale)
	} else {
		per := p.ValueSize - p.ValueVariance
		what = fmt.Sprintf("%.0f rows of at least %d bytes", need/float64(per), per)
		fix = "lower --keys, --rows, --count or the value size"
	}
	u := bytesize.Units{}
	return fmt.Errorf("%w: %s need at least %s, and the file system of %s has %s free (%s, or give a --db or --dir elsewhere)",
		store.ErrInvalid, what, u.Round(int64(min(need, 1<<62))), dir, u.Round(free), fix)
}

// precheck refuses, reading it only (see store.Prechecker), a database
// at path that the store's Init would refuse, before the run opens it to
// lock it.
func precheck(st store.Store) error {
	if pc, ok := st.(store.Prechecker); ok {
		return pc.Precheck()
	}
	return nil
}

// precheckFrom refuses, before copying it, a sql workload's --from that
// the store would refuse once copied (as it takes the copy, with Reuse):
// a file that is not a database of the engine's, one with another
// database's -wal beside it.
func precheckFrom(ctx context.Context, reg *store.Registry, p *workload.Plan) error {
	if reg == nil || p.SQL == nil || p.SQL.From == "" {
		return nil
	}
	drv, err := reg.Lookup(p.Driver)
	if err != nil {
		return err
	}
	cfg := p.Store
	cfg.Path, cfg.Reuse = p.SQL.From, true
	st, err := drv.Open(ctx, cfg)
	if err != nil {
		return err
	}
	defer st.Close()
	if err := precheck(st); err != nil {
		return fmt.Errorf("--from: %w", err)
	}
	return nil
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
	if err := precheck(st); err != nil {
		return nil, err
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

// initStore runs the store's Init, its error said to be the setup's.
func initStore(ctx context.Context, st store.Store) error {
	if err := st.Init(ctx); err != nil {
		return fmt.Errorf("setting up the store: %w", err)
	}
	return nil
}
