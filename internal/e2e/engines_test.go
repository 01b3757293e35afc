package e2e

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
	"golang.org/x/sys/unix"

	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/store/all"
)

// engineHold is the enginehold command: it opens the gobench database at
// its second argument with the driver its first names, takes a
// connection (which opens the engine's files, and takes its lock), says
// "holding" on stdout, and closes everything once stdin closes.
func engineHold() int {
	if len(os.Args) != 3 {
		return fail(errors.New("usage: enginehold DRIVER PATH"))
	}
	drv, err := all.Registry().Lookup(os.Args[1])
	if err != nil {
		return fail(err)
	}
	ctx := context.Background()
	st, err := drv.Open(ctx, store.Config{Path: os.Args[2]})
	if err != nil {
		return fail(err)
	}
	defer st.Close()
	c, err := st.Conn(ctx)
	if err != nil {
		return fail(err)
	}
	defer c.Close()
	os.Stdout.WriteString("holding\n")
	_, _ = io.Copy(io.Discard, os.Stdin)
	return 0
}

// flockHeld reports whether another process holds the flock of the
// file or directory at path.
func flockHeld(t *testing.T, path string) bool {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	err = unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB)
	if err == nil {
		_ = unix.Flock(int(f.Fd()), unix.LOCK_UN)
		return false
	}
	if !errors.Is(err, unix.EWOULDBLOCK) {
		t.Fatal(err)
	}
	return true
}

// fcntlHeld reports whether another process holds an fcntl lock on the
// file at path.
func fcntlHeld(t *testing.T, path string) bool {
	t.Helper()
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close() // closing drops any lock this process took
	lk := unix.Flock_t{Type: unix.F_WRLCK}
	err = unix.FcntlFlock(f.Fd(), unix.F_SETLK, &lk)
	if err == nil {
		return false
	}
	if !errors.Is(err, unix.EAGAIN) && !errors.Is(err, unix.EACCES) {
		t.Fatal(err)
	}
	return true
}

// The engines one process at a time may open: a run that asks for worker
// processes is refused before anything is made, naming the lock; a
// database another process holds is refused (exit 2, naming the file),
// where the engine itself would wait for its lock, and runs once it is
// let go.
func TestOneProcessEngines(t *testing.T) {
	t.Parallel()
	bin := gobenchBinary(t)
	for _, tt := range []struct {
		driver string
		held   func(t *testing.T, db string) bool // whether another process holds the engine's lock
	}{
		{"bbolt", flockHeld},
		{"pebble", func(t *testing.T, db string) bool { return fcntlHeld(t, filepath.Join(db, "LOCK")) }},
		{"badger", func(t *testing.T, db string) bool { return flockHeld(t, filepath.Join(db, "badger")) }},
	} {
		t.Run(tt.driver, func(t *testing.T) {
			t.Parallel()
			dir, tmp := t.TempDir(), t.TempDir()
			db := filepath.Join(dir, "db")
			r := runGobench(t, bin, dir, tmp, nil, "mix", "--driver", tt.driver, "--mode", "process", "--procs", "2", "--db", db)
			if r.code != 2 || !strings.Contains(r.stderr, "driver "+tt.driver+" allows one process at a time (it takes ") || !strings.Contains(r.stderr, "--mode goroutine") {
				t.Errorf("process mode: exit %d, stderr %q; want 2, naming the lock", r.code, r.stderr)
			}
			if _, err := os.Stat(db); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("the refused run left %s behind: %v", db, err)
			}
			run := []string{"mix", "--driver", tt.driver, "--procs", "2", "--queries", "20", "--db", db, "-q"}
			if r := runGobench(t, bin, dir, tmp, nil, run...); r.code != 0 {
				t.Fatalf("first run: exit %d: %s", r.code, r.stderr)
			}
			release := holdElsewhere(t, tt.driver, db)
			if !tt.held(t, db) {
				t.Fatalf("enginehold does not hold %s's lock", tt.driver)
			}
			r = runGobench(t, bin, dir, tmp, nil, run...)
			if r.code != 2 || !strings.Contains(r.stderr, db) || !strings.Contains(r.stderr, "held by another process") {
				t.Errorf("on a held database: exit %d, stderr %q; want 2, naming %s", r.code, r.stderr, db)
			}
			release()
			if r := runGobench(t, bin, dir, tmp, nil, run...); r.code != 0 {
				t.Errorf("once let go: exit %d: %s", r.code, r.stderr)
			}
		})
	}
}

// holdElsewhere starts a process (this test binary as enginehold) that
// holds the database at path open with driver until the returned
// function is called.
func holdElsewhere(t *testing.T, driver, path string) (release func()) {
	t.Helper()
	cmd := toolCmd(t, "enginehold", t.TempDir(), driver, path)
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	watchOutput(out, "holding").wait(t, "holding")
	done := false
	release = func() {
		if done {
			return
		}
		done = true
		in.Close()
		if code := waitExit(t, cmd); code != 0 {
			t.Errorf("enginehold exited %d", code)
		}
	}
	t.Cleanup(release)
	return release
}

// primCheck is "primcheck TRACE RESULT MIN MAX": the result names the
// sync primitive its engine uses (sync_primitive), and strace's TRACE
// holds between MIN and MAX calls of it (MAX -1: no bound): the outside
// witness that the name is the call made, and that --sync reached it.
// Of a name of two calls ("fdatasync + O_DSYNC write", LMDB at full) it
// counts the first, the sync call strace names.
func primCheck(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 4 {
		ts.Fatalf("usage: primcheck TRACE RESULT MIN MAX")
	}
	r := readSuite(ts, args[1]).Cells[0].Runs[0]
	prim := r.Environment.SyncPrimitive
	if prim == "" {
		ts.Fatalf("%s names no sync primitive", args[1])
	}
	prim, _, _ = strings.Cut(prim, " + ")
	calls := 0
	for line := range strings.SplitSeq(ts.ReadFile(args[0]), "\n") {
		if strings.Contains(line, " "+prim+"(") && !strings.Contains(line, "resumed>") {
			calls++
		}
	}
	lo, _ := strconv.Atoi(args[2])
	hi, _ := strconv.Atoi(args[3])
	ts.Logf("%s: %d calls of %s", r.Plan.Driver, calls, prim)
	if calls < lo || hi >= 0 && calls > hi {
		ts.Fatalf("%s: strace saw %d calls of %s, want %s to %s", r.Plan.Driver, calls, prim, args[2], args[3])
	}
}
