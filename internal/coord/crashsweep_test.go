package coord

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
)

// The --crash directories of runs whose process is gone (a run killed
// with SIGKILL left its record, tens of megabytes, hidden, and no later
// run removed it) are removed by the next run beside them, or beside a
// run's temporary directory; a live run's, one without the owner file
// and anything not named as gobench's are left alone.
func TestSweepCrashDirs(t *testing.T) {
	if !canSweepCrashDirs {
		t.Skip("this OS has no open-file-description locks: nothing is swept")
	}
	dir := t.TempDir()
	mk := func(rel string) string {
		d := filepath.Join(dir, rel)
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(d, "record"), []byte("GBREC…"), 0o600); err != nil {
			t.Fatal(err)
		}
		return d
	}
	// Two owned by a process killed with SIGKILL: beside the database,
	// and in a run's temporary directory.
	dead := []string{mk(".gobench-crash-1"), mk("gobench-7/.gobench-crash-2")}
	for _, d := range dead {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), "GOBENCH_TEST_WORKER=owncrash", "GOBENCH_TEST_DIR="+d)
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		cmd.Stderr = os.Stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		if line, _ := bufio.NewReader(out).ReadString('\n'); line != "owned\n" {
			t.Fatalf("the owner process said %q", line)
		}
		if err := cmd.Process.Kill(); err != nil {
			t.Fatal(err)
		}
		_ = cmd.Wait()
	}
	live := mk(".gobench-crash-3")
	f, err := ownCrashDir(live)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	unowned := mk(".gobench-crash-4") // no owner file: an older gobench's, or one being made
	other := mk("crash-notes")        // not gobench's name
	if err := os.WriteFile(filepath.Join(other, crashOwner), []byte("1\n"), 0o600); err != nil {
		t.Fatal(err)
	}

	var notes []string
	removed := sweepCrashDirs(dir, func(f string, a ...any) { notes = append(notes, f) })
	slices.Sort(removed)
	if !slices.Equal(removed, dead) || len(notes) != 2 {
		t.Errorf("removed %q (notes %q); want %q", removed, notes, dead)
	}
	for _, d := range dead {
		if _, err := os.Stat(d); !os.IsNotExist(err) {
			t.Errorf("%s is still there: %v", d, err)
		}
	}
	for _, d := range []string{live, unowned, other, filepath.Join(dir, "gobench-7")} {
		if _, err := os.Stat(d); err != nil {
			t.Errorf("%s went: %v", d, err)
		}
	}
}
