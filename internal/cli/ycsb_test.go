package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// ycsbBad runs gobench ycsb with args and checks that it failed as bad
// input: exit 2, one line on stderr holding want, nothing on stdout,
// nothing in the temporary directory.
func ycsbBad(t *testing.T, want string, args ...string) {
	t.Helper()
	env, stdout, stderr := testEnv(t)
	if code := Main(append([]string{"ycsb"}, args...), env); code != ExitUsage {
		t.Fatalf("exit %d, want %d: %s", code, ExitUsage, stderr)
	}
	if msg := stderr.String(); strings.Count(msg, "\n") != 1 || !strings.HasPrefix(msg, "gobench: ") || !strings.Contains(msg, want) {
		t.Errorf("stderr %q, want one line holding %q", msg, want)
	}
	if stdout.Len() != 0 {
		t.Errorf("stdout: %s", stdout)
	}
	if ents, _ := os.ReadDir(os.Getenv("TMPDIR")); len(ents) != 0 {
		t.Errorf("work started: %d entries in the temporary directory", len(ents))
	}
}

// Bad workloads and properties are one line, exit 2, before anything
// runs.
func TestYCSBBadInput(t *testing.T) {
	dir := t.TempDir()
	broken := filepath.Join(dir, "broken")
	if err := os.WriteFile(broken, []byte("recordcount=10\nreadproportion=\\u00zz\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		want string
		args []string
	}{
		{"is a directory, not a property file", []string{"run", dir}},
		{broken + ":2: malformed \\uxxxx escape", []string{"run", broken}},
		{"no such file or directory (the canonical workloads are a to f)", []string{"run", filepath.Join(dir, "none")}},
		{"recordcount (-p): -1 is negative", []string{"run", "a", "-p", "recordcount=-1"}},
		{"sum to 1.05, not 1", []string{"run", "b", "-p", "updateproportion=0.1"}},
		{"unknown request distribution \"gauss\"", []string{"run", "a", "-p", "requestdistribution=gauss"}},
		{"keeps records in no key order, and the workload scans", []string{"run", "e", "--driver", "map", "--mode", "goroutine"}},
		{"-p \"recordcount\": want NAME=VALUE", []string{"run", "a", "-p", "recordcount"}},
		{"--queries: a YCSB workload's ops are operationcount", []string{"run", "a", "--queries", "10"}},
		{"give no --goroutines", []string{"run", "a", "--goroutines", "2"}},
		{"want load or run", []string{"go", "a"}},
		{"want load or run", []string{"run"}},
	} {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) { ycsbBad(t, tt.want, tt.args...) })
	}
}

// A run in this process: the report, a note per property that cannot
// change the workload (none with -q).
func TestYCSBRuns(t *testing.T) {
	for _, quiet := range []bool{false, true} {
		env, stdout, stderr := testEnv(t)
		args := []string{"ycsb", "run", "d", "--driver", "btree", "--mode", "goroutine", "-p", "threadcount=2", "-p", "db=site.ycsb.BasicDB", "--format", "ycsb"}
		if quiet {
			args = append(args, "-q")
		}
		if code := Main(args, env); code != ExitOK {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		for _, want := range []string{"[OVERALL], RunTime(ms), ", "[READ], Operations, 950\n", "[INSERT], Operations, 50\n", "[INSERT], Return=OK, 50\n"} {
			if !strings.Contains(stdout.String(), want) {
				t.Errorf("stdout lacks %q:\n%s", want, stdout)
			}
		}
		if note := "gobench: note: db (-p) is not used"; strings.Contains(stderr.String(), note) == quiet {
			t.Errorf("quiet %v, stderr:\n%s", quiet, stderr)
		}
	}
}
