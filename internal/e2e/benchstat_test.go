package e2e

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gobench/gobench/internal/cli"
)

// benchstat, built from golang.org/x/perf, reads gobench's benchfmt output
// and compares two runs.
func TestBenchstatReadsBenchfmt(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command to build benchstat with")
	}
	dir := t.TempDir()
	benchstat := filepath.Join(dir, "benchstat")
	build := exec.Command(goBin, "build", "-o", benchstat, "golang.org/x/perf/cmd/benchstat")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building benchstat: %v\n%s", err, out)
	}
	var files []string
	for _, name := range []string{"old.txt", "new.txt"} {
		var stdout, stderr bytes.Buffer
		env := cli.OSEnv()
		env.Stdout, env.Stderr = &stdout, &stderr
		args := []string{"mix", "--driver", "null", "--mode", "goroutine", "--procs", "2", "--queries", "2000", "--repeat", "4", "-q", "--format", "benchfmt"}
		if code := cli.Main(args, env); code != 0 {
			t.Fatalf("gobench exit %d: %s", code, stderr.String())
		}
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, stdout.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, p)
	}
	out, err := exec.Command(benchstat, files...).CombinedOutput()
	if err != nil {
		t.Fatalf("benchstat: %v\n%s", err, out)
	}
	for _, want := range []string{"Mix/op=read", "Mix/op=upsert", "ops/s", "vs base", "n=4"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("benchstat output lacks %q:\n%s", want, out)
		}
	}
}
