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
// disk instead. A database the driver keeps in memory (store.InMemory)
// is checked against the memory available instead (checkMemory).
func checkRoom(p *workload.Plan, drv store.Driver) error {
	if store.InMemory(drv, p.Store) {
		return checkMemory(p)
	}
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
		if drv, err := lookup(c.Base.Registry, p.Driver); err == nil && store.InMemory(drv, p.Store) {
			if err := checkMemory(p); err != nil {
				return err
			}
		} else if err := checkRoomIn(p, dir); err != nil {
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
	what, fix := needOf(p, need)
	u := bytesize.Units{}
	return fmt.Errorf("%w: %s need at least %s, and the file system of %s has %s free (%s, or give a --db or --dir elsewhere)",
		store.ErrInvalid, what, u.Round(int64(min(need, 1<<62))), dir, u.Round(free), fix)
}

// checkMemory refuses a plan whose database lives in memory (--storage
// memory; the map and btree engines) when its data alone (see
// Plan.MinStoredBytes) exceeds the memory available (sysinfo.
// AvailableMemory): the run would climb until the OOM killer or swap
// stopped it. Where the OS does not say, nothing is checked.
func checkMemory(p *workload.Plan) error {
	need := p.MinStoredBytes()
	if need == 0 {
		return nil
	}
	avail, ok := sysinfo.AvailableMemory()
	if !ok || need <= float64(avail) {
		return nil
	}
	what, fix := needOf(p, need)
	u := bytesize.Units{}
	return fmt.Errorf("%w: %s kept in memory need at least %s, and the machine has %s of memory available (%s, or keep the database on disk: --storage disk or ramdisk)",
		store.ErrInvalid, what, u.Round(int64(min(need, 1<<62))), u.Round(avail), fix)
}

// needOf names what takes need bytes of p's database, and the flags
// that lower it.
func needOf(p *workload.Plan, need float64) (what, fix string) {
	if p.SQL != nil && p.SQL.MinBytes() > 0 {
		return fmt.Sprintf("pgbench's tables at scale %d", p.SQL.Scale), "lower --scale"
	}
	per := p.ValueSize - p.ValueVariance
	return fmt.Sprintf("%.0f rows of at least %d bytes", need/float64(per), per), "lower --keys, --rows, --count or the value size"
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

// lookup finds a driver in reg, which may be nil (no driver then).
func lookup(reg *store.Registry, name string) (store.Driver, error) {
	if reg == nil {
		return nil, fmt.Errorf("%w: no registry to find driver %q in", store.ErrInvalid, name)
	}
	return reg.Lookup(name)
}
