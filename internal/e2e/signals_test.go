package e2e

import (
	"bufio"
	"bytes"
	"context"
	"database/sql"
	"errors"
	"io"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/gobench/gobench/pkg/result"
)

// gobenchCmd returns a command running this test binary as gobench (a
// hard link or copy named gobench, which testscript.Main dispatches to the
// CLI; not a symlink, which os.Executable would see through when gobench
// re-executes itself as workers), with its temporary files in tmp.
func gobenchCmd(t *testing.T, tmp string, args ...string) *exec.Cmd {
	t.Helper()
	return toolCmd(t, "gobench", tmp, args...)
}

// toolCmd returns a command running this test binary as name, one of the
// commands TestMain registers, with its temporary files in tmp.
func toolCmd(t *testing.T, name, tmp string, args ...string) *exec.Cmd {
	t.Helper()
	bin := filepath.Join(t.TempDir(), name)
	if err := os.Link(os.Args[0], bin); err != nil {
		b, err := os.ReadFile(os.Args[0])
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(bin, b, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), "TMPDIR="+tmp)
	return cmd
}

// stderrFollower collects a process's stderr and lets a test wait for a
// line: the readiness signal to act on, where a sleep would guess.
type stderrFollower struct {
	mu   sync.Mutex
	buf  bytes.Buffer
	grew chan struct{} // closed, and replaced, at every line
	eof  chan struct{} // closed when stderr ends
}

func followStderr(r io.Reader) *stderrFollower {
	f := &stderrFollower{grew: make(chan struct{}), eof: make(chan struct{})}
	go func() {
		defer close(f.eof)
		sc := bufio.NewScanner(r)
		for sc.Scan() {
			f.mu.Lock()
			f.buf.WriteString(sc.Text() + "\n")
			close(f.grew)
			f.grew = make(chan struct{})
			f.mu.Unlock()
		}
	}()
	return f
}

// waitFor returns once stderr holds a line matching re (a multi-line
// pattern), failing if stderr ends first, or after a minute without one.
func (f *stderrFollower) waitFor(t *testing.T, re string) {
	t.Helper()
	rx := regexp.MustCompile("(?m)" + re)
	limit := time.After(time.Minute)
	for {
		f.mu.Lock()
		found, grew := rx.Match(f.buf.Bytes()), f.grew
		f.mu.Unlock()
		if found {
			return
		}
		select {
		case <-grew:
		case <-f.eof:
			if f.mu.Lock(); rx.Match(f.buf.Bytes()) {
				f.mu.Unlock()
				return
			}
			f.mu.Unlock()
			t.Fatalf("gobench ended without printing %q; stderr:\n%s", re, f)
		case <-limit:
			t.Fatalf("no %q from gobench within a minute; stderr:\n%s", re, f)
		}
	}
}

func (f *stderrFollower) String() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.buf.String()
}

// startRun starts gobench (with --progress 1s among its arguments, added
// when not given) and
// returns once every worker has run ops: once the first progress line is
// out, which the coordinator prints when every worker has moved past the
// run's first second.
func startRun(t *testing.T, cmd *exec.Cmd) (stdout *bytes.Buffer, stderr *stderrFollower, wait func() error) {
	t.Helper()
	stdout = &bytes.Buffer{}
	cmd.Stdout = stdout
	pipe, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(cmd.Args, "--progress") {
		cmd.Args = append(cmd.Args, "--progress", "1s") // the readiness line below, each second
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	stderr = followStderr(pipe)
	t.Cleanup(func() { _ = cmd.Process.Kill() }) // a test that failed half-way leaves no run behind
	stderr.waitFor(t, `^gobench: 1s · `)
	return stdout, stderr, func() error { <-stderr.eof; return cmd.Wait() }
}

// lockDB takes the exclusive lock on the database at path from outside
// gobench, as another application writing would, and holds it until the
// test ends: from then on every op of a rollback-journal run waits in
// SQLite's busy handler.
func lockDB(t *testing.T, path string) {
	t.Helper()
	u := url.URL{Scheme: "file", Opaque: (&url.URL{Path: path}).EscapedPath(), RawQuery: "mode=rw&_pragma=busy_timeout(60000)"}
	db, err := sql.Open("sqlite", u.String())
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	c, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.ExecContext(ctx, "BEGIN EXCLUSIVE"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_, _ = c.ExecContext(ctx, "ROLLBACK")
		c.Close()
		db.Close()
	})
}

func exitStatus(err error) int {
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode()
	}
	if err == nil {
		return 0
	}
	return -1
}

func readRun(t *testing.T, path string) *result.Result {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, err := result.Read(f)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func assertNoWorkers(t *testing.T, r *result.Result) {
	t.Helper()
	for _, w := range r.Phases[0].Workers {
		if w.PID == 0 {
			t.Errorf("worker %d has no pid", w.ID)
			continue
		}
		if err := syscall.Kill(w.PID, 0); !errors.Is(err, syscall.ESRCH) {
			t.Errorf("worker pid %d is still alive", w.PID)
		}
	}
}

func assertEmptyDir(t *testing.T, dir string) {
	t.Helper()
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		t.Errorf("left behind in the temporary directory: %s", e.Name())
	}
}

