package cli

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/cobra"

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

// --precision 0% is off, as its default is: bounds given beside it (a CI
// template's) are not refused as if it were missing, and the job repeats
// by --repeat with no precision.
func TestPrecisionZeroIsOff(t *testing.T) {
	for _, args := range []string{
		"mix --precision 0% --max-repeats 9 --dry-run",
		"mix --precision 0 --max-time 1m --repeat 2 --dry-run",
	} {
		env, stdout, stderr := testEnv(t)
		if code := Main(strings.Fields(args), env); code != ExitOK {
			t.Errorf("%s: exit %d, %s", args, code, stderr)
			continue
		}
		if strings.Contains(stdout.String(), `"precision"`) {
			t.Errorf("%s: the plan asks for a precision:\n%s", args, stdout)
		}
	}
}

// A plan whose runs cannot hold ops enough for a gated percentile says so
// before it runs, with what would (the issue's own example); the plan on
// stdout stays a plan file alone.
func TestDryRunSaysGateSizes(t *testing.T) {
	env, stdout, stderr := testEnv(t)
	args := []string{"mix", "--queries", "400", "--procs", "2", "--expect", "upsert p99 <= 1s", "--dry-run"}
	if code := Main(args, env); code != ExitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	want := "gobench: gate upsert p99: needs ≥ 1,000 upsert ops a run, the plan gives 40: raise --queries to 10000, or gate p50"
	if !strings.Contains(stderr.String(), want) {
		t.Errorf("stderr:\n%s\nwant the line %q", stderr, want)
	}
	if strings.Contains(stdout.String(), "needs") || !strings.HasPrefix(strings.TrimSpace(stdout.String()), "{") {
		t.Errorf("stdout is not the plan alone:\n%.300s", stdout)
	}
}

