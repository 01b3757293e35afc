package e2e

import (
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gobench/gobench/pkg/sqltrace"
)

// needCC skips a test of gobench capture where its library cannot be
// built.
func needCC(t *testing.T) {
	t.Helper()
	if ok, _ := condition("cc"); !ok {
		t.Skip("no C compiler: the capture library cannot be built")
	}
}

// startCapture starts gobench capture of program (a shell script) in dir
// and returns once the program printed "ready" on stderr and a sleep runs
// below gobench, with the processes below gobench then.
func startCapture(t *testing.T, dir, script string) (*exec.Cmd, *stderrFollower, map[int]procInfo) {
	t.Helper()
	cmd := gobenchCmd(t, dir, "capture", "--out", "app.trace", "--", "sh", "-c", script)
	cmd.Dir = dir
	cmd.Env = append(cmd.Env, "GOBENCH_CACHE_DIR="+filepath.Join(dir, "cache"))
	pipe, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill() })
	stderr := followStderr(pipe)
	stderr.waitFor(t, `^ready$`)
	var procs map[int]procInfo
	for deadline := time.Now().Add(hangDetector); ; time.Sleep(20 * time.Millisecond) {
		procs = descendants(cmd.Process.Pid)
		if slices.ContainsFunc(slices.Collect(maps.Values(procs)), func(p procInfo) bool { return strings.HasPrefix(p.cmd, "sleep ") }) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no sleep below gobench capture: %v", procs)
		}
	}
	t.Cleanup(func() {
		for pid := range procs {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
	})
	if len(procs) == 0 {
		t.Fatal("the program runs no process")
	}
	return cmd, stderr, procs
}

// awaitGone polls until none of procs is alive (zombies aside), failing
// after hangDetector.
func awaitGone(t *testing.T, procs map[int]procInfo, what string) {
	t.Helper()
	for deadline := time.Now().Add(hangDetector); ; time.Sleep(20 * time.Millisecond) {
		all := processes()
		var left []string
		for pid := range procs {
			if p, ok := all[pid]; ok && p.state != 'Z' && p.cmd == procs[pid].cmd {
				left = append(left, strconv.Itoa(pid)+" "+p.cmd)
			}
		}
		if len(left) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s, these kept running:\n%s", what, strings.Join(left, "\n"))
		}
	}
}

// A signal that stops gobench capture reaches the program and every
// process of it: a shell running a long sleep (two processes) stops,
// gobench writes the trace of what ran and exits with the signal's
// status. gobench is told by its own signal alone (a CI runner's cancel,
// timeout, systemd), not by a terminal's Ctrl-C to the whole group.
func TestCaptureSignals(t *testing.T) {
	needCC(t)
	for _, tt := range []struct {
		name string
		sig  syscall.Signal
		code int
	}{
		{"SIGTERM", syscall.SIGTERM, 143},
		{"SIGINT", syscall.SIGINT, 130},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			script := `echo ready >&2; sleep 1000; echo never >&2`
			sql := sqlite3CLI()
			if sql {
				script = `sqlite3 app.db "CREATE TABLE t (x); INSERT INTO t VALUES (1)"; ` + script
			}
			cmd, stderr, procs := startCapture(t, dir, script)
			if len(procs) < 2 {
				t.Fatalf("want the shell and its sleep, got %v", procs)
			}
			start := time.Now()
			if err := cmd.Process.Signal(tt.sig); err != nil {
				t.Fatal(err)
			}
			exited := make(chan error, 1)
			go func() { <-stderr.eof; exited <- cmd.Wait() }()
			select {
			case err := <-exited:
				t.Logf("gobench exited %v after the signal", time.Since(start))
				if got := exitStatus(err); got != tt.code {
					t.Errorf("exit status %d, want %d; stderr:\n%s", got, tt.code, stderr)
				}
			case <-time.After(hangDetector):
				t.Fatalf("gobench capture still runs %v after %s; stderr:\n%s", hangDetector, tt.name, stderr)
			}
			awaitGone(t, procs, "after "+tt.name+" of gobench capture")
			if strings.Contains(stderr.String(), "never") {
				t.Error("the program ran past its sleep")
			}
			in, err := sqltrace.Inspect(func() (io.ReadCloser, error) { return os.Open(filepath.Join(dir, "app.trace")) })
			if err != nil {
				t.Fatalf("the trace: %v; stderr:\n%s", err, stderr)
			}
			if sql && in.Commits != 2 {
				t.Errorf("the trace holds %d commits, want the program's 2", in.Commits)
			}
		})
	}
}

