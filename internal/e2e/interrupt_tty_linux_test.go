package e2e

import (
	"bytes"
	"os"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// openPTY opens a pseudo-terminal pair: the terminal a process writes to
// (tty) and the side the test reads what it wrote from (ptmx).
func openPTY(t *testing.T) (ptmx, tty *os.File) {
	t.Helper()
	m, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	fd := int(m.Fd())
	if err := unix.IoctlSetPointerInt(fd, unix.TIOCSPTLCK, 0); err != nil {
		m.Close()
		t.Skipf("no pseudo-terminal: unlocking it: %v", err)
	}
	n, err := unix.IoctlGetInt(fd, unix.TIOCGPTN)
	if err != nil {
		m.Close()
		t.Skipf("no pseudo-terminal: its number: %v", err)
	}
	s, err := os.OpenFile("/dev/pts/"+strconv.Itoa(n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		m.Close()
		t.Skipf("no pseudo-terminal: %v", err)
	}
	t.Cleanup(func() { m.Close(); s.Close() })
	return m, s
}

// terminalOutput collects what a process wrote to a terminal, bytes as
// they come (a progress line redrawn in place ends in no line break).
type terminalOutput struct {
	mu   sync.Mutex
	buf  bytes.Buffer
	grew chan struct{} // closed, and replaced, at every read
	eof  chan struct{}
}

func readTerminal(ptmx *os.File) *terminalOutput {
	o := &terminalOutput{grew: make(chan struct{}), eof: make(chan struct{})}
	go func() {
		defer close(o.eof)
		b := make([]byte, 4096)
		for {
			n, err := ptmx.Read(b) // EIO once no process has the terminal open
			o.mu.Lock()
			o.buf.Write(b[:n])
			close(o.grew)
			o.grew = make(chan struct{})
			o.mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	return o
}

// waitFor returns once the output matches re; it fails when the output
// ends without a match, or after a minute of none.
func (o *terminalOutput) waitFor(t *testing.T, re *regexp.Regexp) {
	t.Helper()
	limit := time.After(time.Minute)
	for {
		o.mu.Lock()
		found, grew := re.Match(o.buf.Bytes()), o.grew
		o.mu.Unlock()
		if found {
			return
		}
		select {
		case <-grew:
		case <-o.eof:
			t.Fatalf("the terminal closed without %q; it shows:\n%q", re, o)
		case <-limit:
			t.Fatalf("no %q on the terminal within a minute; it shows:\n%q", re, o)
		}
	}
}

func (o *terminalOutput) String() string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.buf.String()
}

// On a terminal the progress line is redrawn in place and left open; the
// message of an interrupt (Ctrl-C: SIGINT) that comes while it is shown
// begins on a line of its own instead of being glued to its end, and so
// does the message that the result is partial. A real gobench process
// writes to a real pseudo-terminal; the test acts on what it printed,
// never on time.
func TestInterruptMessageOnItsOwnLine(t *testing.T) {
	t.Parallel()
	ptmx, tty := openPTY(t)
	cmd := gobenchCmd(t, t.TempDir(), "mix", "--driver", "null", "--mode", "goroutine", "--procs", "1", "--duration", "1h", "--progress", "1s", "--format", "csv")
	cmd.Stderr = tty
	var stdout bytes.Buffer
	cmd.Stdout = &stdout
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill() }) // a test that failed half-way leaves no run behind
	tty.Close()                                  // the process holds its own copy
	out := readTerminal(ptmx)
	// The progress line, redrawn in place: no line break after it.
	out.waitFor(t, regexp.MustCompile(`\r\x1b\[Kgobench: 1s · [^\n]*errors 0`))
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	err := cmd.Wait()
	<-out.eof
	if code := exitStatus(err); code != 130 {
		t.Fatalf("exit status %d, want 130 (err %v); the terminal shows:\n%q", code, err, out)
	}
	shown := out.String()
	// The terminal turns a line break into \r\n.
	for _, msg := range []string{"gobench: interrupted (SIGINT): stopping workers", "gobench: interrupted (SIGINT): the result is partial"} {
		i := strings.Index(shown, msg)
		if i < 0 {
			t.Fatalf("no %q on the terminal:\n%q", msg, shown)
		}
		if before := shown[:i]; !regexp.MustCompile(`(^|\n)$`).MatchString(before) {
			t.Errorf("%q does not begin a line: the terminal shows\n%q", msg, shown[max(0, i-120):min(len(shown), i+len(msg))])
		}
	}
	// The progress line that was open before the interrupt still shows
	// whole, ended by a line break rather than wiped.
	if !regexp.MustCompile(`gobench: 1s · [^\r\n]*errors 0\r\n`).MatchString(shown) {
		t.Errorf("the last progress line before the interrupt is not ended by a line break:\n%q", shown)
	}
}
