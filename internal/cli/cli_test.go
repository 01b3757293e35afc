package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/pflag"

	"github.com/gobench/gobench/internal/golden"
	"github.com/gobench/gobench/pkg/job"
	"github.com/gobench/gobench/pkg/result"
	"github.com/gobench/gobench/pkg/store/all"
)

// testEnv returns an Env with buffers for stdio and the real file system,
// temporary files going to a test directory.
func testEnv(t *testing.T) (*Env, *bytes.Buffer, *bytes.Buffer) {
	t.Helper()
	t.Setenv("TMPDIR", t.TempDir())
	var stdout, stderr bytes.Buffer
	env := &Env{
		Stdin:  strings.NewReader(""),
		Stdout: &stdout,
		Stderr: &stderr,
		Getenv: os.Getenv,
		PID:    os.Getpid(),
		FS:     newOSFS(),
	}
	return env, &stdout, &stderr
}

// A huge flag value is not echoed whole: the message around it stays
// readable.
func TestLongValueCut(t *testing.T) {
	env, _, stderr := testEnv(t)
	if code := Main([]string{"mix", "--mix", strings.Repeat("x", 100<<10)}, env); code != ExitUsage {
		t.Fatalf("exit %d", code)
	}
	first, _, _ := strings.Cut(stderr.String(), "\n")
	if len(first) > 300 || !strings.Contains(first, `…" (102400 bytes)`) || !strings.Contains(first, `for "--mix" flag`) {
		t.Errorf("%d bytes: %.400s", len(first), first)
	}
}

