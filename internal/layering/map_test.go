package layering

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/gobench/gobench/internal/cli"
)

// mapRow matches a row of ARCHITECTURE.md's table of packages: its first
// cell names one path or more, each in backquotes.
var mapRow = regexp.MustCompile("^\\| (`[^|]+`) \\|")

// TestArchitectureMap: ARCHITECTURE.md's table of packages has a row for
// every package of the module, and every path a row names exists, so the
// map cannot leave a package out or name one that is gone.
func TestArchitectureMap(t *testing.T) {
	root := filepath.Join("..", "..")
	b, err := os.ReadFile(filepath.Join(root, "ARCHITECTURE.md"))
	if err != nil {
		t.Fatal(err)
	}
	rows := map[string]bool{}
	for _, line := range strings.Split(string(b), "\n") {
		m := mapRow.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		for _, p := range regexp.MustCompile("`([^`]+)`").FindAllStringSubmatch(m[1], -1) {
			rows[p[1]] = true
			if _, err := os.Stat(filepath.Join(root, p[1])); err != nil {
				t.Errorf("ARCHITECTURE.md has a row for %s, which does not exist", p[1])
			}
		}
	}
	pkgs := strings.Fields(goList(t, "-f", "{{.ImportPath}}", "github.com/gobench/gobench/..."))
	for _, p := range pkgs {
		rel := strings.TrimPrefix(strings.TrimPrefix(p, "github.com/gobench/gobench"), "/")
		if !rows[rel] {
			t.Errorf("package %s has no row in ARCHITECTURE.md's table of packages", rel)
		}
	}
	if len(pkgs) < 30 || len(rows) < len(pkgs)/2 {
		t.Fatalf("read %d packages and %d rows: the test reads the wrong things", len(pkgs), len(rows))
	}
}

// mapImportRules reads the import rules the must-not cells of
// ARCHITECTURE.md's table of packages state, one rule per path a row
// names: a clause "import `a`, `b` or `c/`" forbids those packages (a
// path ending in / the packages under it); "import anything but `a`, `b`"
// allows only those of the module; "import the module's other packages"
// allows none. A rule holds for the row's package alone, not those below
// it (they have rows of their own).
func mapImportRules(table string) []rule {
	var out []rule
	tick := regexp.MustCompile("`([^`]+)`")
	for _, line := range strings.Split(table, "\n") {
		m := mapRow.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		cells := strings.Split(line, "|")
		if len(cells) < 5 {
			continue
		}
		var r rule
		for _, clause := range strings.Split(cells[3], ";") {
			clause = strings.TrimSpace(clause)
			if !strings.HasPrefix(clause, "import ") {
				continue
			}
			var paths []string
			for _, p := range tick.FindAllStringSubmatch(clause, -1) {
				paths = append(paths, module+p[1])
			}
			switch {
			case strings.HasPrefix(clause, "import the module's other packages"):
				r.onlyThis = []string{}
			case strings.HasPrefix(clause, "import anything but "):
				r.onlyThis = paths
			default:
				r.forbid = append(r.forbid, paths...)
			}
		}
		if r.forbid == nil && r.onlyThis == nil {
			continue
		}
		r.why = "ARCHITECTURE.md's row says it must not: " + strings.TrimSpace(cells[3])
		for _, p := range tick.FindAllStringSubmatch(m[1], -1) {
			r.dir = p[1]
			out = append(out, r)
		}
	}
	return out
}

// TestMapImportRules: what ARCHITECTURE.md's rows say a package must not
// import, it does not (a test reads the rows, so a row cannot promise
// what the code breaks).
func TestMapImportRules(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile(filepath.Join("..", "..", "ARCHITECTURE.md"))
	if err != nil {
		t.Fatal(err)
	}
	rules := mapImportRules(string(b))
	if len(rules) < 15 {
		t.Fatalf("read %d import rules from ARCHITECTURE.md: the test reads the wrong things", len(rules))
	}
	var own []file
	for _, f := range loadFiles(t) {
		for _, r := range rules {
			if filepath.Dir(f.path) == r.dir {
				own = append(own, f)
				break
			}
		}
	}
	for _, r := range rules {
		for _, v := range importViolations(filesIn(own, r.dir), []rule{r}) {
			t.Error(v)
		}
	}
}

