package coord

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/gobench/gobench/internal/sysinfo"
	"github.com/gobench/gobench/pkg/bytesize"
	"github.com/gobench/gobench/pkg/store"
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

// initStore runs the store's Init, its error said to be the setup's.
func initStore(ctx context.Context, st store.Store) error {
	if err := st.Init(ctx); err != nil {
		return fmt.Errorf("setting up the store: %w", err)
	}
	return nil
}
