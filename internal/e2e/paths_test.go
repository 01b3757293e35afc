package e2e

import (
	"bytes"
	"database/sql"
	"errors"
	"io"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"
)

// hangDetector is how long a command of these tests may take before it is
// reported as hung and killed: a detector of hangs (gobench waited
// forever on a FIFO), never a measure of speed.
const hangDetector = 60 * time.Second

// resultFixture is a recorded result, read only.
var resultFixture = filepath.Join("..", "..", "testdata", "mix-wal.json")

// gobenchBinary returns this test binary under the name gobench in a directory
// of the test's own, which testscript.Main dispatches to the CLI.
func gobenchBinary(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "gobench")
	if err := os.Link(os.Args[0], bin); err != nil {
		b, err := os.ReadFile(os.Args[0])
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(bin, b, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return bin
}

// procResult is one gobench process: its exit code, stdout, stderr, and its
// resource usage.
type procResult struct {
	code           int
	stdout, stderr string
	usage          *syscall.Rusage
}

// runGobench runs the real binary in dir with TMPDIR set to tmp (and env's
// extra variables), failing the test as hung after hangDetector.
func runGobench(t *testing.T, bin, dir, tmp string, env []string, args ...string) procResult {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), "TMPDIR="+tmp), env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var err error
	select {
	case err = <-done:
	case <-time.After(hangDetector):
		cmd.Process.Kill()
		<-done
		t.Fatalf("gobench %s hung: killed after %v; stderr:\n%s", strings.Join(args, " "), hangDetector, stderr.String())
	}
	r := procResult{code: exitCodeOf(err), stdout: stdout.String(), stderr: stderr.String()}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		r.usage = ru
	}
	return r
}

// assertBadInput asserts exit 2 with one line on stderr containing want.
func assertBadInput(t *testing.T, r procResult, want string) {
	t.Helper()
	if r.code != 2 || strings.Count(r.stderr, "\n") != 1 || !strings.Contains(r.stderr, want) {
		t.Errorf("exit %d, stderr %q: want exit 2 and one line containing %q", r.code, r.stderr, want)
	}
	if r.stdout != "" {
		t.Errorf("stdout on bad input: %q", r.stdout)
	}
}

// makeFIFO makes a FIFO in the test's directory.
func makeFIFO(t *testing.T, path string) {
	t.Helper()
	if err := syscall.Mkfifo(path, 0o644); err != nil {
		t.Skipf("cannot make a FIFO here: %v", err)
	}
}

// proveNoReader proves that nothing reads the FIFO: an open for writing that
// does not wait fails with ENXIO, so the blocking open gobench used to do
// would have waited for ever.
func proveNoReader(t *testing.T, fifo string) {
	t.Helper()
	f, err := os.OpenFile(fifo, os.O_WRONLY|syscall.O_NONBLOCK, 0)
	if err == nil {
		f.Close()
		t.Fatalf("%s has a reader", fifo)
	}
	if !errors.Is(err, syscall.ENXIO) {
		t.Fatalf("%s: %v, want ENXIO (no reader)", fifo, err)
	}
}

// proveNoWriter proves that nothing writes to the FIFO: a reader opened
// without waiting reads the end at once, so the blocking open gobench
// used to do would have waited for ever.
func proveNoWriter(t *testing.T, fifo string) {
	t.Helper()
	f, err := os.OpenFile(fifo, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if n, err := f.Read(make([]byte, 1)); n != 0 || err != io.EOF {
		t.Fatalf("%s: read %d bytes (%v): it has a writer", fifo, n, err)
	}
}

// assertFIFO asserts that path is still a FIFO.
func assertFIFO(t *testing.T, path string) {
	t.Helper()
	if fi, err := os.Lstat(path); err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
		t.Errorf("%s is no longer a FIFO: %v", path, err)
	}
}

