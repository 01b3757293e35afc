package ab

import (
	"archive/tar"
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/gobench/gobench/pkg/job"
	"github.com/gobench/gobench/pkg/result"
	"github.com/gobench/gobench/pkg/workload"
)

// fakeGobench is a stand-in for a gobench build: it answers --dry-run
// with the plan file at $FAKE_PLAN, and otherwise writes the result at
// $FAKE_RESULT to its --json path, stamped with the time it ran (two runs
// are two runs), and logs which build it is to $FAKE_LOG.
const fakeGobench = `package main

import (
	"os"
	"slices"
	"strings"
	"time"
)

const build = "BUILD"

func main() {
	args := os.Args[1:]
	if slices.Contains(args, "--dry-run") {
		b, _ := os.ReadFile(os.Getenv("FAKE_PLAN"))
		os.Stdout.Write(b)
		return
	}
	if slices.Contains(args, "refuse") {
		os.Stderr.WriteString("gobench: unknown flag: --refuse\n")
		os.Exit(2)
	}
	log, _ := os.OpenFile(os.Getenv("FAKE_LOG"), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	log.WriteString(build + " " + strings.Join(args, " ") + "\n")
	log.Close()
	out := args[slices.Index(args, "--json")+1]
	b, _ := os.ReadFile(os.Getenv("FAKE_RESULT"))
	stamped := strings.Replace(string(b), "STARTED", time.Now().UTC().Format(time.RFC3339Nano), 1)
	os.WriteFile(out, []byte(stamped), 0o644)
}
`