// filesIn are the files of files in the package in dir (not below it).
func filesIn(files []file, dir string) []file {
	var out []file
	for _, f := range files {
		if filepath.Dir(f.path) == dir {
			out = append(out, f)
		}
	}
	return out
}

// The map's rules catch what they say: a forbidden import, one outside
// an allowed list, and any of the module's in a leaf.
func TestMapImportRulesCanFail(t *testing.T) {
	const table = "| `pkg/a` | owns | render; import `pkg/b`, `pkg/c/` or `internal/d` |\n" +
		"| `pkg/e`, `pkg/f` | owns | import the module's other packages |\n" +
		"| `cmd/g` | owns | import anything but `internal/cli`; print |\n"
	rules := mapImportRules(table)
	files := []file{
		{path: "pkg/a/a.go", imports: []string{module + "pkg/b", module + "pkg/c/x", module + "pkg/cc", "fmt"}},
		{path: "pkg/a/sub/a.go", imports: []string{module + "pkg/b"}},
		{path: "pkg/f/f.go", imports: []string{module + "pkg/units", "strings"}},
		{path: "cmd/g/main.go", imports: []string{module + "internal/cli", module + "pkg/store"}},
	}
	var got []string
	for _, r := range rules {
		for _, v := range importViolations(filesIn(files, r.dir), []rule{r}) {
			got = append(got, strings.Fields(v)[0]+" "+strings.Fields(v)[2])
		}
	}
	want := []string{
		"pkg/a/a.go " + module + "pkg/b:", "pkg/a/a.go " + module + "pkg/c/x:",
		"pkg/f/f.go " + module + "pkg/units:", "cmd/g/main.go " + module + "pkg/store:",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("violations:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestArchitectureCommands: the internal/cli row of ARCHITECTURE.md names
// every command `gobench help` lists, and names no command that does not
// exist (a hidden one, such as `worker`, it may name).
func TestArchitectureCommands(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "ARCHITECTURE.md"))
	if err != nil {
		t.Fatal(err)
	}
	row := regexp.MustCompile("(?m)^\\| `internal/cli` \\| [^|]*one file per command \\(([^)]*)\\)").FindSubmatch(b)
	if row == nil {
		t.Fatal("ARCHITECTURE.md's internal/cli row lists no commands (\"one file per command (...)\")")
	}
	var listed []string
	for _, m := range regexp.MustCompile("`([a-z]+)`").FindAllSubmatch(row[1], -1) {
		listed = append(listed, string(m[1]))
	}
	var stdout, stderr bytes.Buffer
	env := cli.OSEnv()
	env.Stdin, env.Stdout, env.Stderr, env.Notify = strings.NewReader(""), &stdout, &stderr, nil
	if code := cli.Main([]string{"help"}, env); code != 0 {
		t.Fatalf("gobench help: exit %d: %s", code, stderr.String())
	}
	_, avail, ok := strings.Cut(stdout.String(), "Available Commands:\n")
	if !ok {
		t.Fatalf("gobench help lists no commands:\n%s", stdout.String())
	}
	avail, _, _ = strings.Cut(avail, "\n\n")
	var shown []string
	for _, line := range strings.Split(avail, "\n") {
		if f := strings.Fields(line); len(f) > 0 && f[0] != "help" && f[0] != "completion" {
			shown = append(shown, f[0])
		}
	}
	if len(shown) < 10 {
		t.Fatalf("read %d commands from gobench help: %q", len(shown), shown)
	}
	for _, c := range shown {
		if !slices.Contains(listed, c) {
			t.Errorf("gobench help lists %s; ARCHITECTURE.md's internal/cli row does not", c)
		}
	}
	all := commandNames(t, loadFiles(t))
	for _, c := range listed {
		if !slices.Contains(all, c) {
			t.Errorf("ARCHITECTURE.md's internal/cli row lists %s, which is no command", c)
		}
	}
}