// assertNothingIn asserts that dir holds nothing (no temporary directory or
// file left behind).
func assertNothingIn(t *testing.T, dir string) {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		t.Errorf("left behind in %s: %s", dir, e.Name())
	}
}

// A FIFO with nothing at its other end, given on any of the paths that
// used to wait for a peer for ever (only SIGKILL ended them), is refused
// at once: exit 2, one line, no temporary directory left, the FIFO still
// a FIFO.
func TestFIFOWithNoPeer(t *testing.T) {
	bin := gobenchBinary(t)
	fixture, err := filepath.Abs(resultFixture)
	if err != nil {
		t.Fatal(err)
	}
	null := []string{"--driver", "null", "--mode", "goroutine", "--queries", "10", "--procs", "1", "-q"}
	for _, tt := range []struct {
		name   string
		args   []string
		output bool // the FIFO is written (else read)
	}{
		{"report -o", []string{"report", fixture, "-o", "fifo"}, true},
		{"merge -o", []string{"merge", fixture, "-o", "fifo"}, true},
		{"mix --json", append([]string{"mix", "--json", "fifo"}, null...), true},
		{"mix --summary", append([]string{"mix", "--summary", "fifo"}, null...), true},
		{"disk --json", []string{"disk", "--size", "64k", "--bs", "4k", "--fsync-ops", "1", "--dir", "d", "--json", "fifo"}, true},
		{"report FIFO", []string{"report", "fifo"}, false},
		{"--db FIFO --reuse", []string{"mix", "--db", "fifo", "--reuse", "--queries", "10", "-q"}, false},
		{"sql --file", []string{"sql", "--file", "fifo", "-q"}, false},
		{"sql --schema", []string{"sql", "--schema", "fifo", "--file", "q.sql", "-q"}, false},
		{"sql --from", []string{"sql", "--from", "fifo", "--file", "q.sql", "-q"}, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir, tmp := t.TempDir(), t.TempDir()
			fifo := filepath.Join(dir, "fifo")
			makeFIFO(t, fifo)
			if err := os.Mkdir(filepath.Join(dir, "d"), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, "q.sql"), []byte("SELECT 1;\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			if tt.output {
				proveNoReader(t, fifo)
			} else {
				proveNoWriter(t, fifo)
			}
			r := runGobench(t, bin, dir, tmp, nil, tt.args...)
			assertBadInput(t, r, "FIFO")
			assertFIFO(t, fifo)
			assertNothingIn(t, tmp)
			assertNothingIn(t, filepath.Join(dir, "d"))
		})
	}
}

