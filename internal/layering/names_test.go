package layering

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// commandNames reads the names of gobench's commands from the Use fields
// of the command line's cobra commands.
func commandNames(t *testing.T, files []file) []string {
	t.Helper()
	var names []string
	for _, f := range files {
		if !strings.HasPrefix(f.path, "internal/cli/") {
			continue
		}
		ast.Inspect(f.ast, func(n ast.Node) bool {
			kv, ok := n.(*ast.KeyValueExpr)
			if !ok {
				return true
			}
			if k, ok := kv.Key.(*ast.Ident); ok && k.Name == "Use" {
				if lit, ok := kv.Value.(*ast.BasicLit); ok && lit.Kind == token.STRING {
					use, _ := strconv.Unquote(lit.Value)
					names = append(names, strings.Fields(use)[0])
				}
			}
			return true
		})
	}
	if len(names) < 10 {
		t.Fatalf("found only %d commands (%v): wrong root?", len(names), names)
	}
	return names
}

// aboutCommand matches an expression that holds a command's name.
var aboutCommand = regexp.MustCompile(`(?i)command|cmd\.Name\(\)`)

// nameComparisons returns, as file:line, every place in f that compares
// an expression holding a command's name with one of names: behaviour
// that follows a command's name instead of a result's declared shape.
func nameComparisons(fset *token.FileSet, path string, f *ast.File, src func(ast.Node) string, names []string) []string {
	isName := func(e ast.Expr) bool {
		lit, ok := e.(*ast.BasicLit)
		if !ok || lit.Kind != token.STRING {
			return false
		}
		v, _ := strconv.Unquote(lit.Value)
		for _, n := range names {
			if v == n {
				return true
			}
		}
		return false
	}
	var out []string
	report := func(n ast.Node) { out = append(out, path+":"+strconv.Itoa(fset.Position(n.Pos()).Line)) }
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.BinaryExpr:
			if n.Op != token.EQL && n.Op != token.NEQ {
				return true
			}
			if (isName(n.X) && aboutCommand.MatchString(src(n.Y))) || (isName(n.Y) && aboutCommand.MatchString(src(n.X))) {
				report(n)
			}
		case *ast.SwitchStmt:
			if n.Tag == nil || !aboutCommand.MatchString(src(n.Tag)) {
				return true
			}
			for _, c := range n.Body.List {
				for _, e := range c.(*ast.CaseClause).List {
					if isName(e) {
						report(e)
					}
				}
			}
		}
		return true
	})
	return out
}

// TestNoCommandNameComparisons: behaviour follows the shape a result
// declares, never a command's name compared as a string, outside the
// command's own files (internal/cli/<name>.go, pkg/preset/<name>.go).
func TestNoCommandNameComparisons(t *testing.T) {
	files := loadFiles(t)
	names := commandNames(t, files)
	for _, f := range files {
		base := strings.TrimSuffix(filepath.Base(f.path), ".go")
		own := (strings.HasPrefix(f.path, "internal/cli/") || strings.HasPrefix(f.path, "pkg/preset/")) && contains(names, base)
		if own {
			continue
		}
		src := func(n ast.Node) string { return nodeText(f, n) }
		for _, at := range nameComparisons(f.fset, f.path, f.ast, src, names) {
			t.Errorf("%s compares a command's name: switch on the result's shape (result.Shape) instead", at)
		}
	}
}

// The check finds what it looks for: a comparison of a result's command
// with a name, and a switch on a command.
func TestNameComparisonsCanFail(t *testing.T) {
	const code = `package p
func f(r R, command string) {
	if r.Command == "mix" {}
	if "crud" != r.Command {}
	switch command {
	case "disk":
	}
	if api == "sql" {}
}`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", code, 0)
	if err != nil {
		t.Fatal(err)
	}
	src := func(n ast.Node) string { return code[fset.Position(n.Pos()).Offset:fset.Position(n.End()).Offset] }
	got := nameComparisons(fset, "p.go", f, src, []string{"mix", "crud", "disk", "sql"})
	if want := "p.go:3 p.go:4 p.go:6"; strings.Join(got, " ") != want {
		t.Errorf("found %v, want %s", got, want)
	}
}
