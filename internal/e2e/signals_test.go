package e2e

import (
	"bufio"
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
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

// startRun starts gobench and returns once its workers run.
func startRun(t *testing.T, cmd *exec.Cmd) (stdout *bytes.Buffer, stderr *bytes.Buffer, wait func() error) {
	t.Helper()
	stdout = &bytes.Buffer{}
	cmd.Stdout = stdout
	pipe, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	stderr = &bytes.Buffer{}
	running := make(chan struct{})
	copied := make(chan struct{})
	go func() {
		defer close(copied)
		sc := bufio.NewScanner(pipe)
		signalled := false
		for sc.Scan() {
			stderr.WriteString(sc.Text() + "\n")
			if !signalled && strings.Contains(sc.Text(), "running 1 phase(s)") {
				signalled = true
				close(running)
			}
		}
	}()
	select {
	case <-running:
	case <-time.After(time.Minute):
		t.Fatalf("gobench did not start its workers; stderr:\n%s", stderr)
	}
	time.Sleep(500 * time.Millisecond) // let the workers get into their ops
	return stdout, stderr, func() error { <-copied; return cmd.Wait() }
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
// kills the workers at once. Either way no worker process and no
// temporary directory remain.
func TestSignals(t *testing.T) {
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
			tmp := t.TempDir()
			out := filepath.Join(t.TempDir(), "partial.json")
			cmd := gobenchCmd(t, tmp, "mix", "--procs", "4", "--duration", "1h", "--journal", "wal", "--json", out)
			stdout, stderr, wait := startRun(t, cmd)
			for range signals {
				if err := cmd.Process.Signal(tt.sig); err != nil {
					t.Fatal(err)
				}
				time.Sleep(10 * time.Millisecond)
			}
			if code := exitStatus(wait()); code != tt.code {
				t.Fatalf("exit status %d, want %d; stderr:\n%s", code, tt.code, stderr)
			}
			if !strings.Contains(stderr.String(), "stopping workers after their current op") || !strings.Contains(stderr.String(), "the result is partial") {
				t.Errorf("stderr does not say what the interrupt does:\n%s", stderr)
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
			if signals == 1 {
				for _, w := range r.Phases[0].Workers {
					if !w.Finished {
						t.Errorf("worker %d did not finish its op and report after one interrupt", w.ID)
					}
				}
			}
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
	dir := t.TempDir()
	fifo := filepath.Join(dir, "endless.json")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("cannot make a FIFO here: %v", err)
	}
	go func() {
		f, err := os.OpenFile(fifo, os.O_WRONLY, 0)
		if err != nil {
			return
		}
		defer f.Close()
		spaces := bytes.Repeat([]byte(" "), 1<<10)
		if _, err := f.Write([]byte("{")); err != nil {
			return
		}
		for {
			if _, err := f.Write(spaces); err != nil {
				return // the reader is gone
			}
			time.Sleep(5 * time.Millisecond)
		}
	}()
	cmd := gobenchCmd(t, dir, "report", fifo)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(300 * time.Millisecond)
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
	tmp := t.TempDir()
	cmd := gobenchCmd(t, tmp, "mix", "--keys", "20000000", "--value-size", "32", "--progress", "100ms", "--procs", "2")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(1500 * time.Millisecond)
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if code := exitStatus(cmd.Wait()); code != 143 {
		t.Fatalf("exit status %d, want 143; stderr:\n%s", code, &stderr)
	}
	got := stderr.String()
	if !regexp.MustCompile(`gobench: preloading: \d+ of 20000000 rows \(\d+%\), ETA`).MatchString(got) {
		t.Errorf("no preload progress on stderr:\n%s", got)
	}
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
	tmp := t.TempDir()
	out := filepath.Join(t.TempDir(), "partial.json")
	cmd := gobenchCmd(t, tmp, "mix", "--procs", "3", "--duration", "1h", "--verify", "--json", out)
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
