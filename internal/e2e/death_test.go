package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// A worker process that dies of SIGABRT (as one that aborts in C does) is
// named by its crash report's first line, not by the register dump that
// ends its output.
func TestCrashedWorker(t *testing.T) {
	tmp := t.TempDir()
	cmd := gobenchCmd(t, tmp, "mix", "--procs", "2", "--duration", "1h")
	_, stderr, wait := startRun(t, cmd)
	pids, err := childrenOf(cmd.Process.Pid)
	if err != nil {
		t.Skipf("cannot list processes here: %v", err)
	}
	if len(pids) != 2 {
		t.Fatalf("gobench has %d children, want 2 workers: %v", len(pids), pids)
	}
	if err := exec.Command("kill", "-ABRT", pids[0]).Run(); err != nil {
		t.Fatal(err)
	}
	if code := exitStatus(wait()); code != 1 {
		t.Fatalf("exit status %d, want 1; stderr:\n%s", code, stderr)
	}
	if !strings.Contains(stderr.String(), "(pid "+pids[0]+") exit status 2; its last output:\n  SIGABRT: abort\n") {
		t.Errorf("stderr does not name the crash:\n%s", stderr)
	}
	assertEmptyDir(t, tmp)
}

// A coordinator killed with SIGKILL runs no cleanup, but leaves no write
// ledger of --verify behind: the ledger has no name once open. (The run's
// temporary directory, which holds the database, does stay.)
func TestKilledCoordinatorLeavesNoLedger(t *testing.T) {
	tmp := t.TempDir()
	cmd := gobenchCmd(t, tmp, "mix", "--procs", "2", "--duration", "1h", "--verify")
	_, _, wait := startRun(t, cmd)
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = wait()
	err := filepath.WalkDir(tmp, func(path string, d os.DirEntry, err error) error {
		if err == nil && strings.HasPrefix(d.Name(), "gobench-writes-") {
			t.Errorf("left behind: %s", path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
