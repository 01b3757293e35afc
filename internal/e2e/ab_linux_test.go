package e2e

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// procInfo is a process as /proc shows it: its parent, state and
// command line.
type procInfo struct {
	ppid  int
	state byte
	cmd   string
}

// processes reads every process of /proc.
func processes() map[int]procInfo {
	out := map[int]procInfo{}
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		_, after, ok := bytes.Cut(stat, []byte(") "))
		fields := strings.Fields(string(after))
		if !ok || len(fields) < 2 {
			continue
		}
		ppid, _ := strconv.Atoi(fields[1])
		cmdline, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		out[pid] = procInfo{ppid: ppid, state: fields[0][0], cmd: strings.ReplaceAll(string(cmdline), "\x00", " ")}
	}
	return out
}

// descendants returns the processes below root.
func descendants(root int) map[int]procInfo {
	all := processes()
	out := map[int]procInfo{}
	for pid, p := range all {
		for up := p.ppid; up > 1; up = all[up].ppid {
			if up == root {
				out[pid] = p
				break
			}
			if _, ok := all[up]; !ok {
				break
			}
		}
	}
	return out
}

// A SIGKILLed ab leaves no process behind: the kernel stops the build's
// run it had started (a parent-death signal), and the run's workers go
// with it. The run and its two worker processes are seen running before
// ab is killed.
func TestABKilledLeavesNoOrphans(t *testing.T) {
	bin := gobenchBinary(t)
	dir := t.TempDir()
	ab := exec.Command(bin, "ab", "--old", bin, "--new", bin, "--rounds", "1", "--",
		"mix", "--procs", "2", "--duration", "2m", "--keys", "100")
	ab.Dir = dir
	ab.Env = append(os.Environ(), "TMPDIR="+dir)
	var stderr bytes.Buffer
	ab.Stderr = &stderr
	if err := ab.Start(); err != nil {
		t.Fatal(err)
	}
	defer ab.Process.Kill()
	var seen map[int]procInfo
	for deadline := time.Now().Add(hangDetector); ; time.Sleep(50 * time.Millisecond) {
		seen = descendants(ab.Process.Pid)
		workers := 0
		for _, p := range seen {
			if strings.HasSuffix(strings.TrimSpace(p.cmd), " worker") {
				workers++
			}
		}
		if workers == 2 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the build's run and its workers never started under ab; stderr:\n%s", stderr.String())
		}
	}
	if err := ab.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = ab.Wait()
	for deadline := time.Now().Add(hangDetector); ; time.Sleep(50 * time.Millisecond) {
		all := processes()
		var left []string
		for pid := range seen {
			if p, ok := all[pid]; ok && p.state != 'Z' {
				left = append(left, strconv.Itoa(pid)+" "+p.cmd)
			}
		}
		if len(left) == 0 {
			return
		}
		if time.Now().After(deadline) {
			for pid := range seen {
				_ = syscall.Kill(pid, syscall.SIGKILL)
			}
			t.Fatalf("after ab was killed these kept running:\n%s", strings.Join(left, "\n"))
		}
	}
}
