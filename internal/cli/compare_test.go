package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gobench/gobench/internal/golden"
	"github.com/gobench/gobench/pkg/result"
	"github.com/gobench/gobench/pkg/store/all"
)

// The recorded fixtures: the same WAL suite (5 repeats) with the database
// on tmpfs (old) and on ext4 (new), synchronous=FULL: the fsyncs make the
// writes much slower.
const (
	oldFixture = "../../testdata/compare-old.json"
	newFixture = "../../testdata/compare-new.json"
)

func TestCompareGolden(t *testing.T) {
	for _, tt := range []struct{ name, format string }{
		{"compare.stdout", "text"},
		{"compare-markdown.stdout", "markdown"},
		{"compare-csv.stdout", "csv"},
	} {
		t.Run(tt.format, func(t *testing.T) {
			env, stdout, stderr := testEnv(t)
			if code := Main([]string{"compare", oldFixture, newFixture, "--format", tt.format, "--max-regression", "0%"}, env); code != ExitOK {
				t.Fatalf("exit %d without a threshold; stderr:\n%s", code, stderr)
			}
			golden.Check(t, tt.name, stdout.Bytes())
		})
	}
}

func TestCompareGate(t *testing.T) {
	env, _, stderr := testEnv(t)
	code := Main([]string{"compare", oldFixture, newFixture, "--max-regression", "10%", "--metric", "upsert ops/s"}, env)
	if code != ExitThreshold {
		t.Fatalf("exit %d, want %d", code, ExitThreshold)
	}
	want := "gobench: regression: (all) upsert ops/s: median 8112 → 1425 (-82.4%, higher is better), beyond the 10% allowed and the 25% noise, every repeat worse\n"
	if stderr.String() != want {
		t.Errorf("stderr = %q, want %q", stderr.String(), want)
	}
	// A threshold above the change, but not above the change and the
	// noise, cannot tell: exit 4, or 0 when that counts as a pass; one
	// above both passes.
	for _, tt := range []struct {
		args []string
		code int
		line string
	}{
		{[]string{"--max-regression", "90%"}, ExitUndecided, "the noise, 25%, is wider than a 90% regression: these files can rule out only one of 108% or more"},
		{[]string{"--max-regression", "90%", "--inconclusive", "pass"}, ExitOK, "INCONCLUSIVE"},
		{[]string{"--max-regression", "110%"}, ExitOK, "verdict: pass · 1 of 1 rows judged"},
	} {
		env, stdout, stderr := testEnv(t)
		if code := Main(append([]string{"compare", oldFixture, newFixture, "--metric", "upsert ops/s"}, tt.args...), env); code != tt.code ||
			!strings.Contains(stdout.String()+stderr.String(), tt.line) {
			t.Errorf("%v: exit %d, want %d with %q:\n%s%s", tt.args, code, tt.code, tt.line, stdout, stderr)
		}
	}
}

// Identical inputs never regress, whatever the threshold: below their
// noise they cannot tell (exit 4), above it they pass.
func TestCompareIdentical(t *testing.T) {
	for _, f := range []string{oldFixture, newFixture} {
		env, stdout, stderr := testEnv(t)
		if code := Main([]string{"compare", f, f, "--max-regression", "0.001%"}, env); code != ExitUndecided {
			t.Fatalf("%s against itself: exit %d; %s", f, code, stderr)
		}
		out := stdout.String()
		if strings.Contains(out, "REGRESSION") || strings.Contains(out, "regressed, ") && !strings.Contains(out, " 0 regressed, ") || strings.Count(out, "  +0.0%  ") != 10 {
			t.Errorf("identical inputs show a change:\n%s", out)
		}
		env, stdout, stderr = testEnv(t)
		if code := Main([]string{"compare", f, f, "--max-regression", "500%"}, env); code != ExitOK || !strings.Contains(stdout.String(), "verdict: pass") {
			t.Errorf("%s against itself at 500%%: exit %d; %s%s", f, code, stdout, stderr)
		}
	}
}

