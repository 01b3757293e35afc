package e2e

import (
	"io"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// gobench verify stops at SIGINT with 130, the checks that ran reported
// and the rest not run. The signal is delivered while verify is held in
// the middle of its drivers: its stdout is a pipe the test filled but for
// a few bytes, so gobench blocks printing the first driver's results, once
// it has written its first line (which the test sees in the pipe: by then
// it handles signals). The test drains the pipe only once gobench says it
// is stopping.
func TestVerifyInterrupted(t *testing.T) {
	tmp := t.TempDir()
	cmd := gobenchCmd(t, tmp, "verify", "--driver", "map,btree,modernc,ncruces")
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	filler := fillPipe(t, w, 128)
	er, ew, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout, cmd.Stderr = w, ew
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	w.Close()
	ew.Close()
	stderr := watchOutput(er, "interrupted (SIGINT): stopping")
	deadline := time.Now().Add(hangLimit)
	for {
		n, err := unix.IoctlGetInt(int(r.Fd()), unix.TIOCINQ) // FIONREAD: bytes in the pipe
		if err != nil {
			t.Fatal(err)
		}
		if n > filler {
			break // gobench wrote its first line
		}
		if time.Now().After(deadline) {
			_ = cmd.Process.Kill()
			t.Fatalf("gobench wrote nothing; stderr:\n%s", stderr)
		}
		time.Sleep(5 * time.Millisecond)
	}
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	stderr.wait(t, "interrupted (SIGINT): stopping")
	drained := make(chan []byte, 1)
	go func() { b, _ := io.ReadAll(r); drained <- b }()
	if code := waitExit(t, cmd); code != 130 {
		t.Fatalf("exit status %d, want 130; stderr:\n%s", code, stderr)
	}
	stdout := string((<-drained)[filler:])
	if !strings.HasPrefix(stdout, "PASS  map") || !strings.Contains(stdout, "\nmap: ") {
		t.Errorf("the first driver's checks are not reported:\n%s", stdout)
	}
	for _, d := range []string{"btree", "modernc", "ncruces"} {
		if strings.Contains(stdout, d) {
			t.Errorf("driver %s was checked after the interrupt:\n%s", d, stdout)
		}
	}
	assertEmptyDir(t, tmp)
}

// fillPipe writes into w until no more than room bytes are free in the
// pipe, and returns how many it wrote.
func fillPipe(t *testing.T, w *os.File, room int) int {
	t.Helper()
	size, err := unix.FcntlInt(w.Fd(), unix.F_GETPIPE_SZ, 0)
	if err != nil {
		t.Fatal(err)
	}
	b := make([]byte, size-room)
	for i := range b {
		b[i] = '.'
	}
	if n, err := w.Write(b); err != nil || n != len(b) {
		t.Fatalf("filling the pipe: %d, %v", n, err)
	}
	return len(b)
}
