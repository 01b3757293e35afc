//go:build unix

package ab

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gobench/gobench/pkg/job"
	"github.com/gobench/gobench/pkg/result"
)

// script writes an executable shell script, a stand-in for a build.
func script(t *testing.T, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "gobench")
	if err := os.WriteFile(path, []byte("#!/bin/sh\n"+text), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

// hangingBuild is a build whose every invocation hangs: it records its
// pid and its child's in $PIDS, and ignores interrupts when ignore.
func hangingBuild(t *testing.T, ignore bool) (bin, pids string) {
	t.Helper()
	pids = filepath.Join(t.TempDir(), "pids")
	trap := ""
	if ignore {
		trap = "trap '' INT TERM\n"
	}
	return script(t, trap+"sleep 1000 &\necho $$ $! >> "+pids+"\nwait\n"), pids
}

// waitPIDs waits for the build to record its processes and returns them.
func waitPIDs(t *testing.T, file string) []int {
	t.Helper()
	for range 600 {
		if b, _ := os.ReadFile(file); bytes.HasSuffix(b, []byte("\n")) {
			var out []int
			for _, f := range strings.Fields(string(b)) {
				n, _ := strconv.Atoi(f)
				out = append(out, n)
			}
			return out
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatal("the build never started")
	return nil
}

// gone fails unless every process of pids is gone (or a zombie, waiting
// for its new parent to reap it) soon: a killed process ends a moment
// after its signal is sent.
func gone(t *testing.T, pids []int) {
	t.Helper()
	alive := func(pid int) bool {
		if syscall.Kill(pid, 0) != nil {
			return false
		}
		stat, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
		_, after, ok := bytes.Cut(stat, []byte(") "))
		return !ok || !bytes.HasPrefix(after, []byte("Z"))
	}
	for _, pid := range pids {
		for i := 0; alive(pid); i++ {
			if i == 600 { // 30 s: a hang detector
				t.Errorf("process %d outlived ab's stop", pid)
				_ = syscall.Kill(pid, syscall.SIGKILL)
				break
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
}

// A build whose --dry-run hangs is stopped at the plan's time limit: the
// A/B run fails saying so, and no process of the build is left, not even
// one that ignores interrupts (killed after the grace) nor its child.
func TestHangingBuildStopped(t *testing.T) {
	defer func(p, g time.Duration) { planLimit, stopGrace = p, g }(planLimit, stopGrace)
	planLimit, stopGrace = 200*time.Millisecond, 200*time.Millisecond
	bin, pids := hangingBuild(t, true)
	_, err := Run(context.Background(), Spec{Old: bin, New: bin, Args: []string{"mix"}})
	if !errors.Is(err, errTooLong) || !strings.Contains(err.Error(), "--dry-run (which only plans the command): took too long: still running after 200ms") {
		t.Fatalf("Run: %v, want the plan's time limit", err)
	}
	gone(t, waitPIDs(t, pids))
}

// An interrupt stops a hanging build at once: the whole process group
// is interrupted, not only its leader (a shell waiting for its child),
// and Run returns the interrupt.
func TestInterruptStopsBuildAtOnce(t *testing.T) {
	defer func(g time.Duration) { stopGrace = g }(stopGrace)
	stopGrace = time.Hour // the interrupt alone must stop it
	bin, pids := hangingBuild(t, false)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := Run(ctx, Spec{Old: bin, New: bin, Args: []string{"mix"}})
		done <- err
	}()
	procs := waitPIDs(t, pids)
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("Run: %v, want context.Canceled", err)
		}
	case <-time.After(time.Minute): // a hang detector, not a speed test
		t.Fatal("the interrupt did not stop the build")
	}
	gone(t, procs)
}

// A build whose plan has no cells is refused (it panicked), as is one
// whose plan's cells are null.
func TestPlanWithoutCellsRefused(t *testing.T) {
	dir := t.TempDir()
	for name, text := range map[string]string{
		"none": "", "null": "null",
	} {
		var plan bytes.Buffer
		if err := job.New("mix", result.ShapeMatrix, nil, nil, 1).Write(&plan); err != nil {
			t.Fatal(err)
		}
		if text != "" {
			plan = *bytes.NewBufferString(strings.Replace(plan.String(), `"cells": []`, `"cells": [`+text+`]`, 1))
		}
		file := filepath.Join(dir, name+".json")
		if err := os.WriteFile(file, plan.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		bin := script(t, "cat "+file+"\n")
		if _, err := Run(context.Background(), Spec{Old: bin, New: bin, Args: []string{"mix"}}); !errors.Is(err, ErrRefused) || !strings.Contains(err.Error(), "a plan without its cells") {
			t.Errorf("%s: %v, want ErrRefused", name, err)
		}
	}
}
