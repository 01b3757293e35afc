package layering

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

const module = "github.com/gobench/gobench/"

// rule forbids packages under dir (tests excluded) from importing any path
// with one of the prefixes.
type rule struct {
	dir      string
	forbid   []string
	why      string
	onlyThis []string // if set: the only module imports allowed
}

var rules = []rule{
	{dir: "pkg", forbid: []string{module + "internal/"}, why: "the library must not depend on the command's internals"},
	{dir: "pkg/workload", forbid: []string{module + "pkg/store/sqlite", module + "pkg/store/nullstore", module + "pkg/store/all", module + "pkg/result", module + "pkg/report", module + "pkg/runner", module + "pkg/replay", module + "pkg/deal"}, why: "workloads are data: they know stores only by their interface and run nothing"},
	{dir: "pkg/deal", forbid: []string{module + "pkg/store/sqlite", module + "pkg/store/all", module + "pkg/result", module + "pkg/report", module + "pkg/runner", module + "pkg/replay"}, why: "dealing says what runs next and when, for any runner: it runs nothing"},
	{dir: "pkg/runner", forbid: []string{module + "pkg/replay"}, why: "the runner's one loop runs any source: a replay's comes to it as Host.Source"},
	{dir: "pkg/replay", forbid: []string{module + "pkg/runner", module + "pkg/result", module + "pkg/report"}, why: "a replay is a source and its pacers: the runner runs it"},
	{dir: "pkg/result", forbid: []string{module + "pkg/runner"}, why: "results, the wire, judging and reports need the plan's data, not its runner"},
	{dir: "internal/wire", forbid: []string{module + "pkg/runner"}, why: "results, the wire, judging and reports need the plan's data, not its runner"},
	{dir: "pkg/judge", forbid: []string{module + "pkg/runner"}, why: "results, the wire, judging and reports need the plan's data, not its runner"},
	{dir: "pkg/report", forbid: []string{module + "pkg/runner"}, why: "results, the wire, judging and reports need the plan's data, not its runner"},
	{dir: "pkg/store", forbid: []string{module + "pkg/workload", module + "pkg/result", module + "pkg/report"}, why: "engines do not know which workload runs"},
	{dir: "pkg/result", forbid: []string{module + "pkg/store/sqlite", module + "pkg/store/all", module + "pkg/report"}, why: "results do not render or name engines"},
	{dir: "pkg/report", forbid: []string{module + "pkg/store/"}, why: "reports read results only"},
	{dir: "internal/wire", forbid: []string{module + "pkg/store/sqlite", module + "pkg/store/all", module + "internal/coord", module + "pkg/result"}, why: "the wire format carries samples, nothing more"},
	{dir: "pkg/disk", forbid: []string{module + "pkg/store", module + "pkg/workload", module + "pkg/result", module + "pkg/report"}, why: "the disk probe needs no store and renders nothing"},
	{dir: "pkg/bytesize", onlyThis: []string{}, why: "units depend on nothing"},
	{dir: "pkg/units", onlyThis: []string{}, why: "number formatting depends on nothing"},
	{dir: "pkg/judge", forbid: []string{module + "pkg/report", module + "pkg/store/", module + "pkg/capacity", module + "pkg/job"}, why: "judging computes verdicts from results; rendering is report's"},
	{dir: "pkg/percentile", onlyThis: []string{}, why: "the percentile rule depends on nothing"},
	{dir: "pkg/iorecord", onlyThis: []string{}, why: "the crash record's format depends on nothing"},
	{dir: "pkg/crashstate", onlyThis: []string{module + "pkg/iorecord", module + "pkg/store"}, why: "the crash states are built from the record alone, for every engine"},
	{dir: "pkg/store", forbid: []string{module + "pkg/crashstate", module + "pkg/recfs"}, why: "engines record their I/O and name their files; the crash states are built above them, the same way for every engine"},
	{dir: "cmd/gobench", onlyThis: []string{module + "internal/cli"}, why: "main only calls cli.Main"},
	{dir: "", forbid: []string{module + "pkg/store/storetest"}, why: "storetest is for tests: the binary's checks are package conformance"},
}

// TestReportOnlyFromCLI keeps the renderer at the top: only the command
// line imports pkg/report; what a library user needs of judging is in
// pkg/judge.
func TestReportOnlyFromCLI(t *testing.T) {
	for _, f := range loadFiles(t) {
		if strings.HasPrefix(f.path, "internal/cli/") || strings.HasPrefix(f.path, "pkg/report/") {
			continue
		}
		for _, imp := range f.imports {
			if imp == module+"pkg/report" {
				t.Errorf("%s imports pkg/report: only internal/cli renders", f.path)
			}
		}
	}
}

