package preload

import (
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"syscall"
	"testing"
)

// The watchdog kills the program's process group when its input ends
// without "done" (the capturing process died), leaves it alone after
// "done", and does nothing when the group never came.
func TestWatchdog(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name   string
		input  string // %d: the group
		killed bool
		err    bool
	}{
		{"capture died", "%d\n", true, false},
		{"capture died mid-word", "%d\ndo", true, false},
		{"capture ended", "%d\ndone\n", false, false},
		{"program never started", "", false, false},
		{"not a group", "1x\n", false, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			prog := exec.Command("sleep", "1000")
			prog.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
			if err := prog.Start(); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = prog.Process.Kill(); _ = prog.Wait() })
			in := tt.input
			if strings.Contains(in, "%d") {
				in = fmt.Sprintf(in, prog.Process.Pid)
			}
			err := Watchdog(strings.NewReader(in))
			if (err != nil) != tt.err {
				t.Fatalf("Watchdog: %v, want an error: %v", err, tt.err)
			}
			alive := syscall.Kill(prog.Process.Pid, 0) == nil
			if tt.killed {
				werr := prog.Wait()
				var ee *exec.ExitError
				if !errors.As(werr, &ee) || ee.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
					t.Fatalf("the program's group was not killed: %v", werr)
				}
			} else if !alive {
				t.Fatal("the program's group was killed")
			}
		})
	}
}
