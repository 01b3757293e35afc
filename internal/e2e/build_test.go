package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/gobench/gobench/pkg/result"
	"github.com/gobench/gobench/pkg/store"
	"github.com/rogpeppe/go-internal/testscript"
)

// buildEnv gives a script what building a worker executable needs
// (gobench worker builds: --sqlite-version, --sqlite-define): the go
// command's own settings, so that its build and module caches are the
// machine's (a cold cache would rebuild every package), gobench's source
// tree, and a cache of builds in the script's own directory (each run of
// the test builds once, deterministically).
func buildEnv(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 0 {
		ts.Fatalf("usage: buildenv")
	}
	out, err := exec.Command("go", "env", "-json", "GOCACHE", "GOMODCACHE", "GOPATH", "GOPROXY", "GOSUMDB", "GONOSUMDB", "GOPRIVATE", "GOTOOLCHAIN").Output()
	ts.Check(err)
	var vars map[string]string
	ts.Check(json.Unmarshal(out, &vars))
	for k, v := range vars {
		ts.Setenv(k, v)
	}
	src, err := filepath.Abs(filepath.Join("..", ".."))
	ts.Check(err)
	ts.Setenv("GOBENCH_SOURCE", src)
	ts.Setenv("XDG_CACHE_HOME", ts.MkAbs("cache"))
}

// buildCheck FILE OPTION asserts that every run of a suite ran a worker
// build whose own worker reported OPTION among SQLite's compile options
// (pragma_compile_options: without the SQLITE_ prefix), named the build
// and its source, and that every cell of --lock-wait blocking said so.
func buildCheck(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: buildcheck FILE OPTION")
	}
	f, err := os.Open(ts.MkAbs(args[0]))
	ts.Check(err)
	defer f.Close()
	s, err := result.ReadSuite(f)
	ts.Check(err)
	runs := 0
	for _, c := range s.Cells {
		for _, r := range c.Runs {
			runs++
			e := r.Environment
			if !slices.Contains(strings.Fields(e.StoreFact("compile_options")), args[1]) {
				ts.Fatalf("%s: compile options %q lack %s", fmt.Sprint(c.Settings), e.StoreFact("compile_options"), args[1])
			}
			if e.StoreFact(store.FactWorkerBuild) == "" || e.StoreFact("sqlite_source_id") == "" {
				ts.Fatalf("%s: build %q, source %q", fmt.Sprint(c.Settings), e.StoreFact(store.FactWorkerBuild), e.StoreFact("sqlite_source_id"))
			}
			var opts struct {
				LockWait string `json:"lock_wait"`
			}
			ts.Check(json.Unmarshal(r.Plan.Store.Options, &opts))
			blocking := opts.LockWait == "blocking"
			if blocking != strings.HasPrefix(e.StoreFact("lock_wait"), "blocking") {
				ts.Fatalf("%s: lock wait fact %q, blocking asked %v", fmt.Sprint(c.Settings), e.StoreFact("lock_wait"), blocking)
			}
		}
	}
	if runs == 0 {
		ts.Fatalf("no runs in %s", args[0])
	}
	ts.Logf("%d runs on %s", runs, s.Cells[0].Runs[0].Environment.StoreFact(store.FactWorkerBuild))
}
