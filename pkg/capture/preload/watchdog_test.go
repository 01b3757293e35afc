package preload

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The watchdog kills the program's process group when its input ends
// without "done" (the capturing process died), and every process that
// carries the capture's mark, in a session of its own too; it leaves
// them alone after "done", does nothing when the group never came, and
// never touches a process without the mark outside the group.
func TestWatchdog(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name   string
		input  string // %[1]d: the group; %[2]s: the mark, quoted
		killed bool
		err    bool
	}{
		{"capture died", "%[1]d %[2]s\n", true, false},
		{"capture died mid-word", "%[1]d %[2]s\ndo", true, false},
		{"capture ended", "%[1]d %[2]s\ndone\n", false, false},
		{"program never started", "", false, false},
		{"not a group", "1x %[2]s\n", false, true},
		{"no mark", "%[1]d\n", false, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			mark := "GOBENCH_CAPTURE_DIR=" + t.TempDir()
			group := start(t, &syscall.SysProcAttr{Setpgid: true}, mark)
			daemon := start(t, &syscall.SysProcAttr{Setsid: true}, mark)
			stranger := start(t, &syscall.SysProcAttr{Setsid: true}, mark+"x")
			in := tt.input
			if in != "" {
				in = fmt.Sprintf(in, group.Process.Pid, strconv.Quote(mark))
			}
			err := Watchdog(strings.NewReader(in))
			if (err != nil) != tt.err {
				t.Fatalf("Watchdog: %v, want an error: %v", err, tt.err)
			}
			for _, p := range []struct {
				what   string
				cmd    *exec.Cmd
				killed bool
			}{{"the program's group", group, tt.killed}, {"a marked process of another session", daemon, tt.killed}, {"a process without the mark", stranger, false}} {
				if p.killed {
					waited := make(chan error, 1)
					go func() { waited <- p.cmd.Wait() }()
					select {
					case werr := <-waited:
						var ee *exec.ExitError
						if !errors.As(werr, &ee) || ee.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
							t.Errorf("%s ended, not killed: %v", p.what, werr)
						}
					case <-time.After(time.Minute): // a hang guard: Watchdog has returned
						t.Errorf("%s was not killed", p.what)
					}
				} else if syscall.Kill(p.cmd.Process.Pid, 0) != nil {
					t.Errorf("%s was killed", p.what)
				}
			}
		})
	}
}

// start starts a long sleep with attrs and mark in its environment.
func start(t *testing.T, attrs *syscall.SysProcAttr, mark string) *exec.Cmd {
	t.Helper()
	c := exec.Command("sleep", "1000")
	c.SysProcAttr = attrs
	c.Env = append(os.Environ(), mark)
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Process.Kill(); _ = c.Wait() })
	return c
}
