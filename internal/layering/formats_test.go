package layering

import (
	"go/ast"
	"go/parser"
	"go/token"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/gobench/gobench/pkg/disk"
	"github.com/gobench/gobench/pkg/judge"
	"github.com/gobench/gobench/pkg/report"
	"github.com/gobench/gobench/pkg/result"
)

// formatExtensions are the extensions of every format pkg/report writes,
// for every kind it renders.
func formatExtensions(t *testing.T) []string {
	t.Helper()
	var exts []string
	for _, kind := range []any{(*result.Suite)(nil), (*judge.Comparison)(nil), (*disk.Report)(nil)} {
		for _, e := range report.Extensions(kind) {
			if !slices.Contains(exts, e) {
				exts = append(exts, e)
			}
		}
	}
	if len(exts) < 4 {
		t.Fatalf("pkg/report declares only the extensions %q: the test reads the wrong things", exts)
	}
	return exts
}

// extensionLiterals returns, as file:line, every string literal of f that
// is a format's file extension.
func extensionLiterals(fset *token.FileSet, path string, f *ast.File, exts []string) []string {
	var out []string
	ast.Inspect(f, func(n ast.Node) bool {
		lit, ok := n.(*ast.BasicLit)
		if !ok || lit.Kind != token.STRING {
			return true
		}
		if s, err := strconv.Unquote(lit.Value); err == nil && slices.Contains(exts, strings.ToLower(s)) {
			out = append(out, path+":"+strconv.Itoa(fset.Position(lit.Pos()).Line)+": "+s)
		}
		return true
	})
	return out
}

// TestCLIKnowsNoExtension is the command line's half of the format
// recipe: --format's help, completion and -o's inference ask pkg/report's
// formats table, so a format's extension appears nowhere in internal/cli
// (an extension map of its own would miss the next format's).
func TestCLIKnowsNoExtension(t *testing.T) {
	t.Parallel()
	exts := formatExtensions(t)
	for _, f := range loadFiles(t) {
		if !strings.HasPrefix(f.path, "internal/cli/") {
			continue
		}
		for _, at := range extensionLiterals(f.fset, f.path, f.ast, exts) {
			t.Errorf("%s: the command line names a format's extension: ask pkg/report (FormatOfPath, Extensions)", at)
		}
	}
}

// The check finds a command line's own extension map.
func TestExtensionLiteralsCanFail(t *testing.T) {
	const src = `package cli

var formatOfExt = map[string]string{".HTML": "html", ".md": "markdown", ".go": "go"}
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "format.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	got := extensionLiterals(fset, "internal/cli/format.go", f, formatExtensions(t))
	if want := []string{"internal/cli/format.go:3: .HTML", "internal/cli/format.go:3: .md"}; !slices.Equal(got, want) {
		t.Errorf("found %q, want %q", got, want)
	}
}
