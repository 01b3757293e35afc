package layering

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gobench/gobench/pkg/judge"
)

var updateDocs = flag.Bool("update", false, "rewrite the generated parts of the docs")

// Markers around the table of figures in docs/ci.md.
const (
	figuresBegin = "<!-- figures: generated from judge.Figures; go test ./internal/layering -run TestFiguresDoc -update -->\n"
	figuresEnd   = "<!-- /figures -->"
)

// TestFiguresDoc: docs/ci.md lists exactly the figures of the table of
// figures (judge.Figures), so a new figure's row is its documentation.
func TestFiguresDoc(t *testing.T) {
	path := filepath.Join("..", "..", "docs", "ci.md")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	i, j := strings.Index(doc, figuresBegin), strings.Index(doc, figuresEnd)
	if i < 0 || j < i {
		t.Fatalf("docs/ci.md has no generated table of figures between %q and %q", figuresBegin, figuresEnd)
	}
	want := doc[:i+len(figuresBegin)] + judge.FiguresMarkdown() + doc[j:]
	if want == doc {
		return
	}
	if *updateDocs {
		if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("docs/ci.md's table of figures is stale: run go test ./internal/layering -run TestFiguresDoc -update")
}
