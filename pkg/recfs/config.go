package recfs

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync/atomic"

	"github.com/gobench/gobench/pkg/store"
)

// FSType is the type a recording file system's mounts have in
// /proc/self/mountinfo; their source is SourcePrefix and the process id
// of the helper that serves them.
const (
	FSType       = "fuse.gobench-rec"
	SourcePrefix = "gobench-rec:"
)

// TreeFile is the name, in a run's base directory, of the list of the
// recorded files and directories at the run's start (see
// crashstate.Options.Tree); each file's contents are beside it, named
// by the file's number.
const TreeFile = "tree"

// ErrUnavailable marks a machine where the recording file system cannot
// be mounted: no FUSE, no permission, another OS.
var ErrUnavailable = errors.New("the FUSE recording file system is not available here")

// Config is what the helper mounts and records.
type Config struct {
	// Dir is the directory to mount over, absolute: the engine's.
	Dir string `json:"dir"`
	// Prefix, when set, limits what is recorded and counted to the
	// entries of Dir whose names begin with it, and what is beneath
	// them; the other entries pass through unrecorded.
	Prefix string `json:"prefix,omitempty"`
	// Roles give files their role by the end of their names; the others
	// are the database's.
	Roles []store.RoleSuffix `json:"roles,omitempty"`
	// Scratch are the ends of the names of files that are counted but
	// not recorded (store.DiskFiles.Scratch).
	Scratch []string `json:"scratch,omitempty"`
	// FailSync, when not 0, makes the FailSync-th fsync or fdatasync of
	// a recorded file while the file system records (counting from 1)
	// sync nothing and return EIO, recorded with iorecord.FlagFailed
	// (store.CrashFsyncFail).
	FailSync int64 `json:"fail_sync,omitempty"`
}

// NewConfig returns the configuration that records the files f says a
// store keeps.
func NewConfig(f store.DiskFiles) (Config, error) {
	dir, err := filepath.Abs(f.Dir)
	if err != nil {
		return Config{}, err
	}
	return Config{Dir: filepath.Clean(dir), Prefix: f.Prefix, Roles: f.Roles, Scratch: f.Scratch}, nil
}

// Validate checks a configuration a helper got.
func (c Config) Validate() error {
	switch {
	case !filepath.IsAbs(c.Dir):
		return fmt.Errorf("recording file system: %q is not an absolute directory", c.Dir)
	case strings.Contains(c.Prefix, "/"):
		return fmt.Errorf("recording file system: a prefix with a slash: %q", c.Prefix)
	}
	for _, r := range c.Roles {
		if r.Role < 0 || r.Role >= store.NumRoles || r.Suffix == "" {
			return fmt.Errorf("recording file system: role %d for %q", r.Role, r.Suffix)
		}
	}
	return nil
}

// roleOf returns the role of a file named name.
func (c Config) roleOf(name string) int {
	return store.DiskFiles{Roles: c.Roles}.RoleOf(name)
}

// scratch reports whether a file named name is counted but not
// recorded.
func (c Config) scratch(name string) bool {
	for _, s := range c.Scratch {
		if strings.HasSuffix(name, s) {
			return true
		}
	}
	return false
}

// tracks reports whether an entry named name of the mounted directory
// is recorded.
func (c Config) tracks(name string) bool {
	return strings.HasPrefix(name, c.Prefix)
}

// counters count what the recorded files receive, by role, one atomic
// add per event. The zero value is ready.
type counters struct {
	roles [store.NumRoles]roleCounters
}

type roleCounters struct {
	writes, bytes, syncs, data, syncWrites, truncates, deletes, dirSyncs atomic.Int64
}

func (c *counters) role(role int) *roleCounters {
	if role < 0 || role >= store.NumRoles {
		role = store.RoleOther
	}
	return &c.roles[role]
}

// snapshot reads every count.
func (c *counters) snapshot() store.IOCounts {
	var io store.IOCounts
	for i := range c.roles {
		r := &c.roles[i]
		*io.Role(i) = store.FileIO{
			Writes: r.writes.Load(), Bytes: r.bytes.Load(),
			Syncs: r.syncs.Load(), DataSyncs: r.data.Load(), SyncWrites: r.syncWrites.Load(),
			Truncates: r.truncates.Load(), Deletes: r.deletes.Load(), DirSyncs: r.dirSyncs.Load(),
		}
	}
	return io
}