// A SIGKILLed gobench capture leaves no process of the program behind:
// the kernel kills its first process with gobench (a parent-death
// signal), and the capture's watchdog, which outlives gobench, kills the
// processes that one started (a shell's background sleep, which the death
// signal does not reach), those in a session of their own too (a daemon
// made with setsid, outside the program's process group): each carries
// the capture's mark in its environment. The watchdog itself is gone too.
func TestCaptureKilledLeavesNoOrphans(t *testing.T) {
	needCC(t)
	for _, tt := range []struct{ name, script string }{
		{"the program", `echo ready >&2; exec sleep 1000`},
		{"its child", `sleep 1000 & echo ready >&2; wait`},
		{"a daemon", `setsid sh -c 'echo $$ > daemon.pid; exec sleep 1000' & while [ ! -s daemon.pid ]; do sleep 0.01; done; echo ready >&2; wait`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			cmd, _, procs := startCapture(t, dir, tt.script)
			watchdogs := 0
			for _, p := range procs {
				if strings.Contains(p.cmd, " watchdog") {
					watchdogs++
				}
			}
			if watchdogs != 1 {
				t.Fatalf("%d capture watchdogs (gobench watchdog) below gobench, want 1: %v", watchdogs, procs)
			}
			if b, err := os.ReadFile(filepath.Join(dir, "daemon.pid")); err == nil {
				pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
				if err != nil {
					t.Fatal(err)
				}
				p, ok := processes()[pid]
				if !ok || p.cmd != "sleep 1000 " {
					t.Fatalf("the daemon %d is not a sleep: %+v", pid, p)
				}
				if pgid, _ := syscall.Getpgid(pid); pgid != pid {
					t.Fatalf("the daemon %d is in group %d, not its own", pid, pgid)
				}
				procs[pid] = p
				t.Cleanup(func() { _ = syscall.Kill(pid, syscall.SIGKILL) })
			}
			if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
				t.Fatal(err)
			}
			_ = cmd.Wait()
			awaitGone(t, procs, "after gobench capture was killed")
		})
	}
}

// A program killed between two of the capture library's flushes keeps
// its last statements: the sqlite3 shell runs 21 statements, well within
// one flush's 100 ms and 64 KiB, then waits for input. Killed by a signal
// of gobench's (SIGTERM, to the program's whole group), the trace holds
// all 21 commits, is marked as one whose end may be missing (the program
// died of a signal), and the summary says so; killed alone (SIGKILL of
// the shell's process), every commit is kept too.
func TestCaptureKilledKeepsTail(t *testing.T) {
	needCC(t)
	if !sqlite3CLI() {
		t.Skip("no sqlite3 shell linked to the system's libsqlite3")
	}
	const script = `{ echo "CREATE TABLE t (x);"; i=0; while [ $i -lt 20 ]; do echo "INSERT INTO t VALUES ($i);"; i=$((i+1)); done; echo "SELECT 'ready';"; sleep 1000; } | sqlite3 app.db >&2`
	for _, tt := range []struct {
		name   string
		killed string // the process sent the signal
		sig    syscall.Signal
		code   int
		marked bool
	}{
		{"gobench SIGTERM", "gobench", syscall.SIGTERM, 143, true},
		{"sqlite3 SIGKILL", "sqlite3", syscall.SIGKILL, 137, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			cmd, stderr, procs := startCapture(t, dir, script)
			target := cmd.Process.Pid
			if tt.killed != "gobench" {
				target = 0
				for pid, p := range procs {
					if strings.HasPrefix(p.cmd, tt.killed+" ") {
						target = pid
					}
				}
				if target == 0 {
					t.Fatalf("no %s below gobench: %v", tt.killed, procs)
				}
			}
			if err := syscall.Kill(target, tt.sig); err != nil {
				t.Fatal(err)
			}
			if tt.killed != "gobench" {
				for pid, p := range procs {
					if strings.HasPrefix(p.cmd, "sleep ") {
						_ = syscall.Kill(pid, syscall.SIGKILL) // the pipeline's writer; the shell then ends
					}
				}
			}
			exited := make(chan error, 1)
			go func() { <-stderr.eof; exited <- cmd.Wait() }()
			select {
			case err := <-exited:
				if got := exitStatus(err); got != tt.code {
					t.Errorf("exit status %d, want %d; stderr:\n%s", got, tt.code, stderr)
				}
			case <-time.After(hangDetector):
				t.Fatalf("gobench capture still runs; stderr:\n%s", stderr)
			}
			in, err := sqltrace.Inspect(func() (io.ReadCloser, error) { return os.Open(filepath.Join(dir, "app.trace")) })
			if err != nil {
				t.Fatalf("the trace: %v; stderr:\n%s", err, stderr)
			}
			if in.Commits != 21 {
				t.Errorf("the trace holds %d commits, want the program's 21; stderr:\n%s", in.Commits, stderr)
			}
			if marked := in.TailMissing != ""; marked != tt.marked {
				t.Errorf("the trace's end marked missing: %q, want marked %v", in.TailMissing, tt.marked)
			}
			said := strings.Contains(stderr.String(), "the program died of signal 15 (terminated): its last statements may be missing")
			if said != tt.marked {
				t.Errorf("the summary says the program died of SIGTERM: %v, want %v; stderr:\n%s", said, tt.marked, stderr)
			}
		})
	}
}
