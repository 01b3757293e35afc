package e2e

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/gobench/gobench/internal/cli"
)

// benchstat, built from golang.org/x/perf, reads gobench's benchfmt output
// and compares two runs.
func TestBenchstatReadsBenchfmt(t *testing.T) {
	if testing.Short() {
		t.Skip("builds benchstat from golang.org/x/perf: the full tier")
	}
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
	run := func(name string, args ...string) string {
		var stdout, stderr bytes.Buffer
		env := cli.OSEnv()
		env.Stdout, env.Stderr = &stdout, &stderr
		args = append([]string{"mix", "--driver", "null", "--mode", "goroutine", "--queries", "2000", "--repeat", "4", "-q", "--format", "benchfmt"}, args...)
		if code := cli.Main(args, env); code != 0 {
			t.Fatalf("gobench exit %d: %s", code, stderr.String())
		}
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, stdout.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	benchstatOut := func(args ...string) string {
		out, err := exec.Command(benchstat, args...).CombinedOutput()
		if err != nil {
			t.Fatalf("benchstat %v: %v\n%s", args, err, out)
		}
		return string(out)
	}
	contains := func(out string, want ...string) {
		t.Helper()
		for _, w := range want {
			if !strings.Contains(out, w) {
				t.Errorf("benchstat output lacks %q:\n%s", w, out)
			}
		}
	}
	// Two files of the same settings: a delta per unit, ns/op among them.
	old, new := run("old.txt", "--procs", "2"), run("new.txt", "--procs", "2")
	contains(benchstatOut(old, new), "Mix/op=read", "Mix/op=upsert", "sec/op", "ops/s", "p99-sec", "mean-sec", "vs base", "n=4")
	// Two files of different settings: benchstat splits them into tables
	// by the setting unless told to ignore it, as the README says.
	one := run("one.txt", "--procs", "1")
	contains(benchstatOut("-ignore", "procs", one, new), "vs base")
	// The cells of one matrix file, compared by projecting the setting.
	matrix := run("matrix.txt", "--procs", "1,2")
	out := benchstatOut("-col", "/procs", matrix)
	contains(out, "vs base")
	if !regexp.MustCompile(`│\s+1\s+│\s+2\s+│`).MatchString(out) {
		t.Errorf("benchstat -col /procs shows no procs=1 and procs=2 columns:\n%s", out)
	}

}