// A FIFO whose writer is there is read as a file is: report renders what
// comes through it.
func TestFIFOInputWithWriter(t *testing.T) {
	bin := gobenchBinary(t)
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	makeFIFO(t, fifo)
	data, err := os.ReadFile(resultFixture)
	if err != nil {
		t.Fatal(err)
	}
	// A reader of the test's own lets the writer open without waiting;
	// it reads nothing, so gobench gets every byte.
	keep, err := os.OpenFile(fifo, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer keep.Close()
	w, err := os.OpenFile(fifo, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		w.Write(data)
		w.Close()
	}()
	r := runGobench(t, bin, dir, t.TempDir(), nil, "report", "fifo")
	if r.code != 0 || !strings.HasPrefix(r.stdout, "gobench mix") {
		t.Errorf("exit %d, stdout %.80q, stderr %s", r.code, r.stdout, r.stderr)
	}
}

// makeForeignSQLite makes a database of another program at path, with one table
// and a row, through another SQLite than the one under test.
func makeForeignSQLite(t *testing.T, path string) {
	t.Helper()
	db, err := sql.Open("sqlite", (&url.URL{Scheme: "file", Opaque: (&url.URL{Path: path}).EscapedPath()}).String())
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, q := range []string{"PRAGMA application_id=305419896", "CREATE TABLE notes(x)", "INSERT INTO notes VALUES('keep me')"} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
}

// assertSameBytes asserts that path holds what it held before.
func assertSameBytes(t *testing.T, path string, before []byte) {
	t.Helper()
	after, err := os.ReadFile(path)
	if err != nil || !bytes.Equal(before, after) {
		t.Errorf("%s changed (%d → %d bytes, %v)", path, len(before), len(after), err)
	}
}

// Outputs never replace a file gobench did not write, unless --force,
// and no file is given to two flags: each refusal is exit 2, one line,
// with every file as it was.
func TestOutputsAreGobenchsOwn(t *testing.T) {
	bin := gobenchBinary(t)
	fixture, err := filepath.Abs(resultFixture)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	makeForeignSQLite(t, filepath.Join(dir, "app.db"))
	files := map[string]string{
		"package.json": `{"name": "my-app", "version": "1.0.0"}`,
		"notes.txt":    "my notes\n",
		"index.html":   "<!doctype html><title>mine</title>",
		"old.json":     `{"schema_version": 1, "kind": "suite"}`,
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	before := map[string][]byte{}
	for _, name := range []string{"app.db", "package.json", "notes.txt", "index.html"} {
		before[name], _ = os.ReadFile(filepath.Join(dir, name))
	}
	null := []string{"mix", "--driver", "null", "--mode", "goroutine", "--queries", "10", "--procs", "1", "-q"}
	for _, tt := range []struct {
		args []string
		want string
	}{
		{append(null, "--json", "app.db"), "--json app.db holds a SQLite database"},
		{append(null, "--html", "index.html"), "--html index.html holds a file gobench did not write"},
		{append(null, "--summary", "app.db"), "--summary app.db holds a SQLite database"},
		{[]string{"report", fixture, "-o", "package.json"}, "--output package.json holds a file gobench did not write"},
		{[]string{"merge", fixture, "-o", "notes.txt"}, "--output notes.txt holds a file gobench did not write"},
		{[]string{"disk", "--size", "64k", "--bs", "4k", "--fsync-ops", "1", "--dir", ".", "--json", "app.db"}, "--json app.db holds a SQLite database"},
		{[]string{"mix", "--db", "new.db", "--json", "new.db", "--queries", "10", "-q"}, "--db and --json both name"},
		{append(null, "--json", "r.json", "--html", "r.json"), "--json and --html both name"},
		{[]string{"report", "old.json", "-o", "old.json"}, "the input and --output both name"},
	} {
		r := runGobench(t, bin, dir, t.TempDir(), nil, tt.args...)
		assertBadInput(t, r, tt.want)
	}
	for name, b := range before {
		assertSameBytes(t, filepath.Join(dir, name), b)
	}
	for _, name := range []string{"new.db", "r.json"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err == nil {
			t.Errorf("%s was created by a refused run", name)
		}
	}
	// A file gobench wrote is replaced; --force replaces another's (each
	// in the format its extension names).
	for _, tt := range []struct {
		args []string
		head string
	}{
		{[]string{"report", fixture, "-o", "old.json"}, "{"},
		{[]string{"report", fixture, "-o", "notes.txt", "--force"}, "gobench mix"},
	} {
		if r := runGobench(t, bin, dir, t.TempDir(), nil, tt.args...); r.code != 0 {
			t.Errorf("%v: exit %d: %s", tt.args, r.code, r.stderr)
		}
		if b, _ := os.ReadFile(filepath.Join(dir, tt.args[3])); !bytes.HasPrefix(b, []byte(tt.head)) {
			t.Errorf("%v: %s holds %.40q", tt.args, tt.args[3], b)
		}
	}
}

// Bad paths exit 2 with one line, whatever the path: a file that is not
// SQLite for --reuse or --from, a symlink loop, a name longer than the
// file system allows, an unusable TMPDIR. Nothing is left in TMPDIR and
// the files given are unchanged.
func TestBadPathsExitTwo(t *testing.T) {
	bin := gobenchBinary(t)
	dir := t.TempDir()
	notes := filepath.Join(dir, "notes.txt")
	if err := os.WriteFile(notes, []byte("hello, not a database\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "q.sql"), []byte("SELECT 1;\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("loop-b", filepath.Join(dir, "loop-a")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("loop-a", filepath.Join(dir, "loop-b")); err != nil {
		t.Fatal(err)
	}
	long := strings.Repeat("a", 300) + ".db"
	for _, tt := range []struct {
		env  []string
		args []string
		want string
	}{
		{nil, []string{"mix", "--db", "notes.txt", "--reuse", "--queries", "10", "--procs", "1", "-q"}, "is not a SQLite database"},
		{nil, []string{"sql", "--from", "notes.txt", "--file", "q.sql", "--queries", "5", "--procs", "1", "-q"}, "is not a SQLite database"},
		{nil, []string{"mix", "--db", "loop-a", "--queries", "10", "-q"}, "too many levels of symbolic links"},
		{nil, []string{"mix", "--json", "loop-a", "--driver", "null", "--mode", "goroutine", "-q"}, "too many levels of symbolic links"},
		{nil, []string{"mix", "--db", long, "--queries", "10", "-q"}, "file name too long"},
		{nil, []string{"report", absFixture(t), "-o", long}, "file name too long"},
		{[]string{"TMPDIR=" + filepath.Join(dir, "missing")}, []string{"mix", "--queries", "10", "-q"}, "TMPDIR: directory " + filepath.Join(dir, "missing") + " does not exist"},
		{[]string{"TMPDIR=" + notes}, []string{"disk", "--size", "64k", "--bs", "4k", "-q"}, "TMPDIR: " + notes + " is not a directory"},
		{nil, []string{"completion", "bash", "extra"}, `unknown command "extra" for "gobench completion bash"`},
		{nil, []string{"disk", "--size", "4k", "--bs", "1G", "--dir", "."}, "block size 1073741824 is larger than the size 4096"},
	} {
		tmp := t.TempDir()
		r := runGobench(t, bin, dir, tmp, tt.env, tt.args...)
		assertBadInput(t, r, tt.want)
		assertNothingIn(t, tmp)
	}
	assertSameBytes(t, notes, []byte("hello, not a database\n"))
	if _, err := os.Stat(notes + "-journal"); err == nil {
		t.Error("a -journal was left beside the refused file")
	}
}

// absFixture is resultFixture, absolute.
func absFixture(t *testing.T) string {
	t.Helper()
	p, err := filepath.Abs(resultFixture)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// A file larger than any result is refused from its size, unread: a 1
// GiB file that opens as JSON took 1 GB of memory to refuse (512 MiB read
// first). The file is sparse, so it costs no disk.
func TestHugeResultRefusedUnread(t *testing.T) {
	bin := gobenchBinary(t)
	dir := t.TempDir()
	big := filepath.Join(dir, "big.json")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString("{\"schema_version\": 1, "); err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(1 << 30); err != nil {
		t.Fatal(err)
	}
	f.Close()
	for _, args := range [][]string{{"report", "big.json"}, {"merge", "big.json"}, {"compare", "big.json", "big.json"}, {"run", "big.json"}} {
		r := runGobench(t, bin, dir, t.TempDir(), nil, args...)
		assertBadInput(t, r, "larger than 512 MiB")
		if r.usage == nil {
			t.Skip("no resource usage on this OS")
		}
		rss := r.usage.Maxrss // KiB on Linux, bytes on macOS
		if runtime.GOOS == "darwin" {
			rss >>= 10
		}
		if rss > 256<<10 {
			t.Errorf("%v: peak RSS %d KiB refusing a file it need not read", args, rss)
		}
		t.Logf("%v: peak RSS %d KiB", args, rss)
	}
}

// exitCodeOf returns a finished command's exit code (-1: it did not
// exit, it was killed by a signal).
func exitCodeOf(err error) int {
	var ee *exec.ExitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &ee):
		return ee.ExitCode()
	}
	return -1
}
