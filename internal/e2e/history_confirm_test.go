package e2e

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gobench/gobench/internal/cli"
	"github.com/gobench/gobench/pkg/result"
)

// TestHistoryConfirmRegression is the last "done means": a
// history whose change point's two commits are gobench and a build 30%
// slower per op (the gobench_slowdown tag), and history confirm runs ab
// of the two and records "regression" beside the change point, which
// show then prints. The history's step is synthetic (a recorded run
// scaled); the A/B run is real: interleaved, one machine.
func TestHistoryConfirmRegression(t *testing.T) {
	if testing.Short() {
		t.Skip("builds gobench twice and runs ab: the full tier")
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command to build gobench with")
	}
	dir := t.TempDir()
	old, slow := filepath.Join(dir, "old", "gobench"), filepath.Join(dir, "slow", "gobench")
	for bin, tags := range map[string]string{old: "", slow: "gobench_slowdown"} {
		build := exec.Command(goBin, "build", "-tags", tags, "-o", bin, "./cmd/gobench")
		build.Dir = filepath.Join("..", "..")
		if out, err := build.CombinedOutput(); err != nil {
			t.Fatalf("building %s: %v\n%s", bin, err, out)
		}
	}
	hist := filepath.Join(dir, "h.db")
	for i := 1; i <= 12; i++ {
		commit, factor := fmt.Sprintf("c%d", i), 1.0
		switch {
		case i == 6:
			commit = old
		case i == 7:
			commit = slow
		}
		if i >= 7 {
			factor = 1.3
		}
		addScaled(t, hist, commit, factor, i)
	}
	var stdout, stderr bytes.Buffer
	env := cli.OSEnv()
	env.Stdout, env.Stderr = &stdout, &stderr
	code := cli.Main([]string{"history", "confirm", "--history", hist, "--figure", "read p50", "--rounds", "3",
		"--", "mix", "--driver", "map", "--mode", "goroutine", "--procs", "1", "--queries", "20000"}, env)
	if code != cli.ExitThreshold || !strings.Contains(stderr.String(), `recorded "regression" beside `+old+` → `+slow) {
		t.Fatalf("exit %d, want %d and the regression recorded:\n%s\n%s", code, cli.ExitThreshold, stdout.String(), stderr.String())
	}
	stdout.Reset()
	if code := cli.Main([]string{"history", "show", "--history", hist, "--figure", "read p50"}, env); code != 0 || !strings.Contains(stdout.String(), "confirmed by ab: regression") {
		t.Errorf("show (exit %d) does not print the verdict:\n%s", code, stdout.String())
	}
}

// addScaled adds the recorded mix run, scaled by factor and started i
// hours later, to the history as commit.
func addScaled(t *testing.T, hist, commit string, factor float64, i int) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "testdata", "mix-wal.json"))
	if err != nil {
		t.Fatal(err)
	}
	r, err := result.Read(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	scale(r, factor, i)
	path := filepath.Join(t.TempDir(), "r.json")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Write(f); err != nil {
		t.Fatal(err)
	}
	f.Close()
	env := cli.OSEnv()
	env.Stdout = &bytes.Buffer{}
	if code := cli.Main([]string{"history", "add", "--history", hist, "--commit", commit, "--branch", "main", path}, env); code != 0 {
		t.Fatalf("history add: exit %d", code)
	}
}
