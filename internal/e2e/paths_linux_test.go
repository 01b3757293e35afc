package e2e

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// An output path that leads to one of gobench's own descriptors, a link
// to /proc/self/fd/1 as /dev/stdout is, is written through whatever it
// is: here stdout is a pipe (it failed with "cannot write in
// /proc/self/fd", exit 2).
func TestOutputThroughDescriptorLink(t *testing.T) {
	if _, err := os.Stat("/proc/self/fd/1"); err != nil {
		t.Skipf("no /proc/self/fd: %v", err)
	}
	bin := gobenchBinary(t)
	dir := t.TempDir()
	for _, link := range []string{"stdout", "chain"} {
		target := "/proc/self/fd/1"
		if link == "chain" {
			target = "stdout" // a link to the link
		}
		if err := os.Symlink(target, filepath.Join(dir, link)); err != nil {
			t.Fatal(err)
		}
		r := runGobench(t, bin, dir, t.TempDir(), nil, "report", absFixture(t), "-o", link)
		if r.code != 0 || !strings.HasPrefix(r.stdout, "gobench mix") {
			t.Errorf("-o %s: exit %d, stdout %.60q, stderr %s", link, r.code, r.stdout, r.stderr)
		}
		if fi, err := os.Lstat(filepath.Join(dir, link)); err != nil || fi.Mode()&os.ModeSymlink == 0 {
			t.Errorf("%s is no longer a symlink", link)
		}
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 2 {
		t.Errorf("%d entries in the directory, want the two links", len(ents))
	}
}

// makeDevice makes a device node in the test's own directory, or skips
// the test where the process may not (mknod needs CAP_MKNOD).
func makeDevice(t *testing.T, path string, mode uint32, major, minor uint32) {
	t.Helper()
	if err := unix.Mknod(path, mode|0o666, int(unix.Mkdev(major, minor))); err != nil {
		t.Skipf("cannot make a device node here: %v", err)
	}
}

// Device nodes are not databases: --db and --from refuse them before
// anything is opened (--reuse took one as an empty file, wrote to it and
// left a -journal beside it), and no output is written on a block
// device. The nodes stay as they were.
func TestDevicesAreNotDatabases(t *testing.T) {
	bin := gobenchBinary(t)
	dir := t.TempDir()
	null := filepath.Join(dir, "null")
	makeDevice(t, null, unix.S_IFCHR, 1, 3)
	// 240: a major number for local, experimental use, which no driver
	// here claims, so that nothing could be written even by mistake.
	disk := filepath.Join(dir, "disk")
	makeDevice(t, disk, unix.S_IFBLK, 240, 0)
	if err := os.WriteFile(filepath.Join(dir, "q.sql"), []byte("SELECT 1;\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"mix", "--db", "null", "--reuse", "--queries", "10", "-q"}, "--db null is a character device, not a database file"},
		{[]string{"mix", "--db", "null", "--queries", "10", "-q"}, "--db null is a character device"},
		{[]string{"mix", "--db", "disk", "--reuse", "--queries", "10", "-q"}, "--db disk is a block device"},
		{[]string{"sql", "--from", "null", "--file", "q.sql", "-q"}, "--from null is a character device, not a database file"},
		{[]string{"report", absFixture(t), "-o", "disk"}, "--output disk is a block device"},
	} {
		tmp := t.TempDir()
		r := runGobench(t, bin, dir, tmp, nil, tt.args...)
		assertBadInput(t, r, tt.want)
		assertNothingIn(t, tmp)
	}
	for path, mode := range map[string]uint32{null: unix.S_IFCHR, disk: unix.S_IFBLK} {
		var st unix.Stat_t
		if err := unix.Lstat(path, &st); err != nil || st.Mode&unix.S_IFMT != mode {
			t.Errorf("%s changed: mode %o, %v", path, st.Mode, err)
		}
	}
	for _, name := range []string{"null-journal", "null-wal", "disk-journal"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err == nil {
			t.Errorf("%s was left beside the device", name)
		}
	}
}

// watch starts an inotify watch of dir and returns a function that
// reads the events so far: the names created in dir, and those closed
// after being opened for writing.
func watch(t *testing.T, dir string) func() (created, closedWrite []string) {
	t.Helper()
	fd, err := unix.InotifyInit1(unix.IN_NONBLOCK | unix.IN_CLOEXEC)
	if err != nil {
		t.Skipf("no inotify: %v", err)
	}
	t.Cleanup(func() { unix.Close(fd) })
	if _, err := unix.InotifyAddWatch(fd, dir, unix.IN_CREATE|unix.IN_CLOSE_WRITE); err != nil {
		t.Fatal(err)
	}
	return func() (created, closedWrite []string) {
		buf := make([]byte, 64<<10)
		for {
			n, err := unix.Read(fd, buf)
			if n <= 0 || err != nil {
				return created, closedWrite
			}
			for off := 0; off+unix.SizeofInotifyEvent <= n; {
				ev := (*unix.InotifyEvent)(unsafe.Pointer(&buf[off]))
				name := string(bytes.TrimRight(buf[off+unix.SizeofInotifyEvent:off+unix.SizeofInotifyEvent+int(ev.Len)], "\x00"))
				if ev.Mask&unix.IN_CREATE != 0 {
					created = append(created, name)
				}
				if ev.Mask&unix.IN_CLOSE_WRITE != 0 {
					closedWrite = append(closedWrite, name)
				}
				off += unix.SizeofInotifyEvent + int(ev.Len)
			}
		}
	}
}

// A --db gobench refuses is only read: no probe file is created in its
// directory and the database is never opened for writing (it was opened
// read-write to lock it before the refusal, and a probe file created and
// deleted beside it). inotify, the kernel's own record, is the witness;
// a file the test writes itself shows that the watch sees writes.
func TestRefusedDBIsOnlyRead(t *testing.T) {
	bin := gobenchBinary(t)
	dir := t.TempDir()
	db := filepath.Join(dir, "app.db")
	makeForeignSQLite(t, db)
	notes := filepath.Join(dir, "notes.txt")
	if err := os.WriteFile(notes, []byte("hello\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(db)
	events := watch(t, dir)
	for _, args := range [][]string{
		{"mix", "--db", "app.db", "--queries", "10", "-q"},
		{"mix", "--db", "notes.txt", "--reuse", "--queries", "10", "-q"},
	} {
		r := runGobench(t, bin, dir, t.TempDir(), nil, args...)
		if r.code != 2 {
			t.Errorf("%v: exit %d: %s", args, r.code, r.stderr)
		}
	}
	created, written := events()
	if len(created) > 0 || len(written) > 0 {
		t.Errorf("the refused runs created %v and wrote %v in the database's directory", created, written)
	}
	assertSameBytes(t, db, before)
	if err := os.WriteFile(filepath.Join(dir, "witness"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if created, written := events(); len(created) != 1 || len(written) != 1 {
		t.Fatalf("the watch missed the test's own write: created %v, written %v", created, written)
	}
}

// An interrupt stops a command reading a FIFO whose writer is there but
// silent: exit 130, where the read went on waiting (only SIGKILL ended
// it). The test's writer is open and never writes; gobench is signalled
// once /proc shows it holds the FIFO open.
func TestFIFOSilentWriterInterrupted(t *testing.T) {
	bin := gobenchBinary(t)
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	makeFIFO(t, fifo)
	// A reader of the test's own lets its writer open without waiting.
	keep, err := os.OpenFile(fifo, os.O_RDONLY|unix.O_NONBLOCK, 0)
	if err != nil {
		t.Fatal(err)
	}
	w, err := os.OpenFile(fifo, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	keep.Close()
	for _, args := range [][]string{{"sql", "--file", "fifo", "-q"}, {"report", "fifo"}} {
		cmd := exec.Command(bin, args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "TMPDIR="+t.TempDir())
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		var waitErr error
		exited := make(chan struct{})
		go func() { waitErr = cmd.Wait(); close(exited) }()
		if !holdsOpen(cmd.Process.Pid, fifo, exited) {
			t.Fatalf("%v ended before it opened the FIFO: %s", args, stderr.String())
		}
		if err := cmd.Process.Signal(os.Interrupt); err != nil {
			t.Fatal(err)
		}
		select {
		case <-exited:
			if code := exitCodeOf(waitErr); code != 130 {
				t.Errorf("%v: exit %d, want 130: %s", args, code, stderr.String())
			}
		case <-time.After(hangDetector):
			cmd.Process.Kill()
			<-exited
			t.Fatalf("%v hung after SIGINT: killed after %v", args, hangDetector)
		}
	}
}

// holdsOpen waits until process pid has path open (a readiness signal
// read from /proc), or until it exits; it reports which.
func holdsOpen(pid int, path string, exited <-chan struct{}) bool {
	fds := filepath.Join("/proc", strconv.Itoa(pid), "fd")
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
	for {
		ents, _ := os.ReadDir(fds)
		for _, e := range ents {
			if target, err := os.Readlink(filepath.Join(fds, e.Name())); err == nil && target == path {
				return true
			}
		}
		select {
		case <-exited:
			return false
		case <-tick.C:
		}
	}
}
