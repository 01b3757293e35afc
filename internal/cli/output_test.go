package cli

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// fixture is a recorded result, the input of the report commands below.
const fixture = "../../testdata/mix-wal.json"

// runOut runs gobench with args and returns its exit code and stderr.
func runOut(t *testing.T, args ...string) (int, string) {
	t.Helper()
	env, _, stderr := testEnv(t)
	return Main(args, env), stderr.String()
}

// leftovers lists the hidden temporary files an output left in dir.
func leftovers(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range ents {
		if strings.Contains(e.Name(), ".tmp-") {
			out = append(out, e.Name())
		}
	}
	return out
}

// oldOutput is what an earlier gobench run left in a file: an output
// may replace it.
const oldOutput = `{"schema_version": 1, "old": true}`

// A regular file gobench wrote is replaced whole and keeps its
// permissions; a symlink stays a symlink and its target is written, even
// a target that does not exist yet.
func TestOutputRegularAndSymlinks(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "out.json")
	if err := os.WriteFile(file, []byte(oldOutput), 0o600); err != nil {
		t.Fatal(err)
	}
	if code, errs := runOut(t, "report", fixture, "--format", "json", "-o", file); code != ExitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	fi, err := os.Stat(file)
	if err != nil || !fi.Mode().IsRegular() || fi.Mode().Perm() != 0o600 || fi.Size() < 100 {
		t.Fatalf("replaced file: %v, %v", fi.Mode(), err)
	}

	target := filepath.Join(dir, "target.json")
	link := filepath.Join(dir, "link.json")
	if err := os.WriteFile(target, []byte(oldOutput), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("target.json", link); err != nil {
		t.Fatal(err)
	}
	dangling := filepath.Join(dir, "dangling.json")
	if err := os.Symlink("new.json", dangling); err != nil {
		t.Fatal(err)
	}
	for _, l := range []string{link, dangling} {
		if code, errs := runOut(t, "report", fixture, "--format", "json", "-o", l); code != ExitOK {
			t.Fatalf("%s: exit %d: %s", l, code, errs)
		}
		if fi, err := os.Lstat(l); err != nil || fi.Mode()&os.ModeSymlink == 0 {
			t.Errorf("%s is no longer a symlink: %v %v", l, fi.Mode(), err)
		}
	}
	for _, f := range []string{target, filepath.Join(dir, "new.json")} {
		if b, err := os.ReadFile(f); err != nil || !bytes.Contains(b, []byte(`"schema_version"`)) {
			t.Errorf("%s was not written through its link: %q %v", f, b, err)
		}
	}
	if l := leftovers(t, dir); len(l) > 0 {
		t.Errorf("left behind: %v", l)
	}
}

// A FIFO is written through: its reader gets the output, and it is still
// a FIFO afterwards (it used to be replaced by a regular file).
func TestOutputFIFO(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pipe")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("cannot make a FIFO here: %v", err)
	}
	// The reader is there before gobench opens the FIFO: the test's own
	// writer meets it (each open waits for the other end), and is closed
	// once gobench is done, so that the reader then sees the end.
	got := make(chan []byte)
	go func() {
		f, err := os.Open(fifo)
		if err != nil {
			got <- nil
			return
		}
		b, _ := io.ReadAll(f)
		f.Close()
		got <- b
	}()
	w, err := os.OpenFile(fifo, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if code, errs := runOut(t, "merge", fixture, "-o", fifo); code != ExitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	w.Close()
	if b := <-got; !bytes.Contains(b, []byte(`"schema_version"`)) {
		t.Errorf("the FIFO's reader got %d bytes", len(b))
	}
	if fi, err := os.Lstat(fifo); err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
		t.Errorf("the FIFO became %v (%v)", fi.Mode(), err)
	}
}

// A directory is refused before anything runs, and nothing is left in or
// beside it.
func TestOutputDirectoryRefused(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	if err := os.Mkdir(out, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"report", fixture, "-o", out},
		{"merge", fixture, "-o", out},
		{"mix", "--driver", "null", "--queries", "10", "--procs", "1", "--mode", "goroutine", "--hlog", out},
		{"mix", "--driver", "null", "--queries", "10", "--procs", "1", "--mode", "goroutine", "--json", out},
		{"disk", "--size", "64k", "--bs", "4k", "--fsync-ops", "1", "--dir", dir, "--json", out},
	} {
		code, errs := runOut(t, args...)
		if code != ExitUsage || !strings.Contains(errs, "is a directory") {
			t.Errorf("%v: exit %d: %s", args, code, errs)
		}
	}
	if l := leftovers(t, dir); len(l) > 0 {
		t.Errorf("left behind: %v", l)
	}
	if ents, _ := os.ReadDir(out); len(ents) > 0 {
		t.Errorf("wrote into the directory: %v", ents)
	}
}
