//go:build !linux

package recfs

import (
	"fmt"
	"runtime"

	"github.com/gobench/gobench/pkg/store"
)

// Available says that the recording file system runs on Linux only.
func Available() error {
	return fmt.Errorf("%w: gobench mounts it on Linux only, not on %s", ErrUnavailable, runtime.GOOS)
}

// FS is a mounted recording file system; there is none here.
type FS struct{}

// Mount fails: see Available.
func Mount(Config) (*FS, error) { return nil, Available() }

// Counts returns nothing.
func (*FS) Counts() store.IOCounts { return store.IOCounts{} }

// Start fails: see Available.
func (*FS) Start(string, string, int64) error { return Available() }

// End does nothing.
func (*FS) End() error { return nil }

// Unmount does nothing.
func (*FS) Unmount() error { return nil }

// Stale is a recording file system's mount whose helper is gone.
type Stale struct {
	Dir string
	PID int
	Err error
}

// CleanStale finds nothing: nothing is mounted here.
func CleanStale(string) []Stale { return nil }

// detach has nothing to unmount here.
func detach(string) error { return nil }

// mounted finds nothing mounted here.
func mounted(string) bool { return false }

// Within finds nothing: nothing is mounted here.
func Within(string) (Live, bool) { return Live{}, false }

// Live is a recording file system's mount whose helper serves it.
type Live struct {
	Dir string
	PID int
}
