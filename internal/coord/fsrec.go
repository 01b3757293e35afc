package coord

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"

	"github.com/gobench/gobench/pkg/recfs"
	"github.com/gobench/gobench/pkg/result"
	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/sysinfo"
	"github.com/gobench/gobench/pkg/workload"
)

// fsRecorder is the FUSE recording file system a run's store works
// through (Plan.IOTrace fs): its helper process, what the store's files
// are, and the counts at each phase's START. It records a --crash run as
// a store.PowerCutStore does.
type fsRecorder struct {
	h     *recfs.Helper
	files store.DiskFiles
	// filesystem and mountOptions are the database directory's, read
	// before the mount hid them.
	filesystem, mountOptions string

	mu    sync.Mutex
	start map[int]store.IOCounts
	err   error
}

var _ store.PowerCutStore = (*fsRecorder)(nil)

// cleanStaleMounts unmounts the recording file systems earlier runs left
// (their helper killed with them: over the store's directory of the plan,
// beside it, or anywhere else; see recfs.CleanStale), and says so.
func cleanStaleMounts(drv store.Driver, cfg store.Config, notef func(string, ...any)) {
	dir := filepath.Dir(cfg.Path)
	if df, ok := drv.(store.DiskFiler); ok {
		if files, err := df.DiskFiles(cfg); err == nil {
			dir = files.Dir
		}
	}
	for _, st := range recfs.CleanStale(dir) {
		if st.Err != nil {
			notef("a recording file system left by an earlier run (its helper, process %d, is gone) is mounted over %s, and unmounting it failed: %v", st.PID, st.Dir, st.Err)
			continue
		}
		notef("unmounted a recording file system left over %s by an earlier run (its helper, process %d, is gone)", st.Dir, st.PID)
	}
}

// checkNotRecorded refuses (ErrInUse) a database inside a directory over
// which another run's recording file system is mounted (a --crash run
// under way): its record would take this run's writes, and its power
// cuts would cut them too.
func checkNotRecorded(p *workload.Plan) error {
	if p.Store.Path == "" {
		return nil
	}
	if m, ok := recfs.Within(p.Store.Path); ok {
		return fmt.Errorf("%s: %w: it lies inside %s, whose I/O another run records (through gobench's file system, served by process %d), and its record would take this run's writes; wait for it to end, or give --db a path outside it", p.Store.Path, ErrInUse, m.Dir, m.PID)
	}
	return nil
}

// checkFSRecorder refuses, before anything is set up, a run whose I/O
// the file system must record on a machine where it cannot be mounted.
func checkFSRecorder(why string) error {
	if err := recfs.Available(); err != nil {
		return fmt.Errorf("%w: %s: %w", store.ErrInvalid, why, err)
	}
	return nil
}

// startFSRecorder mounts the recording file system over the directory of
// the plan's store, before anything opens it.
func startFSRecorder(s *session) (*fsRecorder, error) {
	p := s.cfg.Plan
	df, ok := s.drv.(store.DiskFiler)
	if !ok {
		return nil, fmt.Errorf("%w: --io-trace fs: the %s driver keeps no files", store.ErrInvalid, p.Driver)
	}
	files, err := df.DiskFiles(p.Store)
	if err != nil {
		return nil, fmt.Errorf("%w: --io-trace fs: %w", store.ErrInvalid, err)
	}
	if err := readyToMount(files); err != nil {
		return nil, err
	}
	cfg, err := recfs.NewConfig(files)
	cfg.FailSync = p.Crash.FailSync(p.Seed)
	if err != nil {
		return nil, err
	}
	newCmd := s.cfg.Recorder
	if newCmd == nil {
		newCmd = recorderCommand
	}
	cmd, err := newCmd()
	if err != nil {
		return nil, err
	}
	ownGroup(cmd)
	r := &fsRecorder{files: files, start: map[int]store.IOCounts{}}
	r.filesystem, r.mountOptions = sysinfo.Filesystem(files.Dir), sysinfo.MountOptions(files.Dir)
	if r.h, err = recfs.Start(cmd, cfg); err != nil {
		return nil, fmt.Errorf("%w: --io-trace fs: %w", store.ErrInvalid, err)
	}
	s.notef("recording the I/O of %s through gobench's FUSE file system mounted over it", cfg.Dir)
	return r, nil
}

