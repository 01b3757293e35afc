package coord

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	gofs "github.com/hanwen/go-fuse/v2/fs"
	"github.com/hanwen/go-fuse/v2/fuse"

	"github.com/gobench/gobench/pkg/recfs"
	"github.com/gobench/gobench/pkg/result"
	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/store/all"
	"github.com/gobench/gobench/pkg/store/files"
	"github.com/gobench/gobench/pkg/sysinfo"
	"github.com/gobench/gobench/pkg/workload"
)

// needFUSE skips a test on a machine where the recording file system
// cannot be mounted, saying why.
func needFUSE(t *testing.T) {
	t.Helper()
	if err := recfs.Available(); err != nil {
		t.Skip(err)
	}
}

// filesPlan is a --crash plan of the files engine (a file per key, in
// its own directory) at a --sync level.
func filesPlan(t *testing.T, sync, mode string) *workload.Plan {
	p := crashPlan(t, "files", "", "", 2, 150, 6)
	p.Mode = mode
	o := files.DefaultOptions()
	o.Sync = sync
	p.Store = store.Config{Path: filepath.Join(t.TempDir(), "files"), Options: o.Encode()}
	return p
}

func runRecorded(t *testing.T, p *workload.Plan) *result.Result {
	t.Helper()
	res, err := Run(context.Background(), Config{Plan: p, Registry: all.Registry(), Command: helper("serve"), Recorder: helper("recordfs"), ReadyTimeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// gobenchMounts lists the recording file systems mounted now under the
// test's own temporary directories (other runs on the machine have
// theirs elsewhere).
func gobenchMounts(t *testing.T) []string {
	t.Helper()
	root, err := filepath.EvalSymlinks(filepath.Dir(t.TempDir()))
	if err != nil {
		t.Fatal(err)
	}
	ms, _ := sysinfo.Mounts()
	var out []string
	for _, m := range ms {
		if m.Type == recfs.FSType && strings.HasPrefix(m.Point, root+string(filepath.Separator)) {
			out = append(out, m.Point)
		}
	}
	return out
}

// An engine with no VFS of its own runs --crash through the recording
// file system, in worker processes and goroutines alike: the files
// engine keeps every acknowledged write at --sync full, which fsyncs
// each written file and its directory, loses some at off, and the file
// system counts those two syncs per commit, or none. The mount is gone when the run returns.
func TestCrashThroughTheFileSystem(t *testing.T) {
	needFUSE(t)
	for _, mode := range []string{workload.ModeProcess, workload.ModeGoroutine} {
		synced := runRecorded(t, filesPlan(t, store.SyncFull, mode))
		d, io := synced.Durability, synced.Phases[0].IO
		if d == nil || d.States != 6 || d.Corrupt != 0 || d.Lossy != 0 || d.Acked != acknowledgedWrites(synced) || d.Checked == 0 {
			t.Errorf("%s, sync full: %+v", mode, d)
		}
		if io == nil || io.Commits != acknowledgedWrites(synced) || io.SyncsPerCommit != 2 || io.Files.Database.DataSyncs != 0 {
			t.Errorf("%s, sync full: I/O %+v", mode, io)
		}
		if got := synced.Plan.IOTrace; got != workload.IOTraceFS {
			t.Errorf("%s: traced by %q", mode, got)
		}
		if f := synced.Environment.StoreFact(store.FactIOTrace); !strings.Contains(f, "FUSE") {
			t.Errorf("%s: the io_trace fact says %q", mode, f)
		}
		unsynced := runRecorded(t, filesPlan(t, store.SyncOff, mode))
		if d := unsynced.Durability; d == nil || d.Lossy == 0 || d.MaxLost == 0 {
			t.Errorf("%s, sync off: %+v", mode, d)
		}
		if io := unsynced.Phases[0].IO; io == nil || io.Files.Syncs() != 0 || io.BytesPerCommit < 64 {
			t.Errorf("%s, sync off: I/O %+v", mode, io)
		}
	}
	if m := gobenchMounts(t); len(m) > 0 {
		t.Errorf("mounts left behind: %v", m)
	}
}

// agreement runs the same run twice, recorded by the engine's VFS and
// by the file system (one worker process, one seed: the same I/O), and
// fails unless both count the same syncs and bytes written of every
// file per commit and find the same verdicts: which settings lose
// acknowledged writes, which corrupt. (The writes themselves may differ
// in number: the kernel splits a write to a FUSE file at a page it does
// not hold whole.)
func agreement(t *testing.T, driver, journal, sync string, ops int64, states int) {
	t.Helper()
	plan := func(trace string) *workload.Plan {
		p := crashPlan(t, driver, journal, sync, 1, ops, states)
		p.IOTrace = trace
		if states == 0 {
			p.Crash = nil
		}
		return p
	}
	vfs, fs := runRecorded(t, plan(workload.IOTraceVFS)), runRecorded(t, plan(workload.IOTraceFS))
	what := driver + " " + journal + "/" + sync
	vi, fi := vfs.Phases[0].IO, fs.Phases[0].IO
	if vi == nil || fi == nil || vi.Commits != fi.Commits || vi.Commits == 0 {
		t.Fatalf("%s: I/O %+v through the VFS, %+v through the file system", what, vi, fi)
	}
	for role := range store.NumRoles - 1 { // the -shm is written through no VFS
		v, f := vi.Files.Role(role), fi.Files.Role(role)
		if v.Syncs != f.Syncs || v.Bytes != f.Bytes {
			t.Errorf("%s, the %s: %d syncs, %d writes, %d bytes through the VFS; %d, %d, %d through the file system",
				what, store.RoleName(role), v.Syncs, v.Writes, v.Bytes, f.Syncs, f.Writes, f.Bytes)
		}
	}
	if v, f := vi.Files.Total().DirSyncs, fi.Files.Total().DirSyncs; v != f {
		t.Errorf("%s: %d directory syncs through the VFS, %d through the file system", what, v, f)
	}
	if states == 0 {
		return
	}
	vd, fd := vfs.Durability, fs.Durability
	t.Logf("%s: %.2f syncs/commit; VFS: %d of %d states lost writes (at most %d), %d corrupt; file system: %d of %d (at most %d), %d corrupt",
		what, vi.SyncsPerCommit, vd.Lossy, vd.States, vd.MaxLost, vd.Corrupt, fd.Lossy, fd.States, fd.MaxLost, fd.Corrupt)
	if (vd.Lossy > 0) != (fd.Lossy > 0) || (vd.Corrupt > 0) != (fd.Corrupt > 0) || vd.States != fd.States {
		t.Errorf("%s: the verdicts differ: VFS %+v, file system %+v", what, vd, fd)
	}
}

// The file system counts what ncruces's own VFS counts, on the same run
// (ncruces syncs a new WAL twice, meaning the second for its directory:
// the file system sees two syncs of the WAL, as the VFS counts them).
func TestIOTraceFSAgreesWithTheVFS(t *testing.T) {
	needFUSE(t)
	agreement(t, "ncruces", "wal", "full", 100, 0)
	agreement(t, "ncruces", "rollback", "full", 50, 4)
}

// --io-trace fs refuses a directory the database shares with other
// files.
func TestIOTraceFSWantsADirectoryOfItsOwn(t *testing.T) {
	needFUSE(t)
	p := crashPlan(t, "ncruces", "wal", "full", 1, 10, 1)
	p.Crash, p.IOTrace = nil, workload.IOTraceFS
	if err := os.WriteFile(filepath.Join(filepath.Dir(p.Store.Path), "notes.txt"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := Run(context.Background(), Config{Plan: p, Registry: all.Registry(), Command: helper("serve"), Recorder: helper("recordfs")})
	if err == nil || !strings.Contains(err.Error(), "notes.txt") {
		t.Errorf("a directory shared with another file: %v", err)
	}
	if m := gobenchMounts(t); len(m) > 0 {
		t.Errorf("mounts left behind: %v", m)
	}
}

// A recording file system whose helper was killed with its run is
// unmounted at the next run's start (over another place), which says so.
func TestStaleMountCleanedAtStart(t *testing.T) {
	needFUSE(t)
	dir := t.TempDir()
	cmd, _ := helper("recordfs")()
	ownGroup(cmd)
	if _, err := recfs.Start(cmd, recfs.Config{Dir: dir}); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(10 * time.Millisecond) {
		if _, err := os.Stat(dir); err != nil && strings.Contains(err.Error(), "not connected") {
			break
		}
		if !slices.Contains(gobenchMounts(t), dir) {
			// a run beside this one (any run with a database on disk
			// detaches dead mounts) cleaned it first: nothing is left
			// for this test's run to show
			t.Skip("the killed helper's mount was unmounted by another run before this test's")
		}
		if time.Now().After(deadline) {
			t.Fatal("the killed helper's mount still answers a minute later")
		}
	}
	var notes strings.Builder
	p := nullPlan(1, 1, 10)
	p.Store.Path = filepath.Join(t.TempDir(), "db")
	if _, err := Run(context.Background(), Config{Plan: p, Registry: all.Registry(), Command: helper("serve"), Notes: &notes}); err != nil {
		t.Fatal(err)
	}
	if slices.Contains(gobenchMounts(t), dir) {
		t.Errorf("mounts %v; notes:\n%s", gobenchMounts(t), notes.String())
	}
	if !strings.Contains(notes.String(), "unmounted a recording file system left over "+dir) {
		// Any run with a database on disk unmounts it, wherever it
		// is: one of another test beside this one may have come first.
		t.Logf("the mount was unmounted by another run; notes:\n%s", notes.String())
	}
}

// For mattn and capi (SQLite's unix VFS under gobench's C tracing VFS),
// the file system and the VFS agree on every journal and sync setting a
// power cut tells apart: the same syncs and bytes of every file per
// commit, the same verdicts (the rollback journal at NORMAL and FULL
// loses its last transaction, the WAL at NORMAL its commits since the
// last checkpoint; none corrupts).
func TestFSRecorderAgreesWithTheVFS(t *testing.T) {
	if testing.Short() {
		t.Skip("36 runs with 10 power cuts each: the full tier")
	}
	needFUSE(t)
	for _, driver := range []string{"mattn", "capi"} {
		if _, err := all.Registry().Lookup(driver); err != nil {
			t.Skipf("%s needs cgo", driver)
		}
		for _, journal := range []string{"rollback", "truncate", "wal"} {
			for _, sync := range []string{"normal", "full", "extra"} {
				agreement(t, driver, journal, sync, 100, 10)
			}
		}
	}
}

// noStatfs is a loopback file system that answers statfs with zeros, as
// LazyFS does.
type noStatfs struct{ *gofs.LoopbackNode }

func (n *noStatfs) Statfs(context.Context, *fuse.StatfsOut) syscall.Errno { return 0 }

func (n *noStatfs) WrapChild(_ context.Context, ops gofs.InodeEmbedder) gofs.InodeEmbedder {
	return &noStatfs{ops.(*gofs.LoopbackNode)}
}

// A --crash run on a file system that does not say how much room it has
// is not refused: its room is unknown, not none, and the run says so.
func TestCrashOnAFileSystemWithoutStatfs(t *testing.T) {
	needFUSE(t)
	backing, mnt := t.TempDir(), t.TempDir()
	root, err := gofs.NewLoopbackRoot(backing)
	if err != nil {
		t.Fatal(err)
	}
	srv, err := gofs.Mount(mnt, &noStatfs{root.(*gofs.LoopbackNode)}, &gofs.Options{MountOptions: fuse.MountOptions{DirectMount: true, Name: "nostatfs"}})
	if err != nil {
		t.Skip("mounting a loopback:", err)
	}
	defer srv.Unmount()
	if _, known := sysinfo.FreeBytes(mnt); known {
		t.Fatal("a file system with no statfs says how much room it has")
	}
	p := crashPlan(t, "ncruces", "rollback", "full", 1, 20, 2)
	p.Store.Path = filepath.Join(mnt, "crash.db")
	var notes strings.Builder
	res, err := Run(context.Background(), Config{Plan: p, Registry: all.Registry(), Command: helper("serve"), Notes: &notes})
	if err != nil {
		t.Fatal(err)
	}
	if res.Durability == nil || res.Durability.States != 2 || !strings.Contains(notes.String(), "does not say how much room it has") {
		t.Errorf("durability %+v; notes:\n%s", res.Durability, notes.String())
	}
}