func TestBadInputExitsTwo(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		args string
		want string
	}{
		{"mix --procs 0", "procs 0 is out of range"},
		{"mix --goroutines -1", "goroutines -1 is out of range"},
		{"mix --queries -5", "op count -5 is negative"},
		{"mix --queries 10 --duration 1s", "--queries and --duration both given"},
		{"mix --mix read=90,upsert=5", "sums to 95, not 100"},
		{"mix --mix read=95,scan=5", "scan cannot be dealt by a lottery mix"},
		{"mix --mix read=95,frob=5", `unknown op "frob"`},
		{"mix --mix read=95,upsert=5 --write-pct 5", "--mix and --write-pct both given"},
		{"mix --write-pct 150", "out of range"},
		{"mix --driver oracle", `unknown driver "oracle"`},
		{"mix --journal wall", `unknown journal mode "wall"`},
		{"mix --sync fast", `unknown sync level "fast"`},
		{"mix --busy-timeout -1s", "busy timeout"},
		{"mix --value-size 0", "value size 0 is out of range"},
		{"mix --value-size 100000000", "value size 100000000 is out of range"},
		{"mix --keys 0", "key count is 0"},
		{"mix --dist normal", `unknown key distribution "normal"`},
		{"mix --dist zipfian --zipf-theta 1.5", "zipfian theta 1.5 is out of range"},
		{"mix --format yaml", `unknown format "yaml"`},
		{"disk --format html", `--format: unknown format "html" for a disk report (want one of csv, json, markdown, text)`},
		{"compare " + fixture + " " + fixture + " --format benchfmt", `--format: unknown format "benchfmt" for a comparison (want one of csv, json, markdown, text)`},
		{"mix --mode threads", `unknown worker mode "threads"`},
		{"mix --on-error ignore", `unknown error policy "ignore"`},
		{"mix --batch 0", "batch 0 is out of range"},
		{"blob --count 0", `"0" is not a positive count`},
		{"blob --size 10x", `--size: "10x" is not a positive size`},
		{"blob --size 1k --variance 1k", "value size variance 1024 is out of range"},
		{"blob --size 20M", "value size 20971520 is out of range"},
		{"blob --sample 30k", "more than the 20000 blobs"},
		{"blob --targets db,cloud", `unknown target "cloud"`},
		{"blob --driver files", "the db target needs a SQLite driver"},
		{"blob --api mmap", `unknown API "mmap" (want sql or blob)`},
		{"blob --driver modernc --api blob", "use the ncruces or capi driver"},
		{"blob --sync --nosync", "--sync and --nosync both given"},
		{"blob --journal wall", `unknown journal mode "wall"`},
		{"blob --mode threads", `unknown worker mode "threads"`},
		{"blob --count 10 --procs 11", "--procs 11: want 1 to the 10 blobs"},
		{"mix --driver null --journal wal", "--journal applies to the SQLite drivers"},
		{"mix --mode goroutine --ready-timeout 1s", "--ready-timeout applies to worker processes"},
		{"mix --db /nonexistent/dir/x.db", "directory /nonexistent/dir does not exist"},
		{"mix --json /nonexistent/dir/r.json", "--json /nonexistent/dir/r.json: directory /nonexistent/dir does not exist"},
		{"crud --dir /nonexistent/dir", "--dir: directory /nonexistent/dir does not exist"},
		{"blob --dir /nonexistent/dir", "--dir: directory /nonexistent/dir does not exist"},
		{"disk --dir /nonexistent/dir", "--dir: directory /nonexistent/dir does not exist"},
		{"mix --shard 1of4", `--shard: "1of4" is not a shard I/N, such as 1/4`},
		{"mix --warmup 0s", "--warmup: 0s is not a positive duration"},
		{"mix --stall-timeout 0s", "--stall-timeout must be"},
		{"mix --stall-timeout 1ns", "at least 1ms"},
		{"crud --stall-timeout 5ns", "at least 1ms"},
		{"blob --stall-timeout 5ns", "at least 1ms"},
		{"mix --ready-timeout 1ns", "at least 1ms"},
		{"mix --repeat 0", "--repeat 0"},
		{"mix --driver map --mode process", "keeps its data in one process's memory"},
		{"mix --journal wal --journal rollback", "--journal is given twice: for several values give one comma list"},
		{"mix --queries 10 --queries=20", "--queries is given twice"},
		{"crud -q -q", "--quiet is given twice"},
		{"disk --bs 4k,4k", "block size 4096 is listed twice"},
		{"mix --driver null --mode goroutine --procs 1,2,3,4,5,6,7,8,9,10 --goroutines 1,2,3,4,5,6,7,8,9,10 --batch 1,2,3,4,5,6,7,8,9,10,11 --max-runs 1000", "1100 runs (cells × --repeat) are more than --max-runs 1000"},
		{"mix --driver null --mode goroutine --procs 1,2 --repeat 6000", "12000 runs (cells × --repeat) are more than --max-runs 10000"},
		{"crud --rows 10q", "not a positive count"},
		{"crud --storage tape", `--storage "tape"`},
		{"crud --rounds 0", "--rounds 0"},
		{"compare a.json", "compare takes two result files"},
		{"merge", "merge takes at least one result file"},
		{"merge " + fixture + " " + fixture, "the same run is given twice"},
		{"mix --rate NaN", "--rate NaN: want a finite number"},
		{"mix --driver modernc --mode goroutine --keys 1000000000000 --value-size 100000 --queries 10", "need at least 90949 TiB"},
		{"mix --rate +Inf", "--rate +Inf: want a finite number"},
		{"mix --rate 1e-9 --queries 10", "longer than the maximum of 72h0m0s"},
		{"mix --journal rollback,wal --expect upsert_ops/s:_wal_>=_NaNx_rollback", "is not a positive number"},
		{"mix --journal rollback,wal --expect upsert_ops/s:_wal_>=_Infx_rollback", "is not a positive number"},
		{"compare " + fixture + " " + fixture + " --max-regression NaN%", "--max-regression"},
		{"compare " + fixture + " " + fixture + " --max-regression Inf%", "--max-regression"},
		{"compare " + fixture + " " + fixture + " --max-regression -5%", "--max-regression"},
		{"verify --driver oracle", `unknown driver "oracle"`},
		{"mix --db " + dir, "is a directory"},
		{"mix --queries ten", `invalid argument "ten"`},
		{"mix --bogus", "unknown flag: --bogus"},
		{"mix extra", `unknown command "extra"`},
		{"frobnicate", `unknown command "frobnicate" for "gobench" (see 'gobench --help')`},
		{"completion bash extra", `unknown command "extra" for "gobench completion bash" (see 'gobench completion bash --help')`},
		{"version extra", `unknown command "extra" for "gobench version"`},
		{"disk extra", `unknown command "extra" for "gobench disk"`},
		{"sql --builtin tpcb-like --scale 99999999999", "pgbench's tables at scale 99999999999 need at least 763976 TiB"},
		{"crud --rows 1000000000000 --value-size 100000", "1000000000000 rows of at least 100000 bytes need at least 90949 TiB"},
		{"blob --count 100000000000 --size 1M", "rows of at least 838861 bytes need at least"},
		{"disk --size 9000000G", "--size 9000000G: the run needs 8789 TiB"},
		{"disk --size 4k --bs 1G", "block size 1073741824 is larger than the size 4096"},
		{"mix --zipf-theta NaN", "--zipf-theta NaN: want a finite number"},
		{"mix --rate-max NaN", "--rate-max NaN: want a finite number"},
		{"mix --queries 1e309", `invalid argument "1e309" for "--queries"`},
	}
	for _, tt := range tests {
		t.Run(tt.args, func(t *testing.T) {
			env, stdout, stderr := testEnv(t)
			var args []string
			for _, a := range strings.Fields(tt.args) {
				args = append(args, strings.ReplaceAll(a, "_", " ")) // "_" stands for a space inside an argument
			}
			code := Main(args, env)
			if code != ExitUsage {
				t.Errorf("exit code %d, want %d; stderr:\n%s", code, ExitUsage, stderr)
			}
			first, _, _ := strings.Cut(stderr.String(), "\n")
			if !strings.HasPrefix(first, "gobench: ") || !strings.Contains(first, tt.want) {
				t.Errorf("first stderr line %q, want it to contain %q", first, tt.want)
			}
			if n := strings.Count(stderr.String(), "\n"); n != 1 {
				t.Errorf("%d lines on stderr, want one:\n%s", n, stderr)
			}
			if strings.Contains(stderr.String(), "goroutine ") && strings.Contains(stderr.String(), ".go:") {
				t.Errorf("stack trace on stderr:\n%s", stderr)
			}
			if stdout.Len() != 0 {
				t.Errorf("stdout not empty on bad input:\n%s", stdout)
			}
			if entries, _ := os.ReadDir(os.Getenv("TMPDIR")); len(entries) != 0 {
				t.Errorf("bad input left %d entries in the temporary directory", len(entries))
			}
		})
	}
}

