package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A shard whose run did not complete (interrupted, or its file edited to
// say so) is refused like a shard that stopped early: exit 2, one line
// naming the file and the run, unless --partial, whose suite names it
// among the missing runs.
func TestMergeRefusesIncompleteShard(t *testing.T) {
	dir := t.TempDir()
	for i := 1; i <= 2; i++ {
		env, _, stderr := testEnv(t)
		args := []string{"mix", "--driver", "null", "--mode", "goroutine", "--procs", "1,2", "--queries", "20", "-q",
			"--expect", "errors == 0", "--shard", fmt.Sprintf("%d/2", i), "--json", filepath.Join(dir, fmt.Sprintf("s%d.json", i))}
		if code := Main(args, env); code != ExitOK {
			t.Fatalf("%s: exit %d: %s", args, code, stderr)
		}
	}
	s2 := filepath.Join(dir, "s2.json")
	data, err := os.ReadFile(s2)
	if err != nil {
		t.Fatal(err)
	}
	edited := strings.Replace(string(data), `"complete": true`, `"complete": false`, 1)
	if edited == string(data) {
		t.Fatalf("%s says not that its run completed", s2)
	}
	if err := os.WriteFile(s2, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	s1 := filepath.Join(dir, "s1.json")
	env, stdout, stderr := testEnv(t)
	code := Main([]string{"merge", s1, s2}, env)
	if msg := stderr.String(); code != ExitUsage || strings.Count(msg, "\n") != 1 || !strings.Contains(msg, s2+": shard 2 of 2: the run of procs=2 (repeat 1) did not complete") || stdout.Len() != 0 {
		t.Fatalf("merge of an incomplete shard: exit %d, stdout %d bytes, stderr %q; want exit %d naming %s and its run", code, stdout.Len(), msg, ExitUsage, s2)
	}
	out := filepath.Join(dir, "part.json")
	env, _, stderr = testEnv(t)
	if code := Main([]string{"merge", s1, s2, "--partial", "-o", out}, env); code != ExitOK {
		t.Fatalf("merge --partial: exit %d: %s", code, stderr)
	}
	if b, err := os.ReadFile(out); err != nil || !strings.Contains(string(b), `"missing"`) || !strings.Contains(string(b), "did not complete") {
		t.Errorf("merge --partial: %v; the suite names not the incomplete run as missing", err)
	}
}