type file struct {
	src     []byte
	path    string
	imports []string
	ast     *ast.File
	fset    *token.FileSet
}

func loadFiles(t *testing.T) []file {
	t.Helper()
	root := filepath.Join("..", "..")
	var files []file
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) && path != root {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		f, err := parser.ParseFile(fset, path, src, parser.SkipObjectResolution|parser.ParseComments)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		fl := file{src: src, path: filepath.ToSlash(rel), ast: f, fset: fset}
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			fl.imports = append(fl.imports, p)
		}
		files = append(files, fl)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 20 {
		t.Fatalf("found only %d Go files: wrong root?", len(files))
	}
	return files
}

func TestImportRules(t *testing.T) {
	t.Parallel()
	files := loadFiles(t)
	for _, v := range importViolations(files, append(slices.Clone(rules), engineRule(t, files))) {
		t.Error(v)
	}
}

// importViolations lists each import of files that a rule forbids.
func importViolations(files []file, rules []rule) []string {
	var out []string
	for _, f := range files {
		for _, r := range rules {
			if r.dir != "" && !strings.HasPrefix(f.path, r.dir+"/") {
				continue
			}
			for _, imp := range f.imports {
				for _, bad := range r.forbid {
					if under(imp, bad) {
						out = append(out, fmt.Sprintf("%s imports %s: %s", f.path, imp, r.why))
					}
				}
				if r.onlyThis != nil && strings.HasPrefix(imp, module) && !contains(r.onlyThis, imp) {
					out = append(out, fmt.Sprintf("%s imports %s: %s", f.path, imp, r.why))
				}
			}
		}
	}
	return out
}

// under reports whether the import path imp is pkg or, with pkg ending in
// a slash or not, a package below it.
func under(imp, pkg string) bool {
	return imp == pkg || strings.HasPrefix(imp, strings.TrimSuffix(pkg, "/")+"/")
}

// cliStorePackages are the packages under pkg/store/ the command line may
// import: the registry of every engine and the checks `verify` runs.
// Every other package there is an engine, or an engine's part.
var cliStorePackages = []string{"all", "conformance"}

// engineRule forbids internal/cli every package under pkg/store/ but
// cliStorePackages, found on disk rather than listed: an engine added
// under pkg/store/ is forbidden the day it lands. Every engine the
// registry (pkg/store/all) imports must be among them.
func engineRule(t *testing.T, files []file) rule {
	t.Helper()
	root := filepath.Join("..", "..", "pkg", "store")
	entries, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	r := rule{dir: "internal/cli", why: "engines own their flags (store.Declare) and plug in through the registry (pkg/store/all): the command line knows no engine by name"}
	for _, e := range entries {
		if e.IsDir() && !slices.Contains(cliStorePackages, e.Name()) {
			r.forbid = append(r.forbid, module+"pkg/store/"+e.Name())
		}
	}
	registered := 0
	for _, f := range files {
		if !strings.HasPrefix(f.path, "pkg/store/all/") {
			continue
		}
		for _, imp := range f.imports {
			if strings.HasPrefix(imp, module+"pkg/store/") {
				registered++
				if !slices.Contains(r.forbid, imp) {
					t.Errorf("the registry imports %s, which internal/cli may import: an engine must be forbidden it", imp)
				}
			}
		}
	}
	if registered < 8 || len(r.forbid) < registered {
		t.Fatalf("the registry imports %d engines and %d packages under pkg/store are forbidden: the rule reads the wrong things", registered, len(r.forbid))
	}
	return r
}

// An engine package imported by the command line fails the import rule:
// each engine the registry imports, and a package under pkg/store/ the
// registry does not know yet.
func TestEngineImportFails(t *testing.T) {
	t.Parallel()
	files := loadFiles(t)
	er := engineRule(t, files)
	var engines []string
	for _, f := range files {
		if strings.HasPrefix(f.path, "pkg/store/all/") {
			for _, imp := range f.imports {
				if strings.HasPrefix(imp, module+"pkg/store/") {
					engines = append(engines, imp)
				}
			}
		}
	}
	engines = append(engines, module+"pkg/store/sqlite/internal/capi")
	for _, e := range engines {
		cli := file{path: "internal/cli/engine.go", imports: []string{module + "pkg/store", module + "pkg/store/all", e}}
		if v := importViolations([]file{cli}, []rule{er}); len(v) != 1 || !strings.Contains(v[0], e) {
			t.Errorf("internal/cli importing %s: %q, want one violation naming it", e, v)
		}
	}
}