func TestBadInputExitsTwo(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		args string
		want string
	}{
		{"mix --procs 0", "procs 0 is out of range"},
		{"ycsb run a -p table=kv --dry-run", `record table "kv": kv is the table of gobench's key-value ops`},
		{"ycsb run a --crash 5 -p fieldlength=16", "crash tags every field written with its write, in 32 bytes: fields as short as 16 bytes are too small"},
		{"ycsb run a --crash 5 --crash-from open", "crash from open: a record workload's states are checked for the writes of its run, not yet for the records its setup loaded"},
		{"ycsb run a --crash 5 --batch 4", "crash acknowledges a record workload's writes one by one: phase run batches 4 ops"},
		{"mix --goroutines -1", "goroutines -1 is out of range"},
		{"mx", "did you mean mix?"},
		{"mix --jornal wal", "unknown flag: --jornal (did you mean --journal?)"},
		{"mix --bogus", "unknown flag: --bogus (did you mean --busy or --cpus?)"},
		{"mix --zzzzzz", "unknown flag: --zzzzzz (see"},
		{"mix --queries -5", `"-5" is not a whole count`},
		{"mix --queries 10 --duration 1s", "--queries and --duration both given"},
		{"mix --mix read=90,upsert=5", "sums to 95, not 100"},
		{"mix --mix read=95,insert=5", "insert cannot be dealt by a lottery mix"},
		{"mix --mix read=95,latest=5", "latest reads the newest appended records, and no phase of the plan appends"},
		{"mix --mix read=95,scan=5 --scan-length -3", "scan length -3 is out of range"},
		{"mix --mix read=95,scan=5 --scan-length 0", "--scan-length 0: a scan reads at least one key"},
		{"mix --scan-length 5", "scan length 5: no phase of the plan scans"},
		{"mix --driver map --mix read=95,scan=5 --keys 100", "driver map cannot do scan operations: it keeps keys in no order"},
		{"mix --mix read=95,frob=5", `unknown op "frob"`},
		{"mix --mix read=95,upsert=5 --write-pct 5", "--mix and --write-pct both given"},
		{"mix --write-pct 150", "out of range"},
		{"mix --driver oracle", `unknown driver "oracle"`},
		{"mix --journal wall", `unknown journal mode "wall"`},
		{"mix --sync fast", `--sync fast: want off, normal, full or extra`},
		{"mix --crash 2 --crash-model lose,torn-4k,lose", "--crash-model: lose is listed twice"},
		{"mix --busy-timeout -1s", "busy timeout"},
		{"mix --precision 5% --repeat 3", "--precision decides the repeats: give --max-repeats, not --repeat"},
		{"mix --precision 5% --max-repeats 3", "--max-repeats 3: an interval of the median needs 5 runs a cell"},
		{"mix --precision 100%", "--precision 100%: want a share above 0% and below 100%"},
		{"mix --max-repeats 9", "--max-repeats and --max-time bound --precision: give it too"},
		{"mix --precision 5% --max-time -1s", "--max-time must not be negative"},
		{"mix --value-size 0", "value size 0 is out of range"},
		{"mix --value-size 100000000", "value size 100000000 is out of range"},
		{"mix --keys 0", "key count is 0"},
		{"mix --dist normal", `unknown key distribution "normal"`},
		{"mix --dist zipfian --zipf-theta 1.5", "zipfian theta 1.5 is out of range"},
		{"mix --format yaml", `unknown format "yaml"`},
		{"disk --format html", `--format: unknown format "html" for a disk report (want one of csv, json, markdown, text)`},
		{"compare " + fixture + " " + fixture + " --format benchfmt", `--format: unknown format "benchfmt" for a comparison (want one of csv, html, json, markdown, text)`},
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
		{"mix --driver map --mode process", "driver map allows one process at a time (its data lives in one process's memory)"},
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
		{"mix --rate NaN", `"NaN" is not a number`},
		{"mix --driver modernc --mode goroutine --keys 1000000000000 --value-size 100000 --queries 10", "need at least 90949 TiB"},
		{"mix --rate +Inf", `"+Inf" is not a rate`},
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
		{"mx --procs 4", `unknown command "mx" for "gobench" (did you mean mix?)`}, // the command, not the flag after it
		{"completion bash extra", `unknown command "extra" for "gobench completion bash" (see 'gobench completion bash --help')`},
		{"version extra", `unknown command "extra" for "gobench version"`},
		{"disk extra", `unknown command "extra" for "gobench disk"`},
		{"sql --builtin tpcb-like --scale 99999999999", "pgbench's tables at scale 99999999999 need at least 763976 TiB"},
		{"crud --rows 1000000000000 --value-size 100000", "1000000000000 rows of at least 100000 bytes need at least 90949 TiB"},
		{"blob --count 100000000000 --size 1M", "rows of at least 838861 bytes need at least"},
		{"disk --size 9000000G", "--size 9000000G: the run needs 8789 TiB"},
		{"disk --size 4k --bs 1G", "block size 1073741824 is larger than the size 4096"},
		{"mix --zipf-theta NaN", "--zipf-theta NaN: want a finite number"},
		{"mix --rate-max NaN", `"NaN" is not a number`},
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

// exampleInputs are the files the help examples name, made in the
// directory the examples run in: recorded results from testdata/ where
// one will do, shards and scripts made here. An example that names a file
// not here fails until it is added.
var exampleInputs = map[string]string{
	"old.json":       "compare-aa-old.json",
	"new.json":       "compare-aa-new.json",
	"run.json":       "mix-contention.json",
	"suite.json":     "matrix.json",
	"rollback.json":  "mix-rollback.json",
	"wal.json":       "mix-wal.json",
	"result.json":    "mix-rollback.json",
	"ci-result.json": "mix-rollback.json",
}

// exampleSandbox makes the working directory the examples run in: the
// inputs they name, the repository's examples/ directory, four shards of
// one run (made by small runs of the null engine, and again in
// results/), an application's database (made by a small run of SQLite)
// and a script of one's own.
func exampleSandbox(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for name, fixture := range exampleInputs {
		b, err := os.ReadFile(filepath.Join("..", "..", "testdata", fixture))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.CopyFS(filepath.Join(dir, "examples"), os.DirFS(filepath.Join("..", "..", "examples"))); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "hot-query.sql"), []byte("SELECT count(*) FROM sqlite_schema;\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// compare --differ schema's example: two runs of the user's SQL, one
	// schema with an index.
	sqlFiles := map[string]string{
		"base.sql":    "CREATE TABLE t(id INTEGER PRIMARY KEY, k INTEGER);\n",
		"indexed.sql": "CREATE TABLE t(id INTEGER PRIMARY KEY, k INTEGER);\nCREATE INDEX t_k ON t(k);\n",
		"s.sql":       "SELECT count(*) FROM t WHERE k = 1;\n",
	}
	for name, text := range sqlFiles {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	runs := [][]string{{"mix", "--driver", "modernc", "--mode", "goroutine", "--queries", "10", "-q", "--db", filepath.Join(dir, "app.db")}}
	for _, schema := range []string{"base", "indexed"} {
		runs = append(runs, []string{"sql", "--driver", "modernc", "--mode", "goroutine", "--queries", "10", "-q",
			"--schema", filepath.Join(dir, schema+".sql"), "--file", filepath.Join(dir, "s.sql"), "--json", filepath.Join(dir, schema+".json")})
	}
	if err := os.Mkdir(filepath.Join(dir, "results"), 0o755); err != nil {
		t.Fatal(err)
	}
	for i := 1; i <= 4; i++ {
		runs = append(runs, []string{"mix", "--driver", "null", "--mode", "goroutine", "--procs", "4", "--queries", "100", "-q",
			"--shard", fmt.Sprintf("%d/4", i), "--shard-by", "workers", "--json", filepath.Join(dir, fmt.Sprintf("w%d.json", i))})
		runs = append(runs, []string{"mix", "--driver", "null", "--mode", "goroutine", "--procs", "4", "--queries", "100", "-q",
			"--shard", fmt.Sprintf("%d/4", i), "--shard-by", "workers", "--json", filepath.Join(dir, "results", fmt.Sprintf("w%d.json", i))})
	}
	// Two shards of a matrix of four cells, two repeats each: the null
	// engine's settings are its worker layouts.
	if err := os.Mkdir(filepath.Join(dir, "shards"), 0o755); err != nil {
		t.Fatal(err)
	}
	for i := 1; i <= 2; i++ {
		runs = append(runs, []string{"mix", "--driver", "null", "--mode", "goroutine", "--procs", "1,2,3,4", "--repeat", "2", "--queries", "20", "-q",
			"--expect", "errors == 0", "--shard", fmt.Sprintf("%d/2", i), "--json", filepath.Join(dir, "shards", fmt.Sprintf("s%d.json", i))})
	}
	for _, args := range runs {
		env, _, stderr := testEnv(t)
		if code := Main(args, env); code != ExitOK {
			t.Fatalf("%s: exit %d: %s", args, code, stderr)
		}
	}
	return dir
}

// example is one command line of a help text's examples: its words
// without the program name, and the file its stdout is redirected to
// ("" if none; an append, >>, is dropped).
type example struct {
	line  string
	words []string
	out   string
}

// examples lists the command lines of cmd's Example text, trailing
// comments and redirections cut.
func examples(cmd *cobra.Command) []example {
	var out []example
	for _, line := range strings.Split(cmd.Example, "\n") {
		line = strings.TrimSpace(line)
		if !strings.HasPrefix(line, "gobench ") {
			continue
		}
		e := example{line: line}
		words := shellWords(line)[1:]
		for i, w := range words {
			if strings.HasPrefix(w, "#") || strings.HasPrefix(w, ">") {
				if w == ">" && i+1 < len(words) {
					e.out = words[i+1]
				}
				words = words[:i]
				break
			}
		}
		e.words = words
		out = append(out, e)
	}
	return out
}

// Every example in every command's help text (the whole command tree, so
// a new command is covered as it is added) is a command line that works:
// the command exists, its flags exist and their values parse, its
// arguments are as many as it takes. A command that prints its plan
// (--dry-run) resolves the example into a plan, every setting validated,
// and one that reads result files runs the example on recorded ones. The
// examples run in order in one directory, so a plan saved by one (> FILE)
// is what the next one runs.
func TestHelpExamplesAreValid(t *testing.T) {
	t.Setenv("GOBENCH_CACHE_DIR", t.TempDir()) // gobench capture builds its library there
	t.Setenv("XDG_DATA_HOME", t.TempDir())     // gobench history's default file
	// The --shard auto example's shard, as a GitHub matrix job's env sets it.
	t.Setenv("GOBENCH_SHARD_INDEX", "0")
	t.Setenv("GOBENCH_SHARD_COUNT", "2")
	dir := exampleSandbox(t)
	t.Chdir(dir)
	env, _, _ := testEnv(t)
	var cmds []*cobra.Command
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		cmds = append(cmds, c)
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(newRootCommand(env))
	covered := map[string]int{}
	for _, c := range cmds {
		for _, e := range examples(c) {
			t.Run(e.line, func(t *testing.T) {
				env, stdout, stderr := testEnv(t)
				cmd, rest, err := newRootCommand(env).Find(e.words)
				if err != nil || cmd.Name() == "gobench" {
					t.Fatalf("no such command: %v", err)
				}
				if err := cmd.ParseFlags(rest); err != nil {
					t.Fatalf("flags: %v", err)
				}
				if err := cmd.ValidateArgs(cmd.Flags().Args()); err != nil {
					t.Fatalf("arguments: %v", err)
				}
				covered[cmd.Name()]++
				args := e.words
				dry := cmd.Flags().Lookup("dry-run") != nil
				switch {
				case cmd.Annotations[examplesParsed] != "":
					return // minutes of measurement, and no plan to print: parsed only
				case cmd.Flags().Changed("dry-run"):
				case dry:
					args = append(slices.Clone(args), "--dry-run")
				case len(cmd.Flags().Args()) == 0 || cmd.Flags().Lookup("old") != nil:
					return // a measurement of this machine (disk, verify) or of two builds (ab): parsed only
				}
				// A command that judges may end in any verdict: its example
				// is valid when it reached one.
				if code := Main(args, env); code != ExitOK && code != ExitThreshold && code != ExitUndecided {
					t.Fatalf("exit %d: %s", code, stderr)
				}
				if dry {
					j, err := job.Read(bytes.NewReader(stdout.Bytes()), nil)
					if err != nil {
						t.Fatalf("the plan does not read back: %v", err)
					}
					if err := j.Validate(context.Background(), all.Registry()); err != nil || j.Shape == "" {
						t.Fatalf("the plan (shape %q) does not validate: %v", j.Shape, err)
					}
				}
				if e.out != "" {
					if err := os.WriteFile(e.out, stdout.Bytes(), 0o644); err != nil {
						t.Fatal(err)
					}
				}
			})
		}
	}
	for _, c := range cmds {
		if c.Example != "" && covered[c.Name()] == 0 && c.Name() != "gobench" {
			t.Errorf("%s: no example of the command in its own help", c.Name())
		}
	}
	t.Logf("examples per command: %v", covered)
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

// Every gate gives a verdict, pass, fail or inconclusive: one line each
// on stderr, a section of the report, an entry of the JSON and of the
// markdown summary (appended, as a CI job summary collects steps). A
// failed gate exits 3; one the data cannot decide exits 4, unless
// --inconclusive pass.
func TestGateVerdicts(t *testing.T) {
	dir := t.TempDir()
	out, summary := filepath.Join(dir, "suite.json"), filepath.Join(dir, "summary.md")
	env, stdout, stderr := testEnv(t)
	args := []string{"mix", "--driver", "null", "--mode", "goroutine", "--procs", "1,2", "--queries", "2000", "--repeat", "3",
		"--expect", "total ops/s: procs=2 >= 1000000x procs=1", "--expect", "read p99: procs=2 <= 1000x procs=1",
		"--expect", "read p99.9 <= 10s", "-q", "--json", out, "--summary", summary}
	if code := Main(args, env); code != ExitThreshold {
		t.Fatalf("exit %d, want %d; stderr:\n%s", code, ExitThreshold, stderr)
	}
	lines := strings.Split(strings.TrimSpace(stderr.String()), "\n")
	if len(lines) != 5 || !strings.HasPrefix(lines[0], "gobench: gate FAILED: total ops/s: procs=2 >= 1000000x procs=1: procs=2 ") ||
		!strings.HasPrefix(lines[1], "gobench: gate passed: read p99: procs=2 <= 1000x procs=1: procs=2 ") ||
		!strings.Contains(lines[2], "gate INCONCLUSIVE: read p99.9 <= 10s: procs=1 ") ||
		!strings.HasSuffix(lines[2], "about 2,995 read ops a run would decide it, if the latencies stay as they are (the fewest run had 1,900): raise --queries to 3200") ||
		!strings.Contains(lines[3], "gate passed: read p99.9 <= 10s: procs=2 ") ||
		lines[4] != "gobench: threshold not met: 4 gates: 1 failed, 1 inconclusive, 2 passed" {
		t.Errorf("stderr = %q, want a verdict per gate and the count", stderr)
	}
	if !strings.Contains(stdout.String(), "2 cells × 3 repeats") || !strings.Contains(stdout.String(), "4 gates: 1 failed, 1 inconclusive, 2 passed") {
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
	if len(s.Gates) != 4 || s.Gates[0].Outcome != "fail" || s.Gates[1].Outcome != "pass" || s.Gates[2].Outcome != "inconclusive" ||
		s.Gates[0].Ratio <= 0 || s.Gates[0].High <= s.Gates[0].Low || s.Gates[0].Confidence < 0.9 || s.Gates[2].Why == "" {
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
	if !strings.Contains(stderr.String(), "gate passed: total ops/s >= 1: the run ") || !strings.Contains(stderr.String(), "gate FAILED: read p99 <= 1ns: the run ") ||
		!strings.Contains(stderr.String(), "(one run: its own figure, no interval)") {
		t.Errorf("absolute gates: %s", stderr)
	}
	if !strings.Contains(stdout.String(), "2 gates: 1 failed, 1 passed") {
		t.Errorf("the single run's report lacks its gates:\n%s", stdout)
	}
	md, err := os.ReadFile(summary)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(md), "**gobench · 4 gates: 1 failed, 1 inconclusive, 2 passed**") || !strings.Contains(string(md), "**gobench · 2 gates: 1 failed, 1 passed**") ||
		!strings.Contains(string(md), "| 🔴 **FAIL** | `read p99 <= 1ns` | the run |") {
		t.Errorf("summary:\n%s", md)
	}

	// The same gates with limits that hold pass, exit 0.
	env, _, stderr = testEnv(t)
	single[len(single)-1] = "read p99 <= 10s"
	if code := Main(single, env); code != ExitOK || strings.Count(stderr.String(), "gate passed") != 2 {
		t.Errorf("gates that hold: exit %d; %s", code, stderr)
	}

	// A gate the data cannot decide exits 4, or 0 when told to pass.
	single[len(single)-1] = "upsert p99.9 <= 10s"
	for _, tt := range []struct {
		policy string
		code   int
	}{{"fail", ExitUndecided}, {"pass", ExitOK}} {
		env, _, stderr = testEnv(t)
		if code := Main(append(slices.Clone(single), "--inconclusive", tt.policy), env); code != tt.code || !strings.Contains(stderr.String(), "gate INCONCLUSIVE: upsert p99.9 <= 10s") {
			t.Errorf("--inconclusive %s: exit %d, want %d; %s", tt.policy, code, tt.code, stderr)
		}
	}
	env, _, stderr = testEnv(t)
	if code := Main(append(slices.Clone(single), "--inconclusive", "maybe"), env); code != ExitUsage {
		t.Errorf("--inconclusive maybe: exit %d; %s", code, stderr)
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

// Suggestions: close words, within two edits or as a prefix, and none
// when nothing is close or too much is.
func TestDidYouMean(t *testing.T) {
	t.Parallel()
	names := []string{"mix", "sql", "crud", "compare", "merge", "report", "run"}
	for _, tt := range []struct{ word, want string }{
		{"mx", " (did you mean mix?)"},
		{"compre", " (did you mean compare?)"},
		{"rep", " (did you mean report?)"},
		{"xyzzy", ""},
		{"r", " (did you mean run?)"},
	} {
		if got := didYouMean(tt.word, names); got != tt.want {
			t.Errorf("didYouMean(%q) = %q, want %q", tt.word, got, tt.want)
		}
	}
}

// report -o picks its format from the file's extension unless --format
// says otherwise.
func TestReportFormatFromExtension(t *testing.T) {
	for _, tt := range []struct {
		args []string
		head string
	}{
		{[]string{"-o", "r.html"}, "<!doctype html>"},
		{[]string{"-o", "r.csv"}, "phase,kind,count,"},
		{[]string{"-o", "r.md"}, "**gobench"},
		{[]string{"-o", "r.html", "--format", "text"}, "gobench mix"},
	} {
		env, _, stderr := testEnv(t)
		out := filepath.Join(t.TempDir(), tt.args[1])
		args := append([]string{"report", "../../testdata/mix-wal.json", "-o", out}, tt.args[2:]...)
		if code := Main(args, env); code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, stderr)
		}
		b, err := os.ReadFile(out)
		if err != nil || !strings.HasPrefix(string(b), tt.head) {
			t.Errorf("%v: %q…, want it to begin %q (%v)", tt.args, b[:min(len(b), 40)], tt.head, err)
		}
	}
}

// --shard auto reads each CI system's variables, each from its own base.
func TestShardFromEnv(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		env   map[string]string
		shard string
		err   string
	}{
		{map[string]string{"GOBENCH_SHARD": "2/4"}, "2/4", ""},
		{map[string]string{"GOBENCH_SHARD_INDEX": "0", "GOBENCH_SHARD_COUNT": "4"}, "1/4", ""},
		{map[string]string{"GOBENCH_SHARD_INDEX": "3", "GOBENCH_SHARD_COUNT": "4"}, "4/4", ""},
		{map[string]string{"GOBENCH_SHARD_INDEX": "3"}, "", "needs GOBENCH_SHARD_COUNT"},
		{map[string]string{"GOBENCH_SHARD_INDEX": "-1", "GOBENCH_SHARD_COUNT": "4"}, "", "not a whole number"},
		{map[string]string{"CI_NODE_INDEX": "1", "CI_NODE_TOTAL": "3"}, "1/3", ""},
		{map[string]string{"CI_NODE_INDEX": "3", "CI_NODE_TOTAL": "3"}, "3/3", ""},
		{map[string]string{"JOB_COMPLETION_INDEX": "0", "GOBENCH_SHARD_COUNT": "4"}, "1/4", ""},
		{map[string]string{"JOB_COMPLETION_INDEX": "3", "GOBENCH_SHARD_COUNT": "4"}, "4/4", ""},
		{map[string]string{"JOB_COMPLETION_INDEX": "0"}, "", "needs GOBENCH_SHARD_COUNT"},
		{map[string]string{"CI_NODE_INDEX": "x", "CI_NODE_TOTAL": "3"}, "", "must both be whole numbers"},
		{map[string]string{}, "", "no shard in the environment"},
		// An index outside its count names the variable and its range.
		{map[string]string{"GOBENCH_SHARD_INDEX": "5", "GOBENCH_SHARD_COUNT": "2"}, "", "--shard auto: GOBENCH_SHARD_INDEX 5 is out of range: 0 to 1 (GitHub's strategy.job-index, from 0, of GOBENCH_SHARD_COUNT 2)"},
		{map[string]string{"GOBENCH_SHARD_INDEX": "2", "GOBENCH_SHARD_COUNT": "2"}, "", "GOBENCH_SHARD_INDEX 2 is out of range"},
		{map[string]string{"JOB_COMPLETION_INDEX": "4", "GOBENCH_SHARD_COUNT": "4"}, "", "JOB_COMPLETION_INDEX 4 is out of range"},
		{map[string]string{"JOB_COMPLETION_INDEX": "0", "GOBENCH_SHARD_COUNT": "0"}, "", "a count of 1 or more"},
		{map[string]string{"CI_NODE_INDEX": "4", "CI_NODE_TOTAL": "3"}, "", "CI_NODE_INDEX 4 is out of range: 1 to 3 (GitLab's, from 1, of CI_NODE_TOTAL 3)"},
		{map[string]string{"CI_NODE_INDEX": "0", "CI_NODE_TOTAL": "3"}, "", "CI_NODE_INDEX 0 is out of range"},
		// Two systems' variables: which is this job's shard is not guessed.
		{map[string]string{"GOBENCH_SHARD_INDEX": "0", "GOBENCH_SHARD_COUNT": "2", "CI_NODE_INDEX": "2", "CI_NODE_TOTAL": "2"}, "",
			`--shard auto: the environment names 2 shards, GOBENCH_SHARD_INDEX="0" (GitHub's strategy.job-index) and CI_NODE_INDEX="2" (GitLab's parallel): unset all but one, or give --shard I/N`},
		{map[string]string{"CI_NODE_INDEX": "1", "CI_NODE_TOTAL": "2", "JOB_COMPLETION_INDEX": "1", "GOBENCH_SHARD_COUNT": "2"}, "", "CI_NODE_INDEX=\"1\" (GitLab's parallel) and JOB_COMPLETION_INDEX"},
		{map[string]string{"GOBENCH_SHARD": "1/2", "JOB_COMPLETION_INDEX": "1", "GOBENCH_SHARD_COUNT": "2"}, "", "GOBENCH_SHARD=\"1/2\" (set by hand, I/N) and JOB_COMPLETION_INDEX"},
		{map[string]string{"CI_NODE_TOTAL": "2", "GOBENCH_SHARD_INDEX": "1", "GOBENCH_SHARD_COUNT": "2"}, "", "names 2 shards"},
	} {
		shard, _, err := shardFromEnv(func(k string) string { return tt.env[k] })
		if shard != tt.shard || (err == nil) != (tt.err == "") || (err != nil && !strings.Contains(err.Error(), tt.err)) {
			t.Errorf("%v: %q, %v; want %q, %q", tt.env, shard, err, tt.shard, tt.err)
		}
	}
}

// A plan made with --shard auto holds the shard the environment named,
// of the job's runs (or, --shard-by workers, of each cell's workers), and
// the one a Kubernetes index past the count names is refused, naming the
// variable (not a shard 5/4 the user never wrote).
func TestShardAutoPlan(t *testing.T) {
	t.Setenv("CI_NODE_INDEX", "2")
	t.Setenv("CI_NODE_TOTAL", "3")
	for _, tt := range []struct {
		args string
		want string // the shard's place in the plan
	}{
		{"mix --journal rollback,wal,truncate --shard auto --dry-run", `"shard": {
    "index": 1,
    "count": 3
  },
  "cells"`},
		{"mix --procs 6 --shard auto --shard-by workers --dry-run", `"shard": {
        "index": 1,
        "count": 3
      }
    }
  ]`},
	} {
		env, stdout, stderr := testEnv(t)
		if code := Main(strings.Fields(tt.args), env); code != 0 {
			t.Fatalf("%s: exit %d: %s", tt.args, code, stderr)
		}
		if !strings.Contains(stdout.String(), tt.want) || !strings.Contains(stderr.String(), "shard 2/3, from CI_NODE_INDEX/CI_NODE_TOTAL") {
			t.Errorf("%s: stdout lacks %s or stderr the source:\n%s\n%s", tt.args, tt.want, stdout, stderr)
		}
	}
	t.Setenv("CI_NODE_INDEX", "")
	t.Setenv("CI_NODE_TOTAL", "")
	t.Setenv("JOB_COMPLETION_INDEX", "4")
	t.Setenv("GOBENCH_SHARD_COUNT", "4")
	env, _, stderr := testEnv(t)
	if code := Main([]string{"mix", "--journal", "rollback,wal", "--repeat", "4", "--shard", "auto", "--dry-run"}, env); code != ExitUsage || !strings.Contains(stderr.String(), "JOB_COMPLETION_INDEX 4 is out of range") || strings.Contains(stderr.String(), "5/4") {
		t.Errorf("an index past the count: exit %d: %s", code, stderr)
	}
}

// Sharding by cells refuses what would leave a shard nothing to run, and
// names the way out; --shard-by takes cells or workers, with --shard.
func TestShardByCellsRefusals(t *testing.T) {
	for _, tt := range []struct{ args, err string }{
		{"mix --shard 1/2", "the job is one run (one cell, --repeat 1)"},
		{"mix --shard 1/2", "--shard-by workers"},
		{"mix --journal rollback,wal --shard 3/3", "the job has 2 runs (2 cells × --repeat 1), fewer than the 3 shards"},
		{"mix --journal rollback,wal --shard-by workers", "give --shard I/N (or auto) too"},
		{"mix --journal rollback,wal --shard 1/2 --shard-by procs", `--shard-by "procs": want cells`},
		{"mix --journal rollback,wal --shard 1/2 --precision 5%", "--precision decides when to stop from every cell's repeats"},
	} {
		env, _, stderr := testEnv(t)
		if code := Main(append(strings.Fields(tt.args), "--dry-run"), env); code != ExitUsage || !strings.Contains(stderr.String(), tt.err) {
			t.Errorf("%s: exit %d: %s; want exit %d and %q", tt.args, code, stderr, ExitUsage, tt.err)
		}
	}
}

// A line on a terminal is cut to its width, marked; elsewhere it is whole.
func TestFitWidth(t *testing.T) {
	t.Parallel()
	line := strings.Repeat("x", 100)
	term := &Env{StderrIsTerminal: true, StderrWidth: func() int { return 80 }}
	if got := fitWidth(term, line, 9); len([]rune(got)) != 71 || !strings.HasSuffix(got, "…") {
		t.Errorf("on an 80-column terminal: %d runes %q", len([]rune(got)), got)
	}
	if got := fitWidth(term, "short", 9); got != "short" {
		t.Errorf("a short line changed: %q", got)
	}
	if got := fitWidth(&Env{}, line, 9); got != line {
		t.Errorf("a line to a pipe was cut")
	}
}

// Fairness is a figure a gate reads like any other, named in one word.
// Jain's index over n workers lies in [1/n, 1] whatever the machine does,
// so over 4 workers 'fairness >= 0.25' must pass and 'fairness < 0.2' fail
// ('fairness > 1', which no run can pass, is refused before it runs).
func TestFairnessGates(t *testing.T) {
	env, _, stderr := testEnv(t)
	out := filepath.Join(t.TempDir(), "run.json")
	args := []string{"mix", "--driver", "null", "--mode", "goroutine", "--procs", "4", "--queries", "500", "-q", "--json", out,
		"--expect", "fairness >= 0.25", "--expect", "fairness < 0.2", "--expect", "worker max gap >= 0s"}
	if code := Main(args, env); code != ExitThreshold {
		t.Fatalf("exit %d, want %d; stderr:\n%s", code, ExitThreshold, stderr)
	}
	for _, want := range []string{"gate passed: fairness >= 0.25: ", "gate FAILED: fairness < 0.2: ", "gate passed: worker max gap >= 0s: ",
		"threshold not met: 3 gates: 1 failed, 2 passed"} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	r, err := result.Read(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Phases) == 0 || len(r.Phases[0].Workers) != 4 {
		t.Fatalf("the run kept %d phases, want 1 with 4 workers' own figures", len(r.Phases))
	}
}

// SQLite takes its pragmas' keywords in any case, and so does gobench:
// --journal WAL plans the wal journal (it was refused as unknown).
func TestKeywordsInAnyCase(t *testing.T) {
	env, stdout, stderr := testEnv(t)
	if code := Main([]string{"mix", "--journal", "WAL", "--sync", "Normal", "--checkpoint", "OFF", "--dry-run"}, env); code != 0 {
		t.Fatalf("exit %d; stderr:\n%s", code, stderr)
	}
	for _, want := range []string{`"journal": "wal"`, `"sync": "normal"`, `"checkpoint": "off"`} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("the plan lacks %s:\n%.2000s", want, stdout)
		}
	}
}

// Any percentile gates and prints with no code of the CLI's: --expect
// judges a p99.99 (its verdict says what the run's ops cannot decide),
// --stats picks the run table's columns, and a statistic that is none is
// refused before anything runs.
func TestAnyPercentile(t *testing.T) {
	env, stdout, stderr := testEnv(t)
	code := Main([]string{"mix", "--driver", "null", "--mode", "goroutine", "--procs", "1", "--queries", "200", "-q",
		"--expect", "read p99.99 <= 10s", "--expect", "read p95 <= 10s", "--stats", "p50,p99.99"}, env)
	if code != ExitUndecided {
		t.Fatalf("exit %d, want %d (190 reads cannot decide a p99.99); stderr:\n%s", code, ExitUndecided, stderr)
	}
	for _, want := range []string{"gate passed: read p95 <= 10s", "gate INCONCLUSIVE: read p99.99 <= 10s"} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	if !regexp.MustCompile(`(?m)^ +op +count +ops/s +p50 +p99\.99 +errors$`).MatchString(stdout.String()) {
		t.Errorf("the run table's columns are not op count ops/s p50 p99.99 errors:\n%s", stdout)
	}

	env, stdout, stderr = testEnv(t)
	if code := Main([]string{"mix", "--driver", "null", "--stats", "p50,ops/s"}, env); code != ExitUsage || !strings.Contains(stderr.String(), `statistic "ops/s"`) || stdout.Len() > 0 {
		t.Errorf("--stats p50,ops/s: exit %d, stderr %q, stdout %q", code, stderr, stdout)
	}
}