// fakeRepo makes a git repository with two commits of a fake gobench,
// whose builds call themselves "one" and "two", and returns it with the
// first commit's id.
func fakeRepo(t *testing.T) (repo, first string) {
	t.Helper()
	for _, tool := range []string{"git", "go"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("no %s: %v", tool, err)
		}
	}
	repo = t.TempDir()
	git := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false"}, args...)...)
		cmd.Dir = repo
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	git("init", "-q")
	write := func(name, text string) {
		path := filepath.Join(repo, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", "module fake\n\ngo 1.22\n")
	for _, build := range []string{"one", "two"} {
		write("cmd/gobench/main.go", strings.Replace(fakeGobench, "BUILD", build, 1))
		git("add", ".")
		git("commit", "-q", "-m", build)
		if build == "one" {
			first = git("rev-parse", "HEAD")
		}
	}
	return repo, first
}

// fakeFiles writes the plan and the result template the fake answers
// with: one recorded run, its start replaced by a placeholder.
func fakeFiles(t *testing.T) {
	t.Helper()
	f, err := os.Open(filepath.Join("..", "..", "testdata", "mix-wal.json"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, err := result.Read(f)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	var plan bytes.Buffer
	if err := job.New("mix", result.ShapeMatrix, nil, []*workload.Plan{&r.Plan}, 1).Write(&plan); err != nil {
		t.Fatal(err)
	}
	var res bytes.Buffer
	if err := r.Write(&res); err != nil {
		t.Fatal(err)
	}
	template := regexp.MustCompile(`"started_at": "[^"]*"`).ReplaceAllString(res.String(), `"started_at": "STARTED"`)
	for name, text := range map[string]string{"plan.json": plan.String(), "result.json": template} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("FAKE_PLAN", filepath.Join(dir, "plan.json"))
	t.Setenv("FAKE_RESULT", filepath.Join(dir, "result.json"))
	t.Setenv("FAKE_LOG", filepath.Join(dir, "log"))
}

// Two revisions are built from the repository and run in ABBA order, each
// run one repeat with its own result file; each build's runs come back as
// its suite, and the kept directory holds the builds and the results.
func TestRunBuildsRevisionsInABBAOrder(t *testing.T) {
	if testing.Short() {
		t.Skip("builds two revisions with go build")
	}
	repo, first := fakeRepo(t)
	fakeFiles(t)
	keep := filepath.Join(t.TempDir(), "kept")
	var notes bytes.Buffer
	res, err := Run(context.Background(), Spec{Old: first, New: "HEAD", Repo: repo, Args: []string{"mix", "--procs", "1"}, Rounds: 2, Dir: keep, Notes: &notes})
	if err != nil {
		t.Fatalf("%v\n%s", err, notes.String())
	}
	log, err := os.ReadFile(os.Getenv("FAKE_LOG"))
	if err != nil {
		t.Fatal(err)
	}
	var order []string
	for _, line := range strings.Split(strings.TrimSpace(string(log)), "\n") {
		build, args, _ := strings.Cut(line, " ")
		order = append(order, build)
		if !strings.HasPrefix(args, "mix --procs 1 --repeat 1 --json "+keep+"/") || !strings.HasSuffix(args, " -q") {
			t.Errorf("a run's command line: %q", args)
		}
	}
	if want := []string{"one", "two", "two", "one", "one", "two", "two", "one"}; !slices.Equal(order, want) {
		t.Errorf("ran %v, want %v", order, want)
	}
	if !slices.Equal(res.Order, []string{"old", "new", "new", "old", "old", "new", "new", "old"}) {
		t.Errorf("Order = %v", res.Order)
	}
	if n, m := len(res.Old.Cells[0].Runs), len(res.New.Cells[0].Runs); n != 4 || m != 4 || res.Old.Command != "mix" {
		t.Errorf("old %d runs, new %d runs, command %q", n, m, res.Old.Command)
	}
	for _, name := range []string{"old/gobench", "new/gobench", "old-1.json", "new-4.json", "old.json", "new.json"} {
		if _, err := os.Stat(filepath.Join(keep, name)); err != nil {
			t.Errorf("kept directory: %v", err)
		}
	}
	if !strings.Contains(notes.String(), "building "+first) || !strings.Contains(notes.String(), "round 2 of 2: run 8 of 8, old build") {
		t.Errorf("notes:\n%s", notes.String())
	}
}

// A value naming a file is a binary; else a revision, which must exist. A
// build that refuses the command refuses the A/B run before any run.
func TestRunRefuses(t *testing.T) {
	repo, _ := fakeRepo(t)
	fakeFiles(t)
	text := filepath.Join(t.TempDir(), "notes.txt")
	if err := os.WriteFile(text, []byte("not a program"), 0o644); err != nil {
		t.Fatal(err)
	}
	bin, err := buildRevision(context.Background(), repo, "HEAD", t.TempDir(), func(string, ...any) {})
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		spec Spec
		want string
	}{
		{Spec{Old: "nosuchrevision", New: "HEAD", Repo: repo, Args: []string{"mix"}}, "--old nosuchrevision: refused: neither an existing file nor a git revision of " + repo},
		{Spec{Old: text, New: "HEAD", Repo: repo, Args: []string{"mix"}}, "refused: not an executable file"},
		{Spec{Old: bin, New: bin, Args: []string{"mix", "refuse"}}, "refused: gobench: unknown flag: --refuse"},
		{Spec{Old: "HEAD", New: "HEAD", Repo: repo, Args: []string{"mix", "--json", "x.json"}}, "--json: ab sets every run's output"},
		{Spec{Old: "HEAD", New: "HEAD", Repo: repo}, "no command to run"},
		{Spec{Old: bin, New: bin, Args: []string{"mix"}, Dir: filepath.Dir(text)}, "is not empty: give a new or empty directory"},
	} {
		_, err := Run(context.Background(), tt.spec)
		if !errors.Is(err, ErrRefused) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%+v: %v, want ErrRefused with %q", tt.spec, err, tt.want)
		}
	}
	if log, _ := os.ReadFile(os.Getenv("FAKE_LOG")); len(log) != 0 {
		t.Errorf("a refused A/B run ran: %s", log)
	}
}

// An archive entry that would leave the directory is refused.
func TestUntarStaysInside(t *testing.T) {
	for _, name := range []string{"../escape", "/abs", "a/../../escape"} {
		var b bytes.Buffer
		tw := tar.NewWriter(&b)
		_ = tw.WriteHeader(&tar.Header{Name: name, Mode: 0o644, Size: 1, Typeflag: tar.TypeReg})
		_, _ = tw.Write([]byte("x"))
		_ = tw.Close()
		dir := t.TempDir()
		if err := untar(&b, dir); err == nil || !strings.Contains(err.Error(), "leaves the directory") {
			t.Errorf("%s: %v", name, err)
		}
	}
}
