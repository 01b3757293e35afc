//go:build linux

package recfs

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/gobench/gobench/pkg/crashstate"
	"github.com/gobench/gobench/pkg/iorecord"
	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/sysinfo"
)

// TestMain makes this test binary the helper too, when asked to be.
func TestMain(m *testing.M) {
	if os.Getenv("RECFS_HELPER") == "1" {
		if err := Serve(context.Background(), os.Stdin, os.Stdout); err != nil {
			os.Stderr.WriteString(err.Error() + "\n")
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// needFUSE skips a test on a machine that cannot mount, saying why.
func needFUSE(t *testing.T) {
	t.Helper()
	if err := Available(); err != nil {
		t.Skip(err)
	}
}

// mountedFS mounts a recording file system over a new directory holding
// files, and unmounts it when the test ends.
func mountedFS(t *testing.T, prefix string, files map[string]string) (*FS, string) {
	t.Helper()
	return mountedFSWith(t, Config{Prefix: prefix}, files)
}

// mountedFSWith is mountedFS with cfg's settings besides its Dir and
// Roles.
func mountedFSWith(t *testing.T, cfg Config, files map[string]string) (*FS, string) {
	t.Helper()
	needFUSE(t)
	dir := filepath.Join(t.TempDir(), "db")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	for name, data := range files {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	cfg.Dir, cfg.Roles = dir, []store.RoleSuffix{{Suffix: ".log", Role: store.RoleWAL}}
	f, err := Mount(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := f.Unmount(); err != nil {
			t.Error(err)
		}
		if isMounted(dir) {
			t.Errorf("%s is still mounted", dir)
		}
	})
	return f, dir
}

func isMounted(dir string) bool {
	ms, _ := sysinfo.Mounts()
	return slices.ContainsFunc(ms, func(m sysinfo.Mount) bool { return m.Point == dir && m.Type == FSType })
}

// record starts recording into a new base directory and record.
func record(t *testing.T, f *FS) (base, rec string) {
	t.Helper()
	work := t.TempDir()
	base, rec = filepath.Join(work, "base"), filepath.Join(work, "record")
	if err := os.Mkdir(base, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := f.Start(base, rec, 1<<30); err != nil {
		t.Fatal(err)
	}
	return base, rec
}

func events(t *testing.T, rec string) []iorecord.Event {
	t.Helper()
	fh, err := os.Open(rec)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	var out []iorecord.Event
	r := iorecord.NewReader(fh, 0)
	for r.Scan() {
		e := *r.Event()
		e.Data = bytes.Clone(e.Data)
		out = append(out, e)
	}
	if r.Err() != nil {
		t.Fatal(r.Err())
	}
	return out
}

// must fails the test on err.
func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// Every change made through the mount reaches the directory and the
// record, in order, and the counts: writes with their bytes, syncs by
// primitive, creations, directories, renames, links, removals and the
// directory's syncs.
func TestRecordsEveryChange(t *testing.T) {
	f, dir := mountedFS(t, "", map[string]string{"data": "0123456789"})
	_, rec := record(t, f)
	before := f.Counts()

	fd, err := unix.Open(filepath.Join(dir, "data"), unix.O_RDWR, 0)
	must(t, err)
	_, err = unix.Pwrite(fd, []byte("AB"), 2)
	must(t, err)
	must(t, unix.Fdatasync(fd))
	must(t, unix.Ftruncate(fd, 4))
	must(t, unix.Fsync(fd))
	unix.Close(fd)
	must(t, os.Mkdir(filepath.Join(dir, "sub"), 0o700))
	must(t, os.WriteFile(filepath.Join(dir, "sub", "new.log"), []byte("wal"), 0o600))
	must(t, os.Rename(filepath.Join(dir, "sub", "new.log"), filepath.Join(dir, "moved.log")))
	must(t, os.Link(filepath.Join(dir, "moved.log"), filepath.Join(dir, "linked")))
	must(t, os.Remove(filepath.Join(dir, "linked")))
	d, err := os.Open(dir)
	must(t, err)
	must(t, d.Sync())
	d.Close()
	must(t, f.End())

	var kinds []iorecord.Kind
	for _, e := range events(t, rec) {
		kinds = append(kinds, e.Kind)
	}
	want := []iorecord.Kind{iorecord.KindStart, iorecord.KindWrite, iorecord.KindSync, iorecord.KindTruncate, iorecord.KindSync,
		iorecord.KindMkdir, iorecord.KindCreate, iorecord.KindWrite, iorecord.KindRename, iorecord.KindLink, iorecord.KindDelete,
		iorecord.KindDirSync, iorecord.KindEnd}
	if !slices.Equal(kinds, want) {
		t.Fatalf("recorded %v,\nwant     %v", kinds, want)
	}
	evs := events(t, rec)
	if w := evs[1]; w.Arg != 2 || string(w.Data) != "AB" || w.File == 0 {
		t.Errorf("the write: %+v", w)
	}
	if evs[2].Flags != iorecord.FlagDataSync || evs[4].Flags != 0 {
		t.Errorf("fdatasync then fsync recorded with flags %#x, %#x", evs[2].Flags, evs[4].Flags)
	}
	if evs[8].Role != store.RoleWAL || evs[11].File != iorecord.RootDir {
		t.Errorf("the rename's role %d, the directory sync's file %d", evs[8].Role, evs[11].File)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "data")); string(b) != "01AB" {
		t.Errorf("the file under the mount holds %q", b)
	}
	got := f.Counts().Sub(before)
	db, wal := got.Role(store.RoleDatabase), got.Role(store.RoleWAL)
	if db.Writes != 1 || db.Bytes != 2 || db.Syncs != 2 || db.DataSyncs != 1 || db.Truncates != 1 || db.DirSyncs != 1 ||
		wal.Writes != 1 || wal.Bytes != 3 || got.Role(store.RoleDatabase).Deletes+wal.Deletes != 1 {
		t.Errorf("counts %+v", got)
	}
}

// The record and the tree copied at the start rebuild, under each
// model, what a power cut leaves: a new file in a directory never synced
// is gone under POSIX's model and there under LazyFS's, with only what
// its own sync made durable.
func TestStatesFromTheRecord(t *testing.T) {
	f, dir := mountedFS(t, "", map[string]string{"data": "old", "sub/keep": "k"})
	base, rec := record(t, f)
	fd, err := unix.Open(filepath.Join(dir, "data"), unix.O_RDWR, 0)
	must(t, err)
	_, err = unix.Pwrite(fd, []byte("new"), 0)
	must(t, err)
	must(t, unix.Fsync(fd))
	_, err = unix.Pwrite(fd, []byte("NEWER"), 0)
	must(t, err)
	unix.Close(fd)
	nf, err := os.Create(filepath.Join(dir, "sub", "fresh"))
	must(t, err)
	_, err = nf.WriteString("synced")
	must(t, err)
	must(t, nf.Sync())
	_, err = nf.WriteString("+lost")
	must(t, err)
	nf.Close()
	must(t, f.End())

	last := func(model string) map[string]string {
		t.Helper()
		n := len(events(t, rec))
		var files map[string]string
		o := crashstate.Options{Record: rec, Base: base, Work: filepath.Join(t.TempDir(), "w"), Tree: TreeFile,
			Spec: store.CrashSpec{States: n, Model: model, Seed: 1}}
		_, err := crashstate.Build(context.Background(), o, func(store.Ack) {}, func(st store.CrashState) error {
			files = map[string]string{}
			return filepath.WalkDir(st.Path, func(p string, d os.DirEntry, err error) error {
				if err != nil || d.IsDir() {
					return err
				}
				b, err := os.ReadFile(p)
				rel, _ := filepath.Rel(st.Path, p)
				files[rel] = string(b)
				return err
			})
		})
		must(t, err)
		return files
	}
	posix := last(store.CrashLose)
	if want := map[string]string{"data": "new", "sub/keep": "k"}; !mapsEqual(posix, want) {
		t.Errorf("lose: %q, want %q", posix, want)
	}
	lazy := last(store.CrashNamesDurable)
	if want := map[string]string{"data": "new", "sub/keep": "k", "sub/fresh": "synced"}; !mapsEqual(lazy, want) {
		t.Errorf("names-durable: %q, want %q", lazy, want)
	}
}

func mapsEqual(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// With a prefix, only the entries named so are recorded and counted:
// a database's files, not their neighbours.
func TestPrefixRecordsTheStoresFilesOnly(t *testing.T) {
	f, dir := mountedFS(t, "db", map[string]string{"db": "x", "other": "y"})
	base, rec := record(t, f)
	must(t, os.WriteFile(filepath.Join(dir, "other"), []byte("zz"), 0o600))
	must(t, os.WriteFile(filepath.Join(dir, "db-journal"), []byte("j"), 0o600))
	must(t, f.End())
	for _, e := range events(t, rec) {
		if e.Kind == iorecord.KindWrite && string(e.Data) != "j" {
			t.Errorf("recorded a write of %q", e.Data)
		}
	}
	if _, err := os.Stat(filepath.Join(base, "2")); err != nil {
		t.Errorf("the database was not copied at the start: %v", err)
	}
	entries, _ := os.ReadDir(base)
	if len(entries) != 2 { // the tree and the database
		t.Errorf("the base holds %d entries, want the tree and db", len(entries))
	}
	if c := f.Counts().Total(); c.Writes != 1 || c.Bytes != 1 {
		t.Errorf("counted %+v", c)
	}
	// A rename from the neighbours into the database's names would need
	// a past the record lacks: refused, and the engine copies instead.
	if err := os.Rename(filepath.Join(dir, "other"), filepath.Join(dir, "db-wal")); !strings.Contains(errString(err), "cross-device") {
		t.Errorf("rename into the recorded files: %v", err)
	}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// helper starts this test binary as the helper process.
func helper(t *testing.T, dir string) *Helper {
	t.Helper()
	needFUSE(t)
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "RECFS_HELPER=1")
	cmd.SysProcAttr = &unix.SysProcAttr{Setpgid: true}
	h, err := Start(cmd, Config{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// The helper process serves the mount, counts and records on request,
// and unmounts when asked.
func TestHelper(t *testing.T) {
	dir := t.TempDir()
	h := helper(t, dir)
	if !isMounted(dir) {
		t.Fatal("not mounted")
	}
	work := t.TempDir()
	must(t, os.Mkdir(filepath.Join(work, "base"), 0o700))
	must(t, h.StartRecording(filepath.Join(work, "base"), filepath.Join(work, "record"), 1<<20))
	must(t, os.WriteFile(filepath.Join(dir, "f"), []byte("hello"), 0o600))
	c, err := h.Counts()
	must(t, err)
	must(t, h.EndRecording())
	must(t, h.Close())
	if c.Total().Bytes != 5 {
		t.Errorf("counted %+v", c.Total())
	}
	if isMounted(dir) {
		t.Error("still mounted after Close")
	}
	if n := len(events(t, filepath.Join(work, "record"))); n != 4 { // start, create, write, end
		t.Errorf("%d events recorded", n)
	}
}

// A helper whose coordinator dies (its stdin closes) unmounts; one
// killed itself leaves its mount, which CleanStale removes wherever it
// is, leaving the mounts of live helpers alone.
func TestNoMountLeftBehind(t *testing.T) {
	dir := t.TempDir()
	h := helper(t, dir)
	h.in.Close() // what the coordinator's death does
	waitGone(t, dir)

	killed, alive := t.TempDir(), t.TempDir()
	hk, ha := helper(t, killed), helper(t, alive)
	defer ha.Close()
	must(t, hk.cmd.Process.Kill())
	<-hk.done
	if !isMounted(killed) {
		t.Fatal("a killed helper's mount went away by itself: nothing to clean")
	}
	if _, err := os.Stat(killed); !strings.Contains(errString(err), "not connected") {
		t.Fatalf("the stale mount answers: %v", err)
	}
	// A run elsewhere cleans it too (it was left for a run over the same
	// place, which might never come), and leaves the live one.
	elsewhere := filepath.Join(t.TempDir(), "other", "db")
	must(t, os.MkdirAll(elsewhere, 0o755))
	var cleaned []string
	for _, s := range CleanStale(elsewhere) {
		must(t, s.Err)
		cleaned = append(cleaned, s.Dir)
	}
	if !slices.Contains(cleaned, killed) || slices.Contains(cleaned, alive) || isMounted(killed) || !isMounted(alive) {
		t.Errorf("cleaned %v; %s mounted %v, %s mounted %v", cleaned, killed, isMounted(killed), alive, isMounted(alive))
	}
}

// waitGone waits until dir is no longer mounted (a helper's unmounting
// takes its time on a loaded machine; a minute is a failure).
func waitGone(t *testing.T, dir string) {
	t.Helper()
	for deadline := time.Now().Add(time.Minute); isMounted(dir); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%s is still mounted a minute after its coordinator went", dir)
		}
	}
}

// Without /dev/fuse, or as a user other than root without fusermount3,
// the file system is unavailable, and the one line says what to install.
func TestUnavailable(t *testing.T) {
	dir := t.TempDir()
	dev := filepath.Join(dir, "fuse")
	if err := available(dev, true, ""); !errors.Is(err, ErrUnavailable) || !strings.Contains(err.Error(), "there is no "+dev) || !strings.Contains(err.Error(), "fuse3") || strings.Contains(err.Error(), "\n") {
		t.Errorf("no device: %v", err)
	}
	if err := os.WriteFile(dev, nil, 0o600); err != nil { // a stand-in that opens
		t.Fatal(err)
	}
	if err := available(dev, false, ""); !errors.Is(err, ErrUnavailable) || !strings.Contains(err.Error(), "fusermount3 is not installed") {
		t.Errorf("no fusermount3: %v", err)
	}
	if err := available(dev, false, "/usr/bin/fusermount3"); err != nil {
		t.Errorf("a device and fusermount3: %v", err)
	}
}

// go-fuse's error when fusermount3 fails gives a wait status as an exit
// code ("fusermount exited with code 256", and a line break): the message
// gives the exit status (1) or the signal, on one line.
func TestMountError(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"fusermount exited with code 256\n", "fusermount3 exited with status 1: "},
		{"fusermount exited with code 9\n", "fusermount3 was killed by killed: "},
		{"operation not permitted", "operation not permitted"},
	} {
		got := mountError(errors.New(tt.in)).Error()
		if !strings.HasPrefix(got, tt.want) || strings.Contains(got, "\n") || strings.Contains(got, "code") {
			t.Errorf("%q: %q; want it to begin %q, on one line", tt.in, got, tt.want)
		}
	}
}

// A helper killed during the run is reported as dead, with how it died,
// by the next request and by Close ("write |1: file already closed"
// said nothing of it); Close still leaves no mount behind.
func TestHelperDied(t *testing.T) {
	dir := t.TempDir()
	h := helper(t, dir)
	must(t, h.cmd.Process.Kill())
	for _, step := range []struct {
		name string
		f    func() error
	}{
		{"counts", func() error { _, err := h.Counts(); return err }},
		{"close", h.Close},
	} {
		name, err := step.name, step.f()
		if !errors.Is(err, ErrHelperDied) || !strings.Contains(err.Error(), "signal: killed") || strings.Contains(err.Error(), "file already closed") || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: %v; want one line saying the helper died, killed", name, err)
		}
	}
	if isMounted(dir) {
		t.Error("still mounted after Close")
	}
}

// Config.FailSync fails exactly the Nth sync of a recorded file while
// the file system records, with EIO, and records it as failed; the
// syncs before and after it work and are recorded as they were.
func TestFailSync(t *testing.T) {
	const n = 3
	f, dir := mountedFSWith(t, Config{FailSync: n}, map[string]string{"data": "x"})
	fh, err := os.OpenFile(filepath.Join(dir, "data"), os.O_RDWR, 0)
	must(t, err)
	defer fh.Close()
	must(t, fh.Sync()) // before the record starts: not counted
	_, rec := record(t, f)
	for i := 1; i <= n+2; i++ {
		_, err := fh.WriteAt([]byte{byte('a' + i)}, 0)
		must(t, err)
		err = unix.Fdatasync(int(fh.Fd()))
		if failed := errors.Is(err, unix.EIO); failed != (i == n) {
			t.Fatalf("sync %d: %v, want EIO only at sync %d", i, err, n)
		}
	}
	must(t, f.End())
	var flags []uint16
	for _, e := range events(t, rec) {
		if e.Kind == iorecord.KindSync {
			flags = append(flags, e.Flags&(iorecord.FlagFailed|iorecord.FlagDataSync))
		}
	}
	want := []uint16{iorecord.FlagDataSync, iorecord.FlagDataSync, iorecord.FlagFailed | iorecord.FlagDataSync, iorecord.FlagDataSync, iorecord.FlagDataSync}
	if !slices.Equal(flags, want) {
		t.Errorf("recorded syncs' flags %#x, want %#x", flags, want)
	}
}
