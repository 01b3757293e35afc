package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gobench/gobench/pkg/deal"
	"github.com/gobench/gobench/pkg/result"
	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/store/all"
	"github.com/gobench/gobench/pkg/workload"
)

// blobRun runs gobench blob with --keep and --json and returns the suite
// and, per target, the blobs it holds afterwards (read straight from the
// database and from the files, not through the files engine).
func blobRun(t *testing.T, args ...string) (*result.Suite, map[string]map[uint64][]byte) {
	t.Helper()
	env, stdout, stderr := testEnv(t)
	out := filepath.Join(t.TempDir(), "blob.json")
	args = append([]string{"blob", "--keep", "--json", out, "--count", "300", "--size", "2k", "--variance", "512", "--procs", "2"}, args...)
	if code := Main(args, env); code != 0 {
		t.Fatalf("exit %d:\n%s", code, stderr)
	}
	if !strings.Contains(stdout.String(), "database against each directory") {
		t.Errorf("no factors in the report:\n%s", stdout)
	}
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	suite, err := result.ReadSuite(f)
	if err != nil {
		t.Fatal(err)
	}
	var kept []string
	for _, line := range strings.Split(stderr.String(), "\n") {
		if p, ok := strings.CutPrefix(line, "gobench: kept the database: "); ok {
			kept = append(kept, p)
		}
	}
	if len(kept) != len(suite.Cells) {
		t.Fatalf("kept %d paths for %d targets:\n%s", len(kept), len(suite.Cells), stderr)
	}
	blobs := map[string]map[uint64][]byte{}
	for i, c := range suite.Cells {
		p := c.Runs[0].Plan
		target := "db"
		if p.Driver == "files" {
			target = "flat"
			if strings.Contains(string(p.Store.Options), `"tree"`) {
				target = "tree"
			}
		}
		blobs[target] = readTarget(t, &p, target, kept[i])
	}
	return suite, blobs
}