func TestCompareRefuses(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"compare", oldFixture, "../../testdata/mix-wal.json"}, "different workloads: phases"},
		{[]string{"compare", oldFixture}, "compare takes two result files"},
		{[]string{"compare", oldFixture, "missing.json"}, "missing.json: no such file"},
		{[]string{"compare", oldFixture, newFixture, "--max-regression", "-5%"}, "--max-regression"},
		{[]string{"compare", oldFixture, newFixture, "--metric", "read p100"}, "--metric"},
		{[]string{"compare", oldFixture, newFixture, "--format", "benchfmt"}, "--format"},
	} {
		env, _, stderr := testEnv(t)
		if code := Main(tt.args, env); code != ExitUsage || !strings.Contains(stderr.String(), tt.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 and %q", tt.args, code, stderr, tt.want)
		}
	}
}

func TestMergeRefuses(t *testing.T) {
	env, _, stderr := testEnv(t)
	if code := Main([]string{"merge", oldFixture, "../../testdata/mix-wal.json"}, env); code != ExitUsage || !strings.Contains(stderr.String(), "different workloads") {
		t.Errorf("merge of different workloads: exit %d, %q", code, stderr)
	}
	env, _, _ = testEnv(t)
	if code := Main([]string{"merge"}, env); code != ExitUsage {
		t.Errorf("merge of nothing: exit %d", code)
	}
}

// A result written before engines named their options by their flags
// (busy_timeout_ms=5000) compares with one written since
// (busy-timeout=5s): both are read under today's names, so the cells
// match. Without the naming they share no cell.
func TestCompareLegacyWithNamed(t *testing.T) {
	f, err := os.Open(newFixture)
	if err != nil {
		t.Fatal(err)
	}
	legacy, err := result.ReadSuite(f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	before := result.RunSettings(legacy.Cells[0].Runs[0]).String()
	named, err := legacy.Named(all.Registry())
	if err != nil {
		t.Fatal(err)
	}
	if result.RunSettings(named.Cells[0].Runs[0]).String() == before {
		t.Fatal("naming changed no setting: the test would pass vacuously")
	}
	path := filepath.Join(t.TempDir(), "named.json")
	var buf bytes.Buffer
	if err := named.Write(&buf); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), `"name": "busy-timeout"`) {
		t.Fatalf("the named file does not name busy-timeout")
	}
	env, stdout, stderr := testEnv(t)
	if code := Main([]string{"compare", oldFixture, path, "--max-regression", "0%"}, env); code != ExitOK {
		t.Fatalf("exit %d; stderr:\n%s", code, stderr)
	}
	if strings.Contains(stdout.String(), "not compared") {
		t.Errorf("cells did not match:\n%s", stdout)
	}
}

// Results whose machines' calibrations differ beyond half the threshold
// get no verdict on throughput or latency: exit 4, the machine's figures
// on stdout and stderr; the same results calibrated alike are judged.
func TestCompareMachineChanged(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, cal float64) string {
		f, err := os.Open("../../testdata/compare-aa-old.json")
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		s, err := result.ReadSuite(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range s.Cells {
			for i, r := range c.Runs {
				jitter := 1 + 0.01*float64(i)
				r.Environment.Machine = &result.Machine{Before: result.Probe{CPUMicros: cal * jitter}, After: result.Probe{CPUMicros: cal / jitter}}
			}
		}
		path := filepath.Join(dir, name)
		var b bytes.Buffer
		if err := s.Write(&b); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	quiet, busy, alike := write("quiet.json", 1.5), write("busy.json", 3), write("alike.json", 1.5)
	env, stdout, stderr := testEnv(t)
	if code := Main([]string{"compare", quiet, busy}, env); code != ExitUndecided {
		t.Fatalf("exit %d, want %d; %s", code, ExitUndecided, stderr)
	}
	if !strings.Contains(stdout.String(), "verdict: INCONCLUSIVE: the machine changed") ||
		!strings.Contains(stdout.String(), "machine: the machine was 100% slower during NEW: calibration 3.00µs vs 1.50µs") ||
		!strings.HasPrefix(stderr.String(), "gobench: machine changed: the machine was 100% slower during NEW") || strings.Contains(stdout.String(), "REGRESSION") {
		t.Errorf("stdout:\n%s\nstderr:\n%s", stdout, stderr)
	}
	env, stdout, _ = testEnv(t)
	Main([]string{"compare", quiet, alike}, env)
	if strings.Contains(stdout.String(), "machine changed") || !strings.Contains(stdout.String(), "its probes show no move beyond the 5%") {
		t.Errorf("machines calibrated alike:\n%s", stdout)
	}
}