// A small run in-process: the report on stdout, notes on stderr, exit 0.
func TestMixRuns(t *testing.T) {
	env, stdout, stderr := testEnv(t)
	out := filepath.Join(t.TempDir(), "r.json")
	code := Main([]string{"mix", "--driver", "null", "--mode", "goroutine", "--procs", "2", "--queries", "300", "--json", out}, env)
	if code != ExitOK {
		t.Fatalf("exit %d; stderr:\n%s", code, stderr)
	}
	for _, want := range []string{"gobench mix · driver null", "2 procs × 1 goroutine (goroutine mode)", "total    600"} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("stdout lacks %q:\n%s", want, stdout)
		}
	}
	if !strings.Contains(stderr.String(), "gobench: preloaded 10000 rows") {
		t.Errorf("stderr lacks the preload note:\n%s", stderr)
	}
	if b, err := os.ReadFile(out); err != nil || !bytes.Contains(b, []byte(`"schema_version": 1`)) {
		t.Errorf("--json file: %v", err)
	}
	if entries, _ := os.ReadDir(os.Getenv("TMPDIR")); len(entries) != 0 {
		t.Errorf("the temporary database directory was left behind")
	}
}

func TestHelpGolden(t *testing.T) {
	if all.DefaultDriver() != "mattn" {
		t.Skip("the golden help lists the drivers of a cgo build")
	}
	for _, tt := range []struct{ name, args string }{
		{"root-help.stdout", "--help"},
		{"mix-help.stdout", "mix --help"},
		{"sql-help.stdout", "sql --help"},
		{"crud-help.stdout", "crud --help"},
		{"disk-help.stdout", "disk --help"},
		{"blob-help.stdout", "blob --help"},
		{"run-help.stdout", "run --help"},
		{"ycsb-help.stdout", "ycsb --help"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			env, stdout, _ := testEnv(t)
			if code := Main(strings.Fields(tt.args), env); code != 0 {
				t.Fatalf("exit %d", code)
			}
			golden.Check(t, tt.name, stdout.Bytes())
		})
	}
}

