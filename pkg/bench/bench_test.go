package bench_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gobench/gobench/pkg/bench"
	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/store/sqlite"
	"github.com/gobench/gobench/pkg/workload"
)

// A plan naming another driver is refused before anything runs; a plan
// naming none is the given driver's, and its result says where it ran.
func TestRun(t *testing.T) {
	t.Parallel()
	plan := workload.DefaultPlan()
	plan.Phases[0].Ops = 100
	plan.Driver = "modernc"
	if _, err := bench.Run(context.Background(), plan, boltKV{}); !errors.Is(err, store.ErrInvalid) || !strings.Contains(err.Error(), `driver "modernc"`) {
		t.Fatalf("a plan for modernc run on boltkv: %v", err)
	}
	plan.Store = store.Config{Path: t.TempDir() + "/kv.db", Options: sqlite.DefaultOptions().Encode()}
	r, err := bench.Run(context.Background(), plan, sqlite.Modernc())
	if err != nil {
		t.Fatal(err)
	}
	if r.Command != "library" || r.Tool.Name != "gobench" || r.Environment.StoreFact("sqlite_version") == "" || !r.Complete || r.Phases[0].Total.Count != 100 {
		t.Errorf("result: command %q, tool %+v, facts %v, complete %v, %d ops", r.Command, r.Tool, r.Environment.Store, r.Complete, r.Phases[0].Total.Count)
	}
}

// The library page's code is this package's Example, whole: the page's
// Go block is example_test.go byte for byte, imports and all, so what a
// reader copies is what make test compiles and runs.
func TestLibraryPageShowsTheExample(t *testing.T) {
	t.Parallel()
	page, err := os.ReadFile(filepath.Join("..", "..", "docs", "library.md"))
	if err != nil {
		t.Fatal(err)
	}
	example, err := os.ReadFile("example_test.go")
	if err != nil {
		t.Fatal(err)
	}
	_, code, found := strings.Cut(string(page), "```go\n")
	code, _, closed := strings.Cut(code, "```")
	if !found || !closed {
		t.Fatal("docs/library.md has no Go block")
	}
	if code != string(example) {
		pl, el := strings.Split(code, "\n"), strings.Split(string(example), "\n")
		for i := range max(len(pl), len(el)) {
			var p, e string
			if i < len(pl) {
				p = pl[i]
			}
			if i < len(el) {
				e = el[i]
			}
			if p != e {
				t.Fatalf("docs/library.md's Go block differs from example_test.go at line %d:\npage:    %q\nexample: %q", i+1, p, e)
			}
		}
	}
}
