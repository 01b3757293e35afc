package layering

import (
	"go/ast"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// makeList returns the packages a Makefile variable lists ("NAME = ./a
// ./b"), as paths from the module's root.
func makeList(t *testing.T, name string) []string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "Makefile"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^` + name + ` = (.*)$`).FindStringSubmatch(string(b))
	if m == nil {
		t.Fatalf("the Makefile sets no %s", name)
	}
	var out []string
	for _, p := range strings.Fields(m[1]) {
		out = append(out, strings.TrimPrefix(p, "./"))
	}
	return out
}

// raceExempt are the packages that start goroutines but stay out of the
// race tier, and why.
var raceExempt = map[string]string{
	"internal/cli":                "one goroutine that turns a second signal into a hard stop; its tests run whole commands, minutes under -race",
	"pkg/recfs":                   "its goroutines serve a FUSE mount, whose tests need /dev/fuse and run in the full tier",
	"pkg/capture/preload":         "it copies a captured program's output; its tests build C programs",
	"examples/replay/goshop/shop": "an example program the end-to-end suite captures",
}

// TestRaceTierNamesConcurrentPackages: every package whose code starts
// goroutines (a go statement, an errgroup's or WaitGroup's Go) is in the
// Makefile's RACE_PACKAGES, which CI runs under -race, or exempted with a
// reason: concurrent code that moves to a new package is not left
// unchecked.
func TestRaceTierNamesConcurrentPackages(t *testing.T) {
	t.Parallel()
	race := makeList(t, "RACE_PACKAGES")
	concurrent := map[string]bool{}
	for _, f := range loadFiles(t) {
		ast.Inspect(f.ast, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.GoStmt:
				concurrent[filepath.Dir(f.path)] = true
			case *ast.CallExpr:
				if sel, ok := n.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "Go" {
					concurrent[filepath.Dir(f.path)] = true
				}
			}
			return true
		})
	}
	for _, must := range []string{"internal/coord", "pkg/runner"} {
		if !concurrent[must] {
			t.Fatalf("found no goroutine in %s: the test reads the wrong things", must)
		}
	}
	for dir := range concurrent {
		if _, ok := raceExempt[dir]; !ok && !slices.Contains(race, dir) {
			t.Errorf("%s starts goroutines but is not in the Makefile's RACE_PACKAGES: add it, or exempt it here with a reason", dir)
		}
	}
	for _, dir := range race {
		if _, err := os.Stat(filepath.Join("..", "..", dir)); err != nil {
			t.Errorf("RACE_PACKAGES names %s, which does not exist", dir)
		}
	}
}

// TestBenchNamesEveryBenchmark: `make bench` runs every package that holds
// a benchmark (BENCH_PACKAGES), and names none that holds none.
func TestBenchNamesEveryBenchmark(t *testing.T) {
	t.Parallel()
	listed := makeList(t, "BENCH_PACKAGES")
	root := filepath.Join("..", "..")
	benches := map[string]bool{}
	bench := regexp.MustCompile(`(?m)^func Benchmark\w*\(`)
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) && path != root {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, "_test.go") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if bench.Match(b) {
			rel, _ := filepath.Rel(root, filepath.Dir(path))
			benches[filepath.ToSlash(rel)] = true
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(benches) < 3 {
		t.Fatalf("found benchmarks in %d packages: the test reads the wrong things", len(benches))
	}
	for dir := range benches {
		if !slices.Contains(listed, dir) {
			t.Errorf("%s holds a benchmark that make bench does not run: add it to the Makefile's BENCH_PACKAGES", dir)
		}
	}
	for _, dir := range listed {
		if !benches[dir] {
			t.Errorf("BENCH_PACKAGES names %s, which holds no benchmark", dir)
		}
	}
}