func readTarget(t *testing.T, p *workload.Plan, target, path string) map[uint64][]byte {
	t.Helper()
	got := map[uint64][]byte{}
	if target == "db" {
		drv, err := all.Registry().Lookup(p.Driver)
		if err != nil {
			t.Fatal(err)
		}
		st, err := drv.Open(context.Background(), store.Config{Path: path, Options: p.Store.Options})
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		c, err := st.Conn(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		for k := range p.Keys.Count {
			v, err := c.Get(k, nil)
			if err != nil {
				t.Fatalf("db key %d: %v", k, err)
			}
			got[k] = v
		}
		return got
	}
	for k := range p.Keys.Count {
		name := filepath.Join(path, fmt.Sprint(k))
		if target == "tree" {
			name = filepath.Join(path, fmt.Sprintf("%02d", k/10000), fmt.Sprintf("%02d", k/100%100), fmt.Sprintf("%02d", k%100)) // kvtest's layout
		}
		v, err := os.ReadFile(name)
		if err != nil {
			t.Fatalf("%s key %d: %v", target, k, err)
		}
		got[k] = v
	}
	return got
}

// The directories hold the database's blobs byte for byte, each of its
// seeded size; an update pass rewrites exactly the blobs its lottery
// dealt, each with different content of the same size, alike on every
// target.
func TestBlobTargets(t *testing.T) {
	suite, before := blobRun(t)
	plan := suite.Cells[0].Runs[0].Plan
	if len(before) != 3 {
		t.Fatalf("targets %v, want db, flat and tree", len(before))
	}
	for k, v := range before["db"] {
		if len(v) != plan.ValueSizeOf(k) {
			t.Fatalf("key %d: %d bytes, want %d", k, len(v), plan.ValueSizeOf(k))
		}
		for _, target := range []string{"flat", "tree"} {
			if !bytes.Equal(before[target][k], v) {
				t.Fatalf("key %d: the %s file differs from the database's blob", k, target)
			}
		}
	}

	suite, after := blobRun(t, "--update", "--sample", "60")
	plan = suite.Cells[0].Runs[0].Plan
	targeted := map[uint64]bool{}
	for _, w := range plan.WorkerIDs() {
		l := deal.NewLottery(&plan, 1, w)
		for range l.Len() {
			_, k := l.Next()
			targeted[k] = true
		}
	}
	if len(targeted) != 60 {
		t.Fatalf("the update pass dealt %d distinct keys, want 60", len(targeted))
	}
	for _, target := range []string{"db", "flat", "tree"} {
		changed := 0
		for k, v := range after[target] {
			old := before[target][k]
			if len(v) != len(old) {
				t.Fatalf("%s key %d: %d bytes after the update, %d before", target, k, len(v), len(old))
			}
			if !bytes.Equal(v, old) {
				changed++
				if !targeted[k] {
					t.Fatalf("%s key %d changed but was not targeted", target, k)
				}
			} else if targeted[k] {
				t.Fatalf("%s key %d was targeted but kept its content", target, k)
			}
			if !bytes.Equal(v, after["db"][k]) {
				t.Fatalf("key %d: %s and db differ after the update", k, target)
			}
		}
		if changed != 60 {
			t.Errorf("%s: %d blobs changed, want 60", target, changed)
		}
	}
}

// --replace draws each pass's blobs with replacement (kvtest --random):
// --sample draws in all, some keys twice, and the update pass rewrote
// exactly the keys it drew. Before each pass the files were written back
// to the disk (--settle, the default), and the result says so; with
// --settle=false they were not.
func TestBlobReplaceAndSettle(t *testing.T) {
	_, before := blobRun(t, "--targets", "db,tree")
	suite, after := blobRun(t, "--targets", "db,tree", "--update", "--sample", "80", "--replace")
	plan := suite.Cells[0].Runs[0].Plan
	drawn, distinct := 0, map[uint64]bool{}
	for _, w := range plan.WorkerIDs() {
		l := deal.NewLottery(&plan, 1, w)
		for range plan.Phases[1].Ops {
			op, k := l.Next()
			if op != workload.OpUpdate {
				t.Fatalf("the update pass dealt %v", op)
			}
			drawn++
			distinct[k] = true
		}
	}
	if drawn != 80 || len(distinct) >= 80 {
		t.Fatalf("%d draws of %d distinct keys: want 80 draws, some of a key drawn before", drawn, len(distinct))
	}
	for _, target := range []string{"db", "tree"} {
		changed := 0
		for k, v := range after[target] {
			if !bytes.Equal(v, before[target][k]) {
				changed++
				if !distinct[k] {
					t.Fatalf("%s key %d changed but was not drawn", target, k)
				}
			}
		}
		if changed != len(distinct) {
			t.Errorf("%s: %d blobs changed, want the %d drawn", target, changed, len(distinct))
		}
	}
	for _, c := range suite.Cells {
		for _, ph := range c.Runs[0].Phases {
			if ph.PageCache != "written back" {
				t.Errorf("%s %s: page cache %q, want the files written back", c.Runs[0].Plan.Driver, ph.Name, ph.PageCache)
			}
		}
	}
	suite, _ = blobRun(t, "--targets", "db,tree", "--settle=false")
	for _, c := range suite.Cells {
		if p := c.Runs[0].Phases[0].PageCache; p != "" || c.Runs[0].Plan.Settle {
			t.Errorf("--settle=false: page cache %q, plan settle %v", p, c.Runs[0].Plan.Settle)
		}
	}
}

// --format json on stdout and --json's file are the same document, one
// rule deciding whether a suite reads as its run (result.Suite.ReadsAsRun):
// targets of one keep their suite (their shape and reference), a matrix
// of one run is that run, a matrix of two runs its suite.
func TestJSONOnStdoutIsTheFile(t *testing.T) {
	for _, tt := range []struct {
		args []string
		kind string // "suite" or "" (a run)
	}{
		{[]string{"blob", "--count", "50", "--size", "1k", "--targets", "db"}, "suite"},
		{[]string{"mix", "--driver", "null", "--mode", "goroutine", "--procs", "1", "--queries", "50"}, ""},
		{[]string{"mix", "--driver", "null", "--mode", "goroutine", "--procs", "1", "--queries", "50", "--repeat", "2"}, "suite"},
	} {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			env, stdout, stderr := testEnv(t)
			out := filepath.Join(t.TempDir(), "f.json")
			if code := Main(append(tt.args, "--format", "json", "--json", out, "-q"), env); code != 0 {
				t.Fatalf("exit %d:\n%s", code, stderr)
			}
			file, err := os.ReadFile(out)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(stdout.Bytes(), file) {
				t.Errorf("stdout (%d bytes) differs from the --json file (%d bytes):\nstdout starts %.200s\nfile starts %.200s", stdout.Len(), len(file), stdout, file)
			}
			var head struct {
				Kind string `json:"kind"`
			}
			if err := json.Unmarshal(file, &head); err != nil || head.Kind != tt.kind {
				t.Errorf("the file holds kind %q (%v), want %q", head.Kind, err, tt.kind)
			}
		})
	}
}