// readyToMount makes the directory of a store that keeps one of its own
// (its Init accepts it empty), and refuses to mount over a directory the
// store shares with files not its own: they would pass through the
// recorder for the run, and be cut off if it died.
func readyToMount(f store.DiskFiles) error {
	if f.Prefix == "" {
		if err := os.MkdirAll(f.Dir, 0o755); err != nil {
			return fmt.Errorf("--io-trace fs: %w", err)
		}
		return nil
	}
	entries, err := os.ReadDir(f.Dir)
	if err != nil {
		return fmt.Errorf("%w: --io-trace fs: %w", store.ErrInvalid, err)
	}
	var others []string
	for _, e := range entries {
		if !strings.HasPrefix(e.Name(), f.Prefix) && !strings.HasPrefix(e.Name(), ".gobench-") {
			others = append(others, e.Name())
		}
	}
	if len(others) > 0 {
		more := ""
		if len(others) > 3 {
			others, more = others[:3], ", …"
		}
		return fmt.Errorf("%w: --io-trace fs mounts a file system over the database's directory %s, which holds files not the database's (%s%s): give --db a directory of its own", store.ErrInvalid, f.Dir, strings.Join(others, ", "), more)
	}
	return nil
}

// recorderCommand re-executes this program as the recording file
// system's helper.
func recorderCommand() (*exec.Cmd, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("finding the gobench executable to start the recording file system: %w", err)
	}
	return exec.Command(exe, "recordfs"), nil
}

// read returns what the recorded files received since the mount.
func (r *fsRecorder) read() (store.IOCounts, bool) {
	c, err := r.h.Counts()
	if err != nil {
		r.fail(err)
		return c, false
	}
	return c, true
}

func (r *fsRecorder) fail(err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.err == nil {
		r.err = err
	}
}

// started notes the counts at a phase's START.
func (r *fsRecorder) started(phase int) {
	if r == nil {
		return
	}
	c, ok := r.read()
	if ok {
		r.mu.Lock()
		r.start[phase] = c
		r.mu.Unlock()
	}
}

// finished adds to b (and tally) what the files received from the
// phase's START until its last worker finished it.
func (r *fsRecorder) finished(phase int, b *result.Builder, tally *ioTally) {
	if r == nil {
		return
	}
	r.mu.Lock()
	start, ok := r.start[phase]
	r.mu.Unlock()
	now, nok := r.read()
	if !ok || !nok {
		return
	}
	d := now.Sub(start)
	tally.phase(d)
	b.AddIO(phase, d)
}

// fact says what counted the store's I/O, replacing what the engine
// said.
func (r *fsRecorder) fact(facts []store.Fact) []store.Fact {
	f := store.Fact{Name: store.FactIOTrace, Value: "gobench's FUSE recording file system over " + r.files.Dir +
		": every write, sync, creation, deletion and rename of the store's files, as a file system receives them (an msync as a data sync)"}
	for i := range facts {
		if facts[i].Name == store.FactIOTrace {
			facts[i] = f
			return facts
		}
	}
	return append(facts, f)
}

// close unmounts; nothing may have a file of the mount open.
func (r *fsRecorder) close() error {
	if r == nil {
		return nil
	}
	return r.h.Close()
}

// StartRecording copies the store's files into dir/base and records
// their every change to rec from now on.
func (r *fsRecorder) StartRecording(dir string, rec store.Record) error {
	base := filepath.Join(dir, "base")
	if err := os.MkdirAll(base, 0o700); err != nil {
		return fmt.Errorf("--crash: %w", err)
	}
	if err := r.h.StartRecording(base, rec.Path, rec.Limit); err != nil {
		return fmt.Errorf("--crash: %w", err)
	}
	return nil
}

// StopRecording appends the run's end.
func (r *fsRecorder) StopRecording() error {
	return r.h.EndRecording()
}

// failed returns the first error reading the recorder's counts met.
func (r *fsRecorder) failed() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.err
}