// The first SIGINT (or SIGTERM, SIGHUP, SIGQUIT) stops the workers after
// their current op: the partial result is printed and saved, marked
// interrupted, and gobench exits 130 (143 for SIGTERM, 129 for SIGHUP, 131
// for SIGQUIT, which prints every goroutine's stack first). A second one
// kills the workers at once: workers whose op cannot end (another
// application holds the database's exclusive lock, and SQLite's busy
// handler would wait ten minutes) are killed. Either way no worker process
// and no temporary directory remain.
func TestSignals(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name    string
		sig     syscall.Signal
		signals int
		code    int
	}{
		{"once", syscall.SIGINT, 1, 130}, {"twice", syscall.SIGINT, 2, 130}, {"sigterm", syscall.SIGTERM, 1, 143},
		{"sighup", syscall.SIGHUP, 1, 129}, {"sigquit", syscall.SIGQUIT, 1, 131},
	} {
		signals := tt.signals
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			tmp := t.TempDir()
			out := filepath.Join(t.TempDir(), "partial.json")
			db := filepath.Join(t.TempDir(), "stuck.db")
			journal := []string{"--journal", "wal"}
			if signals == 2 {
				// Reads alone on a rollback journal: in WAL mode readers
				// would not wait for the lock, and writers between the
				// reads would keep it from the outside connection a while.
				journal = []string{"--journal", "rollback", "--busy-timeout", "10m", "--write-pct", "0", "--db", db}
			}
			args := append([]string{"mix", "--procs", "4", "--duration", "1h", "--progress", "1s", "--json", out}, journal...)
			cmd := gobenchCmd(t, tmp, args...)
			stdout, stderr, wait := startRun(t, cmd)
			if signals == 2 {
				lockDB(t, db)
			}
			if err := cmd.Process.Signal(tt.sig); err != nil {
				t.Fatal(err)
			}
			stderr.waitFor(t, `^gobench: [a-z ]+ \(SIG[A-Z]+\): stopping workers after their current op`)
			if signals == 2 {
				if err := cmd.Process.Signal(tt.sig); err != nil {
					t.Fatal(err)
				}
			}
			if code := exitStatus(wait()); code != tt.code {
				t.Fatalf("exit status %d, want %d; stderr:\n%s", code, tt.code, stderr)
			}
			if !strings.Contains(stderr.String(), "the result is partial") {
				t.Errorf("stderr does not say the result is partial:\n%s", stderr)
			}
			if !strings.HasPrefix(stdout.String(), "INCOMPLETE RESULT: interrupted") {
				t.Errorf("stdout does not open with the interruption:\n%s", stdout)
			}
			if signals == 2 && !strings.Contains(stderr.String(), "interrupted twice: killing the workers") {
				t.Errorf("stderr:\n%s", stderr)
			}
			if dump := strings.Contains(stderr.String(), "SIGQUIT: quit\n\ngoroutine "); dump != (tt.sig == syscall.SIGQUIT) {
				t.Errorf("goroutine dump on stderr: %v, want %v", dump, tt.sig == syscall.SIGQUIT)
			}
			r := readRun(t, out)
			if r.Complete || len(r.Problems) == 0 || r.Problems[0] != "interrupted" || r.Phases[0].Total.Count == 0 {
				t.Errorf("saved result: complete=%v problems=%v ops=%d", r.Complete, r.Problems, r.Phases[0].Total.Count)
			}
			killed := 0
			for _, w := range r.Phases[0].Workers {
				if !w.Finished {
					killed++
				}
				if signals == 1 && !w.Finished {
					t.Errorf("worker %d did not finish its op and report after one interrupt", w.ID)
				}
			}
			if signals == 2 && killed == 0 {
				t.Errorf("every worker finished and reported: none was stuck on the lock and killed")
			}
			t.Logf("%d ops, %d of %d workers killed", r.Phases[0].Total.Count, killed, len(r.Phases[0].Workers))
			assertNoWorkers(t, r)
			assertEmptyDir(t, tmp)
		})
	}
}

