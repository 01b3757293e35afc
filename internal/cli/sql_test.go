package cli

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gobench/gobench/pkg/result"
)

// writeFiles writes name → text into dir.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// abFiles are a schema without and with an index, and two scripts of the
// same lookup.
var abFiles = map[string]string{
	"a.sql":  "CREATE TABLE users(id INTEGER PRIMARY KEY, email TEXT);\nINSERT INTO users VALUES (1, 'u1'), (2, 'u2');\n",
	"b.sql":  "CREATE TABLE users(id INTEGER PRIMARY KEY, email TEXT);\nCREATE INDEX users_email ON users(email);\nINSERT INTO users VALUES (1, 'u1'), (2, 'u2');\n",
	"s.sql":  "\\set id random(1, 2)\nSELECT id FROM users WHERE email = 'u' || :id;\n",
	"q1.sql": "SELECT id FROM users WHERE email = 'u1';\n",
	"q2.sql": "SELECT id FROM users WHERE id = 1;\n",
}

// sqlSuite runs gobench sql in goroutine mode with args in dir and
// returns its exit code and the suite it wrote.
func sqlSuite(t *testing.T, dir string, args ...string) (int, *result.Suite, string) {
	t.Helper()
	env, _, stderr := testEnv(t)
	out := filepath.Join(dir, "s.json")
	code := Main(append([]string{"sql", "--mode", "goroutine", "--procs", "1", "--queries", "20", "--busy-timeout", "2m", "--json", out, "-q"}, args...), env)
	f, err := os.Open(out)
	if err != nil {
		t.Fatalf("exit %d: %v\n%s", code, err, stderr)
	}
	defer f.Close()
	s, err := result.ReadSuite(f)
	if err != nil {
		t.Fatal(err)
	}
	return code, s, stderr.String()
}