// Every example of a command that runs a preset resolves into a plan
// (--dry-run: flags parsed and validated, the job printed, nothing run),
// and disk's examples validate: the docs cannot drift from the flags.
// Examples run from the repository's root, where examples/ is; one that
// names a file of the reader's own (./app.db) is skipped.
func TestHelpExamplesAreValid(t *testing.T) {
	env, _, _ := testEnv(t)
	root := newRootCommand(env)
	t.Chdir(filepath.Join("..", ".."))
	for _, cmd := range append(root.Commands(), root) {
		for _, line := range strings.Split(cmd.Example, "\n") {
			line = strings.TrimSpace(line)
			if !strings.HasPrefix(line, "gobench ") {
				continue
			}
			args := shellWords(line[len("gobench "):])
			if i := slices.IndexFunc(args, func(a string) bool { return a == ">" || a == "#" }); i >= 0 {
				args = args[:i] // a redirection, a comment
			}
			if !slices.Contains(args, "--dry-run") {
				args = append(args, "--dry-run")
			}
			sub, _, err := root.Find(args)
			if err != nil || sub.Flags().Lookup("dry-run") == nil || sub.Name() == "run" {
				continue
			}
			t.Run(line, func(t *testing.T) {
				if missing := missingFile(args); missing != "" {
					t.Skipf("names %s, a file of the reader's own", missing)
				}
				env, stdout, stderr := testEnv(t)
				if code := Main(args, env); code != 0 {
					t.Fatalf("exit %d: %s", code, stderr)
				}
				j, err := job.Read(stdout, nil)
				if err != nil {
					t.Fatalf("the plan does not read back: %v", err)
				}
				if err := j.Validate(context.Background(), all.Registry()); err != nil || j.Shape == "" {
					t.Fatalf("the plan (shape %q) does not validate: %v", j.Shape, err)
				}
			})
		}
	}
	for _, line := range strings.Split(newDiskCommand(env).Example, "\n") {
		line = strings.TrimSpace(line)
		if !strings.HasPrefix(line, "gobench disk") {
			continue
		}
		t.Run(line, func(t *testing.T) {
			o := defaultDiskOptions()
			fs := pflag.NewFlagSet("disk", pflag.ContinueOnError)
			o.AddFlags(fs)
			if err := fs.Parse(shellWords(strings.TrimPrefix(line, "gobench disk"))); err != nil {
				t.Fatal(err)
			}
			if err := o.resolve(); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// missingFile returns the first value of --file, --schema or --from in
// args that names no file here ("" when all exist).
func missingFile(args []string) string {
	for i, a := range args[:max(len(args)-1, 0)] {
		if a == "--file" || a == "--schema" || a == "--from" {
			name, _, _ := strings.Cut(args[i+1], "@")
			if _, err := os.Stat(name); err != nil {
				return name
			}
		}
	}
	return ""
}

// shellWords splits a command line as a POSIX shell does for the simple
// lines of help examples: on blanks, with single quotes grouping.
func shellWords(s string) []string {
	var words []string
	var cur strings.Builder
	inWord, quoted := false, false
	for _, r := range s {
		switch {
		case r == '\'':
			quoted = !quoted
			inWord = true
		case (r == ' ' || r == '\t') && !quoted:
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			cur.WriteRune(r)
			inWord = true
		}
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words
}

// Every gate gives a verdict, pass or fail: one line each on stderr, a
// section of the report, an entry of the JSON and of the markdown summary
// (appended, as a CI job summary collects steps). A failed gate exits 3.
func TestGateVerdicts(t *testing.T) {
	dir := t.TempDir()
	out, summary := filepath.Join(dir, "suite.json"), filepath.Join(dir, "summary.md")
	env, stdout, stderr := testEnv(t)
	args := []string{"mix", "--driver", "null", "--mode", "goroutine", "--procs", "1,2", "--queries", "2000", "--repeat", "2",
		"--expect", "total ops/s: procs=2 >= 1000x procs=1", "--expect", "read p99: procs=2 <= 1000x procs=1", "-q",
		"--json", out, "--summary", summary}
	if code := Main(args, env); code != ExitThreshold {
		t.Fatalf("exit %d, want %d; stderr:\n%s", code, ExitThreshold, stderr)
	}
	lines := strings.Split(strings.TrimSpace(stderr.String()), "\n")
	if len(lines) != 3 || !strings.HasPrefix(lines[0], "gobench: gate FAILED: total ops/s: procs=2 >= 1000x procs=1: procs=2 ") ||
		!strings.HasPrefix(lines[1], "gobench: gate passed: read p99: procs=2 <= 1000x procs=1: procs=2 ") ||
		lines[2] != "gobench: threshold not met: 1 of 2 gates failed" {
		t.Errorf("stderr = %q, want a verdict per gate and the count", stderr)
	}
	if !strings.Contains(stdout.String(), "2 cells × 2 repeats") || !strings.Contains(stdout.String(), "gates: 1 of 2 passed") {
		t.Errorf("the report or its gates are missing:\n%s", stdout)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	s, err := result.ReadSuite(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Gates) != 2 || s.Gates[0].Pass || !s.Gates[1].Pass || s.Gates[0].Ratio <= 0 || s.Gates[0].Statistic != "median of 2 runs" {
		t.Errorf("gates in the JSON: %+v", s.Gates)
	}

	// A single run with absolute gates: one holds, one does not; the
	// summary is appended after the first.
	env, stdout, stderr = testEnv(t)
	single := []string{"mix", "--driver", "null", "--mode", "goroutine", "--queries", "1000", "-q", "--summary", summary,
		"--expect", "total ops/s >= 1", "--expect", "read p99 <= 1ns"}
	if code := Main(single, env); code != ExitThreshold {
		t.Fatalf("exit %d, want %d; stderr:\n%s", code, ExitThreshold, stderr)
	}
	if !strings.Contains(stderr.String(), "gate passed: total ops/s >= 1: the run ") || !strings.Contains(stderr.String(), "gate FAILED: read p99 <= 1ns: the run ") {
		t.Errorf("absolute gates: %s", stderr)
	}
	if !strings.Contains(stdout.String(), "gates: 1 of 2 passed") {
		t.Errorf("the single run's report lacks its gates:\n%s", stdout)
	}
	md, err := os.ReadFile(summary)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(md), "**Gates: 1 of 2 passed**"); n != 2 || !strings.Contains(string(md), "| **FAIL** | `read p99 <= 1ns` | the run |") {
		t.Errorf("summary holds %d gate tables:\n%s", n, md)
	}

	// The same gates with limits that hold pass, exit 0.
	env, _, stderr = testEnv(t)
	single[len(single)-1] = "read p99 <= 10s"
	if code := Main(single, env); code != ExitOK || strings.Count(stderr.String(), "gate passed") != 2 {
		t.Errorf("gates that hold: exit %d; %s", code, stderr)
	}
}

// gobench --version and gobench version print the same: the build, the Go
// toolchain and the engine each driver carries.
func TestVersion(t *testing.T) {
	var outs []string
	for _, args := range [][]string{{"--version"}, {"version"}} {
		env, stdout, stderr := testEnv(t)
		if code := Main(args, env); code != ExitOK {
			t.Fatalf("%v: exit %d: %s", args, code, stderr)
		}
		outs = append(outs, stdout.String())
	}
	if outs[0] != outs[1] {
		t.Errorf("--version printed %q, version %q", outs[0], outs[1])
	}
	for _, want := range []string{"gobench ", runtime.Version(), "driver modernc: SQLite 3.", "driver ncruces: SQLite 3.", "driver null\n"} {
		if !strings.Contains(outs[0], want) {
			t.Errorf("version lacks %q:\n%s", want, outs[0])
		}
	}
}
