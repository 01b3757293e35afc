package main

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

// releaseWriter keeps what is written and, once a line says the build is
// still running, lets the fake compiler finish (by creating release).
type releaseWriter struct {
	mu      sync.Mutex
	b       strings.Builder
	release string
}

func (w *releaseWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.b.Write(p)
	if strings.Contains(w.b.String(), "still building") {
		if err := os.WriteFile(w.release, nil, 0o644); err != nil {
			return 0, err
		}
	}
	return len(p), nil
}

// The build is said before it starts and again while it runs (the fake
// compiler ends only once a "still building" line was printed, so the
// test waits on the line, not on a clock), and the built gobench's exit
// status is the command's.
func TestRunSaysItIsBuilding(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the fake go is a shell script")
	}
	dir := t.TempDir()
	root := filepath.Join(dir, "module")
	if err := os.MkdirAll(root, 0o755); err != nil {
		t.Fatal(err)
	}
	fake := `#!/bin/sh
case "$1" in
env) echo "` + root + `/go.mod" ;;
build)
	while [ ! -e "` + dir + `/release" ]; do sleep 0.01; done
	mkdir -p "$(dirname "$3")"
	printf '#!/bin/sh\necho "ran with $*"\nexit 3\n' > "$3"
	chmod +x "$3" ;;
*) exit 9 ;;
esac
`
	bindir := filepath.Join(dir, "path")
	if err := os.MkdirAll(bindir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(bindir, "go"), []byte(fake), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bindir+string(os.PathListSeparator)+os.Getenv("PATH"))
	w := &releaseWriter{release: filepath.Join(dir, "release")}
	code := run([]string{"mix", "--procs", "2"}, w, time.Millisecond)
	out := w.b.String()
	if code != 3 {
		t.Errorf("exit %d, want the built binary's 3\n%s", code, out)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if lines[0] != buildNote {
		t.Errorf("first line %q, want the build note before the build", lines[0])
	}
	if !strings.Contains(out, "still building") || !strings.Contains(out, "; running bin/gobench") {
		t.Errorf("output:\n%s\nwant a line while building and one as the run begins", out)
	}
	if _, err := os.Stat(filepath.Join(root, "bin", "gobench")); err != nil {
		t.Errorf("bin/gobench not built in the module's root: %v", err)
	}
}

// Outside a module it says so, and runs nothing.
func TestRunOutsideAModule(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the fake go is a shell script")
	}
	bindir := t.TempDir()
	if err := os.WriteFile(filepath.Join(bindir, "go"), []byte("#!/bin/sh\necho /dev/null\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bindir+string(os.PathListSeparator)+os.Getenv("PATH"))
	var b strings.Builder
	if code := run(nil, &b, time.Hour); code != 1 || !strings.Contains(b.String(), "not inside a Go module") {
		t.Errorf("exit %d, %q", code, b.String())
	}
}
