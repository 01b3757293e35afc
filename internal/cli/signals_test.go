package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// syncBuffer is a buffer the relay goroutine and the test share.
type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// Each signal that stops gobench cancels the command with its own cause,
// which gives its exit code (128 + the signal's number) whatever error
// the command returned with it; a SIGPIPE from any pipe is ignored (only
// a write to stdout or stderr that met a closed pipe stops gobench);
// SIGQUIT prints every goroutine's stack first.
func TestSignalCauses(t *testing.T) {
	for _, tt := range []struct {
		name string
		sig  os.Signal // nil: stdout's reader is gone
		code int
	}{
		{"SIGHUP", syscall.SIGHUP, ExitHangup},
		{"SIGINT", os.Interrupt, ExitInterrupted},
		{"SIGQUIT", syscall.SIGQUIT, ExitQuit},
		{"SIGPIPE on stdout", nil, ExitBrokenPipe},
		{"SIGTERM", syscall.SIGTERM, ExitTerminated},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var sigs chan<- os.Signal
			broken := make(chan struct{})
			stderr := &syncBuffer{}
			env := &Env{Stderr: stderr, BrokenPipe: broken, Notify: func(c chan<- os.Signal) { sigs = c }}
			ctx, cancel := context.WithCancelCause(context.Background())
			defer cancel(nil)
			relaySignals(env, cancel, new(atomic.Bool), new(atomic.Bool))
			sigs <- syscall.SIGPIPE // a dead worker's pipe, say
			if tt.sig != nil {
				sigs <- tt.sig
			} else {
				close(broken)
			}
			select {
			case <-ctx.Done():
			case <-time.After(time.Minute):
				t.Fatal("the command was not cancelled")
			}
			cause := context.Cause(ctx)
			if !errors.Is(cause, context.Canceled) {
				t.Errorf("cause %v does not match context.Canceled", cause)
			}
			for _, err := range []error{cause, errors.Join(errors.New("writing the report: broken pipe"), cause), errors.Join(usage(errors.New("bad")), cause)} {
				if got := exitCode(err); got != tt.code {
					t.Errorf("exitCode(%v) = %d, want %d", err, got, tt.code)
				}
			}
			if quit := strings.Contains(stderr.String(), "SIGQUIT: quit\n\ngoroutine "); quit != (tt.sig == syscall.SIGQUIT) {
				t.Errorf("goroutine dump on stderr: %v; stderr:\n%.300s", quit, stderr)
			}
		})
	}
}

// Main reports a closed stdout as SIGPIPE (exit 141) even when the
// command failed on the write before the relay saw it; a command that runs
// no workers (a report piped into head) says nothing about it, as a Unix
// filter would.
func TestBrokenPipeExitCode(t *testing.T) {
	for _, args := range [][]string{{"version"}, {"report", filepath.Join("..", "..", "testdata", "matrix-errors.json")}} {
		env, _, stderr := testEnv(t)
		broken := make(chan struct{})
		env.BrokenPipe = broken
		env.Stdout = failingWriter{sync.OnceFunc(func() { close(broken) })}
		if code := Main(args, env); code != ExitBrokenPipe {
			t.Fatalf("%v: exit %d, want %d", args, code, ExitBrokenPipe)
		}
		if stderr.Len() > 0 {
			t.Errorf("%v: stderr %q, want nothing: the reader left", args, stderr)
		}
	}
}

// failingWriter fails every write as a pipe without a reader does, after
// calling broken once.
type failingWriter struct{ broken func() }

func (f failingWriter) Write([]byte) (int, error) {
	if f.broken != nil {
		f.broken()
	}
	return 0, fmt.Errorf("write /dev/stdout: %w", syscall.EPIPE)
}