// --schema a.sql,b.sql makes the schema a matrix axis: a cell per file,
// named by its base name, each run set up with its own schema, one
// workload (the suite builds), and a gate relates the cells by those
// names. --file q1.sql,q2.sql does the same for a script, whose
// alternatives keep the first's name as their op kind.
func TestSQLAlternatives(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, abFiles)
	in := func(name string) string { return filepath.Join(dir, name) }
	code, s, stderr := sqlSuite(t, dir, "--schema", in("a.sql")+","+in("b.sql"), "--file", in("s.sql"), "--repeat", "2",
		"--expect", "s ops/s: b >= 0.5x a", "--inconclusive", "pass")
	if code != ExitOK && code != ExitThreshold {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	if !slices.Equal(s.Varied, []string{"schema"}) || len(s.Cells) != 2 {
		t.Fatalf("varied %v, %d cells", s.Varied, len(s.Cells))
	}
	for i, want := range []string{"a", "b"} {
		c := s.Cells[i]
		if v, _ := c.Settings.Get("schema"); v != want || len(c.Runs) != 2 {
			t.Errorf("cell %d: %s, %d runs; want schema=%s, 2 runs", i, c.Settings, len(c.Runs), want)
		}
		for _, r := range c.Runs {
			sc := r.Plan.SQL.Schema
			if sc == nil || sc.File != in(want+".sql") || sc.Text != abFiles[want+".sql"] {
				t.Errorf("a run of cell schema=%s was set up with %+v", want, sc)
			}
		}
	}
	if len(s.Gates) != 1 || s.Gates[0].Cell != "schema=b" || s.Gates[0].Against != "schema=a" || s.Gates[0].Outcome == "" {
		t.Errorf("gates %+v", s.Gates)
	}

	dir2 := t.TempDir()
	writeFiles(t, dir2, abFiles)
	in2 := func(name string) string { return filepath.Join(dir2, name) }
	code, s, stderr = sqlSuite(t, dir2, "--schema", in2("b.sql"), "--file", in2("q1.sql")+","+in2("q2.sql")+"@3", "--expect", "q1 p50: q2 <= 100x q1", "--inconclusive", "pass")
	if code != ExitOK && code != ExitThreshold {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	if !slices.Equal(s.Varied, []string{"file"}) || len(s.Cells) != 2 {
		t.Fatalf("varied %v, %d cells", s.Varied, len(s.Cells))
	}
	for i, want := range []string{"q1", "q2"} {
		r := s.Cells[i].Runs[0]
		if v, _ := s.Cells[i].Settings.Get("file"); v != want {
			t.Errorf("cell %d: %s, want file=%s", i, s.Cells[i].Settings, want)
		}
		f := r.Plan.SQL.Scripts[0]
		if f.File != in2(want+".sql") || f.Weight != 3 {
			t.Errorf("cell file=%s ran %s@%d", want, f.File, f.Weight)
		}
		if ops, ok := r.Phases[0].Op("q1"); !ok || ops.Count != 20 {
			t.Errorf("cell file=%s: op q1 %+v, want 20 ops of the script under the first file's name", want, ops)
		}
	}
}

// Alternatives that cannot name cells apart, or of two scripts, are
// refused before anything runs.
func TestSQLAlternativesRefused(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, abFiles)
	if err := os.Mkdir(filepath.Join(dir, "x"), 0o755); err != nil {
		t.Fatal(err)
	}
	writeFiles(t, dir, map[string]string{"x/a.sql": abFiles["a.sql"]})
	in := func(name string) string { return filepath.Join(dir, name) }
	if err := os.Symlink(in("a.sql"), in("link.sql")); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--schema", in("a.sql") + "," + in("a.sql"), "--file", in("s.sql")}, "is listed twice"},
		// One file under two paths would run as two cells.
		{[]string{"--schema", in("x/a.sql") + "," + in("x/../a.sql") + "," + in("a.sql"), "--file", in("s.sql")}, in("x/../a.sql") + " and " + in("a.sql") + " are one file"},
		{[]string{"--schema", in("a.sql") + "," + in("link.sql"), "--file", in("s.sql")}, in("a.sql") + " and " + in("link.sql") + " are one file"},
		{[]string{"--schema", in("a.sql"), "--file", in("q1.sql") + "," + in("./q1.sql")}, "are one file"},
		// A weight inside a list of alternatives: written once, after it.
		{[]string{"--schema", in("a.sql"), "--file", in("q1.sql") + "@9," + in("q2.sql") + "@1"}, "--file " + in("q1.sql") + "@9," + in("q2.sql") + "@1: a weight is written once, after the whole list (A.sql,B.sql@WEIGHT)"},
		{[]string{"--schema", in("a.sql"), "--file", in("q1.sql") + "@9," + in("q2.sql")}, "a weight is written once, after the whole list"},
		{[]string{"--schema", in("a.sql") + ",", "--file", in("s.sql")}, "an empty file name"},
		{[]string{"--schema", in("a.sql"), "--file", in("q1.sql") + "," + in("q2.sql"), "--file", in("s.sql") + "," + in("q2.sql")}, "only one --file may list alternatives"},
	} {
		env, _, stderr := testEnv(t)
		if code := Main(append([]string{"sql", "--dry-run"}, tc.args...), env); code != ExitUsage || !strings.Contains(stderr.String(), tc.want) || strings.Count(stderr.String(), "\n") != 1 {
			t.Errorf("%v: exit %d, %s; want 2 and one line with %q", tc.args, code, stderr, tc.want)
		}
	}
	// Two files of one base name are named by as many parent directories
	// as tell them apart, as help says: x/a and the test directory's a.
	env, stdout, stderr := testEnv(t)
	if code := Main([]string{"sql", "--dry-run", "--schema", in("a.sql") + "," + in("x/a.sql"), "--file", in("s.sql")}, env); code != ExitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	own := filepath.Base(dir) + "/a"
	if !strings.Contains(stdout.String(), `"variant": "x/a"`) || !strings.Contains(stdout.String(), `"variant": "`+own+`"`) {
		t.Errorf("dry run does not name the cells x/a and %s:\n%s", own, stdout)
	}
}

// variantLabels: base names without the extension, then as many parent
// directories as tell two apart, then whole paths.
func TestVariantLabels(t *testing.T) {
	for _, tc := range []struct{ in, want []string }{
		{[]string{"a.sql", "b.sql"}, []string{"a", "b"}},
		{[]string{"sql/s.sql", "old/s.sql", "c.sql"}, []string{"sql/s", "old/s", "c"}},
		{[]string{"p/x/s.sql", "q/x/s.sql", "x.sql"}, []string{"p/x/s", "q/x/s", "x"}},
		{[]string{"../s.sql", "s.sql"}, []string{"../s", "s"}},
		{[]string{"s.sql", "s.txt"}, []string{"s.sql", "s.txt"}},
	} {
		if got := variantLabels(tc.in); !slices.Equal(got, tc.want) {
			t.Errorf("variantLabels(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
