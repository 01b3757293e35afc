package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// A fresh clone installs with go install and the binary names its revision,
// and the README's run command works in it: on a copy of this checkout's
// HEAD.
func TestFreshCloneInstall(t *testing.T) {
	if testing.Short() {
		t.Skip("go install of a fresh clone (a full build with a cold cache): the full tier")
	}
	t.Parallel()
	gitBin, err := exec.LookPath("git")
	if err != nil {
		t.Skip("no git")
	}
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	head, err := exec.Command(gitBin, "-C", root, "rev-parse", "HEAD").Output()
	if err != nil {
		t.Skipf("not a git checkout: %v", err)
	}
	dir := t.TempDir()
	clone, bin := filepath.Join(dir, "gobench"), filepath.Join(dir, "bin")
	run := func(name string, args ...string) string {
		t.Helper()
		cmd := exec.Command(name, args...)
		cmd.Dir = clone
		cmd.Env = append(os.Environ(), "GOBIN="+bin, "GOFLAGS=-buildvcs=true", "TMPDIR="+dir)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	if out, err := exec.Command(gitBin, "clone", "-q", root, clone).CombinedOutput(); err != nil {
		t.Fatalf("git clone: %v\n%s", err, out)
	}
	run("go", "install", "./cmd/gobench")
	gobench := filepath.Join(bin, "gobench")
	version := run(gobench, "--version")
	if !strings.Contains(version, "revision "+strings.TrimSpace(string(head))) || strings.Contains(version, "(modified)") {
		t.Errorf("gobench --version from a clean clone of %s:\n%s", strings.TrimSpace(string(head)), version)
	}
	if out := run(gobench, "mix", "--procs", "4", "--queries", "500"); !strings.Contains(out, "total  ") {
		t.Errorf("gobench mix printed no report:\n%s", out)
	}
	// The README's run command, as written but smaller: it says it is
	// building before anything else, then runs the report.
	out := run("go", "run", "./cmd/gobench-run", "mix", "--procs", "4", "--queries", "500")
	if !strings.HasPrefix(out, "gobench-run: building bin/gobench") || !strings.Contains(out, "; running bin/gobench") || !strings.Contains(out, "total  ") {
		t.Errorf("the README's run command:\n%s", out)
	}
}