// Reading a result that never ends (a FIFO whose writer sends an opening
// brace and then a few spaces every few milliseconds, forever) stops at
// SIGINT at once, exit 130, with a message for a command that has no
// workers.
func TestInterruptedRead(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	fifo := filepath.Join(dir, "endless.json")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("cannot make a FIFO here: %v", err)
	}
	// The test holds the FIFO open for reading and writing before gobench
	// starts (which never blocks on Linux), so gobench finds a writer at
	// its first read however late this goroutine runs; a writer that
	// opened only after gobench's first read would be refused as absent.
	w, err := os.OpenFile(fifo, os.O_RDWR, 0)
	if err != nil {
		t.Skipf("cannot hold a FIFO open both ways here: %v", err)
	}
	t.Cleanup(func() { _ = w.Close() })
	// reading is closed once more than a pipe's buffer (64 KiB) went
	// through: writes that block when it is full finished, so gobench
	// has been reading.
	reading := make(chan struct{})
	go func() {
		spaces := bytes.Repeat([]byte(" "), 1<<10)
		if _, err := w.Write([]byte("{")); err != nil {
			return
		}
		for n := 0; ; n++ {
			if _, err := w.Write(spaces); err != nil {
				return // the test is over
			}
			if n == 128 {
				close(reading)
			}
			if n > 128 {
				time.Sleep(5 * time.Millisecond)
			}
		}
	}()
	cmd := gobenchCmd(t, dir, "report", fifo)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill() })
	// gobench relays interrupts from its start, before the command runs:
	// once it reads the FIFO, the interrupt lands in the read.
	select {
	case <-reading:
	case <-time.After(time.Minute):
		t.Fatalf("gobench read nothing of the FIFO within a minute; stderr:\n%s", &stderr)
	}
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	if code := exitStatus(cmd.Wait()); code != 130 {
		t.Fatalf("exit status %d, want 130; stderr:\n%s", code, &stderr)
	}
	if got := stderr.String(); !strings.Contains(got, "gobench: interrupted (SIGINT): stopping\n") || strings.Contains(got, "worker") || strings.Contains(got, "partial") {
		t.Errorf("stderr:\n%s", got)
	}
}

// A long preload says how far it got, and a SIGTERM during it says that
// setup was interrupted and nothing was measured (it used to say "the
// result is partial" and nothing else): exit 143, no result, no worker,
// no temporary directory left.
func TestInterruptedSetup(t *testing.T) {
	t.Parallel()
	tmp := t.TempDir()
	cmd := gobenchCmd(t, tmp, "mix", "--keys", "20000000", "--value-size", "32", "--progress", "100ms", "--procs", "2")
	var stdout bytes.Buffer
	cmd.Stdout = &stdout
	pipe, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill() })
	stderr := followStderr(pipe)
	stderr.waitFor(t, `^gobench: preloading: \d+ of 20000000 rows \(\d+%\), ETA`) // the preload is under way
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	<-stderr.eof
	if code := exitStatus(cmd.Wait()); code != 143 {
		t.Fatalf("exit status %d, want 143; stderr:\n%s", code, stderr)
	}
	got := stderr.String()
	if !regexp.MustCompile(`gobench: interrupted while setting up the store, before anything was measured: preload stopped after \d+ of 20000000 rows`).MatchString(got) || strings.Contains(got, "partial") {
		t.Errorf("stderr does not say setup was interrupted:\n%s", got)
	}
	if stdout.Len() != 0 {
		t.Errorf("a report of nothing:\n%s", &stdout)
	}
	assertEmptyDir(t, tmp)
}

// SIGKILL to a worker process fails the run: exit 1, the worker named
// with its signal, the partial result saved, no process left. --verify
// still checks the database against what was acknowledged, and says how
// much it checked.
func TestKilledWorker(t *testing.T) {
	t.Parallel()
	tmp := t.TempDir()
	out := filepath.Join(t.TempDir(), "partial.json")
	cmd := gobenchCmd(t, tmp, "mix", "--procs", "3", "--duration", "1h", "--verify", "--progress", "1s", "--json", out)
	_, stderr, wait := startRun(t, cmd)
	// Find a worker: a child of gobench.
	pids, err := childrenOf(cmd.Process.Pid)
	if err != nil {
		t.Skipf("cannot list processes here: %v", err)
	}
	if len(pids) != 3 {
		t.Fatalf("gobench has %d children, want 3 workers: %v", len(pids), pids)
	}
	victim := pids[1]
	if err := exec.Command("kill", "-KILL", victim).Run(); err != nil {
		t.Fatal(err)
	}
	if code := exitStatus(wait()); code != 1 {
		t.Fatalf("exit status %d, want 1; stderr:\n%s", code, stderr)
	}
	if !strings.Contains(stderr.String(), "(pid "+victim+") signal: killed") {
		t.Errorf("stderr does not name the killed worker:\n%s", stderr)
	}
	r := readRun(t, out)
	if r.Complete {
		t.Error("the result of a failed run is marked complete")
	}
	if v := r.Verify; v == nil || v.KeysChecked != r.Plan.Keys.Count || v.AckedWrites == 0 || v.Violations != 0 {
		t.Errorf("verification after the worker died: %+v", v)
	}
	if !regexp.MustCompile(`gobench: verified \d+ keys against \d+ acknowledged writes: 0 violations`).MatchString(stderr.String()) {
		t.Errorf("stderr does not say what was verified:\n%s", stderr)
	}
	assertNoWorkers(t, r)
	assertEmptyDir(t, tmp)
}

// childrenOf lists the pids whose parent is pid, from /proc.
func childrenOf(pid int) ([]string, error) {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range entries {
		if _, err := strconv.Atoi(e.Name()); err != nil {
			continue
		}
		stat, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		// pid (comm) state ppid …; comm may hold spaces, so cut at the last ')'.
		s := string(stat)
		fields := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
		if len(fields) > 1 && fields[1] == strconv.Itoa(pid) {
			out = append(out, e.Name())
		}
	}
	return out, nil
}
