package layering

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
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
