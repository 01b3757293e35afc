package layering

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/store/all"
)

// TestEngineListsDoc: the engines docs/mix.md's synopsis and docs/ycsb.md
// name are the registry's, so a new engine is listed where it runs (-update
// rewrites them).
func TestEngineListsDoc(t *testing.T) {
	r := all.Registry()
	if _, err := r.Lookup("mattn"); err != nil {
		t.Skip("a build without cgo lacks the cgo engines the docs list")
	}
	var ordered, unordered []string
	for _, name := range r.Names() {
		d, _ := r.Lookup(name)
		if ts, ok := store.TablesOf(d); ok && ts.Ordered {
			ordered = append(ordered, "`"+name+"`")
		} else if ok {
			unordered = append(unordered, "`"+name+"`")
		}
	}
	for _, tt := range []struct {
		doc  string
		re   *regexp.Regexp
		want string
	}{
		{"mix.md", regexp.MustCompile(`\[--driver [a-z|]+\]`), "[--driver " + strings.Join(r.Names(), "|") + "]"},
		{"ycsb.md", regexp.MustCompile(`(?s)<!-- engines -->.*?<!-- /engines -->`),
			"<!-- engines -->" + joinAnd(ordered) + ", and " + joinAnd(unordered) + " for the workloads without scans<!-- /engines -->"},
	} {
		path := filepath.Join("..", "..", "docs", tt.doc)
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		doc := string(b)
		if n := len(tt.re.FindAllString(doc, -1)); n != 1 {
			t.Fatalf("docs/%s has %d places matching %s, want 1", tt.doc, n, tt.re)
		}
		want := tt.re.ReplaceAllLiteralString(doc, tt.want)
		switch {
		case want == doc:
		case *updateDocs:
			if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
				t.Fatal(err)
			}
		default:
			t.Errorf("docs/%s's engine list is not the registry's (%s): run go test ./internal/layering -run TestEngineListsDoc -update", tt.doc, tt.want)
		}
	}
}

// joinAnd joins names as a sentence does: "a, b and c".
func joinAnd(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}
