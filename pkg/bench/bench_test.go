package bench_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
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
	if _, err := bench.Run(context.Background(), plan, syncMap{&sync.Map{}}); !errors.Is(err, store.ErrInvalid) || !strings.Contains(err.Error(), `driver "modernc"`) {
		t.Fatalf("a plan for modernc run on syncmap: %v", err)
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

// The library page's code is this package's Example: every line of the
// store it shows is in example_test.go.
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
	_, code, _ := strings.Cut(string(page), "```go\n")
	code, _, _ = strings.Cut(code, "```")
	lines := 0
	for _, line := range strings.Split(code, "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		lines++
		if !strings.Contains(string(example), line) {
			t.Errorf("docs/library.md line not in example_test.go: %q", line)
		}
	}
	if lines < 20 {
		t.Fatalf("found %d lines of code in docs/library.md", lines)
	}
}
