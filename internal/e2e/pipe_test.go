package e2e

import (
	"bufio"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// hangLimit is the hang detector of these tests: a gobench that has not
// done what it should within it is stuck. Nothing is asserted about how
// fast anything happens.
const hangLimit = 2 * time.Minute

// output collects what gobench writes to a pipe, line by line, and tells
// when a line holding a given text has arrived.
type output struct {
	mu    sync.Mutex
	text  strings.Builder
	wants map[string]chan struct{}
	eof   chan struct{}
}

// watchOutput reads r to its end in the background; wants are the texts
// wait can wait for.
func watchOutput(r io.Reader, wants ...string) *output {
	o := &output{wants: map[string]chan struct{}{}, eof: make(chan struct{})}
	for _, w := range wants {
		o.wants[w] = make(chan struct{})
	}
	go func() {
		defer close(o.eof)
		sc := bufio.NewScanner(r)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			o.mu.Lock()
			o.text.WriteString(sc.Text() + "\n")
			for w, c := range o.wants {
				if strings.Contains(sc.Text(), w) {
					close(c)
					delete(o.wants, w)
				}
			}
			o.mu.Unlock()
		}
	}()
	return o
}

func (o *output) String() string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.text.String()
}

// wait returns once a line holding want has arrived; it fails the test if
// the output ends first or nothing comes within the hang detector.
func (o *output) wait(t *testing.T, want string) {
	t.Helper()
	o.mu.Lock()
	c := o.wants[want]
	o.mu.Unlock()
	if c == nil {
		return // arrived already
	}
	select {
	case <-c:
	case <-o.eof:
		select {
		case <-c:
		default:
			t.Fatalf("the output ended without %q:\n%s", want, o)
		}
	case <-time.After(hangLimit):
		t.Fatalf("no %q within %v:\n%s", want, hangLimit, o)
	}
}

// waitExit waits for cmd to exit and returns its exit status; past the
// hang detector it kills gobench and fails the test.
func waitExit(t *testing.T, cmd *exec.Cmd) int {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		return exitStatus(err)
	case <-time.After(hangLimit):
		_ = cmd.Process.Kill()
		<-done
		t.Fatalf("gobench did not exit within %v", hangLimit)
		return -1
	}
}

// A closed pipe on stdout and stderr (gobench mix 2>&1 | head -3) stops a
// run as SIGTERM does, with SIGPIPE's exit code, 141: the workers finish
// their op, the partial result is saved, nothing is left in the temporary
// directory. The pipe is closed once the workers run, and the progress
// line (every 100 ms) is what meets it.
func TestBrokenPipe(t *testing.T) {
	tmp := t.TempDir()
	out := filepath.Join(t.TempDir(), "partial.json")
	cmd := gobenchCmd(t, tmp, "mix", "--procs", "2", "--duration", "1h", "--progress", "100ms", "--json", out)
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout, cmd.Stderr = w, w
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	w.Close()
	o := watchOutput(r, "running 1 phase(s)")
	o.wait(t, "running 1 phase(s)")
	r.Close() // the reader is gone, as head's after its lines
	if code := waitExit(t, cmd); code != 141 {
		t.Fatalf("exit status %d, want 141; output before the pipe closed:\n%s", code, o)
	}
	res := readRun(t, out)
	if res.Complete || len(res.Problems) == 0 || res.Problems[0] != "interrupted" || res.Phases[0].Total.Count == 0 {
		t.Errorf("saved result: complete=%v problems=%v ops=%d", res.Complete, res.Problems, res.Phases[0].Total.Count)
	}
	for _, w := range res.Phases[0].Workers {
		if !w.Finished {
			t.Errorf("worker %d did not finish its op and report", w.ID)
		}
	}
	assertNoWorkers(t, res)
	assertEmptyDir(t, tmp)
}

// gobench disk 2>&1 | head -1: the next line meets the closed pipe, and
// disk stops with exit 141, its test files removed.
func TestBrokenPipeDisk(t *testing.T) {
	tmp := t.TempDir()
	cmd := gobenchCmd(t, tmp, "disk", "--size", "4M", "--bs", "4k,8k,16k,32k,64k", "--fsync-ops", "100")
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout, cmd.Stderr = w, w
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	w.Close()
	o := watchOutput(r, "gobench: 1 of ")
	o.wait(t, "gobench: 1 of ")
	r.Close()
	if code := waitExit(t, cmd); code != 141 {
		t.Fatalf("exit status %d, want 141; output before the pipe closed:\n%s", code, o)
	}
	assertEmptyDir(t, tmp)
}