// Function length limits: a function longer than this does more than one
// named step. The command line is held to less, being glue.
const (
	maxFuncLines    = 80
	maxCLIFuncLines = 60
)

// TestFunctionLength keeps every function outside tests under
// maxFuncLines, and those of internal/cli under maxCLIFuncLines. Lines
// inside multi-line string literals (help text, SQL) do not count.
func TestFunctionLength(t *testing.T) {
	t.Parallel()
	checked := 0
	for _, f := range loadFiles(t) {
		limit := maxFuncLines
		if strings.HasPrefix(f.path, "internal/cli/") {
			limit = maxCLIFuncLines
		}
		for _, d := range f.ast.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			checked++
			if n := codeLines(f.fset, fd); n > limit {
				t.Errorf("%s: %s is %d lines (limit %d): split it into named steps", f.path, fd.Name.Name, n, limit)
			}
		}
	}
	if checked < 100 {
		t.Fatalf("checked only %d functions: wrong root?", checked)
	}
}

// codeLines counts a function's lines, less those inside multi-line
// string literals.
func codeLines(fset *token.FileSet, fd *ast.FuncDecl) int {
	n := fset.Position(fd.End()).Line - fset.Position(fd.Pos()).Line + 1
	ast.Inspect(fd, func(x ast.Node) bool {
		if lit, ok := x.(*ast.BasicLit); ok && lit.Kind == token.STRING {
			n -= fset.Position(lit.End()).Line - fset.Position(lit.Pos()).Line
		}
		return true
	})
	return n
}

// TestLibraryDoesNotPrintOrExit keeps pkg/ free of os.Exit, log.Fatal and
// printing to the process's stdout.
func TestLibraryDoesNotPrintOrExit(t *testing.T) {
	t.Parallel()
	banned := map[string]bool{
		"os.Exit": true, "log.Fatal": true, "log.Fatalf": true, "log.Print": true, "log.Printf": true, "log.Println": true,
		"fmt.Print": true, "fmt.Printf": true, "fmt.Println": true, "os.Stdout": true, "os.Stderr": true,
	}
	for _, f := range loadFiles(t) {
		if !strings.HasPrefix(f.path, "pkg/") {
			continue
		}
		ast.Inspect(f.ast, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			if id, ok := sel.X.(*ast.Ident); ok && banned[id.Name+"."+sel.Sel.Name] {
				t.Errorf("%s uses %s.%s: library code returns errors and takes writers", f.path, id.Name, sel.Sel.Name)
			}
			return true
		})
	}
}

// TestCLIUsesEnv keeps the os package out of internal/cli except env.go.
func TestCLIUsesEnv(t *testing.T) {
	t.Parallel()
	allowed := map[string]bool{"Signal": true, "FileInfo": true}
	for _, f := range loadFiles(t) {
		if !strings.HasPrefix(f.path, "internal/cli/") || f.path == "internal/cli/env.go" {
			continue
		}
		ast.Inspect(f.ast, func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok {
				if id, ok := sel.X.(*ast.Ident); ok && id.Name == "os" && !allowed[sel.Sel.Name] {
					t.Errorf("%s uses os.%s: commands reach the OS through Env", f.path, sel.Sel.Name)
				}
			}
			return true
		})
	}
}

