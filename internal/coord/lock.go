package coord

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// ErrInUse marks a database another gobench run is using right now: two
// runs on one database would mix their writes, and each would verify the
// other's as lost.
var ErrInUse = errors.New("in use by another gobench run")

// ErrExists marks a path that must not exist and does: a replay's --db,
// which the replay writes the trace's snapshot to. Its text reads after
// the path: "PATH exists: ...".
var ErrExists = errors.New("exists")

// runLock is what a run holds on its database for its lifetime.
type runLock struct{ f *os.File }

// Unlock releases the lock.
func (l *runLock) Unlock() {
	if l != nil && l.f != nil {
		l.f.Close()
	}
}

// setupLock serialises, among gobench runs, the setting up of databases in
// one directory: it holds the directory from before a run looks for its
// database's lock until it holds it, so that two runs creating the same
// new database cannot both set it up. It returns a function that releases
// the directory.
func setupLock(path string) (release func(), err error) {
	d, err := os.Open(filepath.Dir(path))
	if err != nil {
		return nil, fmt.Errorf("locking the directory of %s: %w", path, err)
	}
	if err := lockDir(d, true); err != nil {
		d.Close()
		return nil, fmt.Errorf("locking the directory of %s: %w", path, err)
	}
	return func() { d.Close() }, nil
}

// lockRun takes the run's lock on the database at path, if it exists: a
// file or a directory. It fails with ErrInUse when another run holds it.
func lockRun(path string) (*runLock, error) {
	fi, err := os.Stat(path)
	switch {
	case os.IsNotExist(err):
		return nil, nil // nothing on disk to share (an in-memory database)
	case err != nil:
		return nil, err
	}
	var f *os.File
	if fi.IsDir() {
		if f, err = os.Open(path); err == nil {
			err = lockDir(f, false)
		}
	} else if fi.Mode().IsRegular() {
		if f, err = os.OpenFile(path, os.O_RDWR, 0); err == nil {
			err = lockFile(f)
		}
	} else {
		return nil, nil
	}
	if err != nil {
		if f != nil {
			f.Close()
		}
		if errors.Is(err, errLocked) {
			return nil, fmt.Errorf("%s: %w: wait for it to end, or give another --db", path, ErrInUse)
		}
		return nil, fmt.Errorf("locking %s: %w", path, err)
	}
	return &runLock{f: f}, nil
}

// errLocked is what the per-OS lock functions return when another run
// holds the lock.
var errLocked = errors.New("locked")