// nodeText is the source text of n in f.
func nodeText(f file, n ast.Node) string {
	return string(f.src[f.fset.Position(n.Pos()).Offset:f.fset.Position(n.End()).Offset])
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// TestExportedNamesHaveDocs requires a doc comment on every exported
// package, type, function, method, and on every exported constant or
// variable (a comment on its group counts), and requires each to begin
// with the name it documents, as Go's doc comments do ("Package x ...",
// "Recorder is ..."; a comment on a group of constants or variables
// speaks for the group and may begin as it likes).
func TestExportedNamesHaveDocs(t *testing.T) {
	t.Parallel()
	pkgDoc := map[string]bool{}
	for _, f := range loadFiles(t) {
		dir := filepath.Dir(f.path)
		if f.ast.Doc != nil {
			pkgDoc[dir] = true
			if name := f.ast.Name.Name; name != "main" && !beginsWith(f.ast.Doc, "Package "+name) {
				t.Errorf("%s: the package comment does not begin with %q: %q", f.path, "Package "+name, firstLine(f.ast.Doc))
			}
		}
		if f.ast.Name.Name == "main" && !strings.HasPrefix(dir, "cmd/") {
			continue // bench programs
		}
		for _, d := range f.ast.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if !d.Name.IsExported() || !exportedReceiver(d) {
					continue
				}
				if d.Doc == nil {
					t.Errorf("%s: %s has no doc comment", f.path, d.Name.Name)
				} else if !beginsWith(d.Doc, d.Name.Name) {
					t.Errorf("%s: the doc comment of %s does not begin with its name: %q", f.path, d.Name.Name, firstLine(d.Doc))
				}
			case *ast.GenDecl:
				grouped := d.Lparen.IsValid()
				for _, s := range d.Specs {
					switch s := s.(type) {
					case *ast.TypeSpec:
						if !s.Name.IsExported() {
							continue
						}
						doc := s.Doc
						if doc == nil && !grouped {
							doc = d.Doc
						}
						switch {
						case doc == nil && d.Doc == nil:
							t.Errorf("%s: type %s has no doc comment", f.path, s.Name.Name)
						case doc != nil && !beginsWith(doc, s.Name.Name):
							t.Errorf("%s: the doc comment of type %s does not begin with its name: %q", f.path, s.Name.Name, firstLine(doc))
						}
					case *ast.ValueSpec:
						var names []string
						for _, n := range s.Names {
							if n.IsExported() {
								names = append(names, n.Name)
							}
						}
						if len(names) == 0 {
							continue
						}
						doc := s.Doc
						if doc == nil && !grouped {
							doc = d.Doc
						}
						switch {
						case doc == nil && d.Doc == nil && s.Comment == nil:
							t.Errorf("%s: %s has no doc comment", f.path, names[0])
						case doc != nil && !slices.ContainsFunc(s.Names, func(n *ast.Ident) bool { return beginsWith(doc, n.Name) }):
							t.Errorf("%s: the doc comment of %s does not begin with its name: %q", f.path, names[0], firstLine(doc))
						}
					}
				}
			}
		}
	}
	for _, f := range loadFiles(t) {
		if dir := filepath.Dir(f.path); !pkgDoc[dir] {
			t.Errorf("package in %s has no package doc comment", dir)
			pkgDoc[dir] = true
		}
	}
}

// beginsWith reports whether the comment's text begins with name as a
// word: followed by anything but a letter, a digit or an underscore
// ("Recorder is", "Recorder's", "DefaultStep:"), or by nothing.
func beginsWith(doc *ast.CommentGroup, name string) bool {
	rest, ok := strings.CutPrefix(doc.Text(), name)
	if !ok {
		return false
	}
	r, _ := utf8.DecodeRuneInString(rest)
	return rest == "" || !(unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_')
}

// firstLine is the first line of a comment's text.
func firstLine(doc *ast.CommentGroup) string {
	line, _, _ := strings.Cut(doc.Text(), "\n")
	return line
}

// exportedReceiver reports whether a method's receiver type is exported
// (methods of unexported types are not API); functions count as exported.
func exportedReceiver(d *ast.FuncDecl) bool {
	if d.Recv == nil || len(d.Recv.List) == 0 {
		return true
	}
	t := d.Recv.List[0].Type
	if s, ok := t.(*ast.StarExpr); ok {
		t = s.X
	}
	switch g := t.(type) { // a generic type's receiver: T[P] or T[P, Q]
	case *ast.IndexExpr:
		t = g.X
	case *ast.IndexListExpr:
		t = g.X
	}
	if id, ok := t.(*ast.Ident); ok {
		return id.IsExported()
	}
	return true
}

// testingAllowed are the packages of other modules that import testing
// into the gobench binary themselves: ncruces's memdb VFS carries a TestDB
// helper in its API. No package of this module may.
var testingAllowed = map[string]bool{"github.com/ncruces/go-sqlite3/vfs/memdb": true}

// TestBinaryHasNoTestCode keeps the test framework, and gobench's own
// test helpers, out of the gobench binary: only the packages above may
// bring testing in.
func TestBinaryHasNoTestCode(t *testing.T) {
	t.Parallel()
	out := goList(t, "-deps", "-f", "{{.ImportPath}} {{join .Imports \",\"}}", "../../cmd/gobench")
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		pkg, imports, _ := strings.Cut(line, " ")
		for _, imp := range strings.Split(imports, ",") {
			switch {
			case imp == module+"pkg/store/storetest":
				t.Errorf("%s imports storetest into the binary", pkg)
			case imp == "testing" && !testingAllowed[pkg]:
				t.Errorf("%s imports testing into the binary", pkg)
			}
		}
	}
}
