package preload

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"testing"

	"github.com/gobench/gobench/pkg/capture"
)

func needCC(t *testing.T) {
	t.Helper()
	if runtime.GOOS != "linux" {
		t.Skip("the capture library needs Linux")
	}
	if _, err := exec.LookPath("cc"); err != nil {
		t.Skip("no C compiler (cc): the capture library cannot be built")
	}
}

// TestLibrary: the library builds from the embedded source into the cache
// once, under the hash of its source.
func TestLibrary(t *testing.T) {
	needCC(t)
	cache := t.TempDir()
	path, err := Library(context.Background(), cache, "")
	if err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(path)
	if err != nil || fi.Size() == 0 {
		t.Fatalf("the library: %v", err)
	}
	again, err := Library(context.Background(), cache, "/nonexistent/cc") // no build: the cached one
	if err != nil || again != path {
		t.Errorf("second call: %s, %v; want %s from the cache", again, err, path)
	}
	if _, err := Library(context.Background(), t.TempDir(), "/nonexistent/cc"); err == nil {
		t.Error("a build with a compiler that does not exist succeeded")
	}
}

// TestEnvironment: the library goes first in LD_PRELOAD, what was preloaded
// stays, and the capture's directory replaces any other.
func TestEnvironment(t *testing.T) {
	got := environment([]string{"A=1", "LD_PRELOAD=/x.so", capture.EnvDir + "=/old"}, "/lib.so", "/dir")
	want := []string{"A=1", "LD_PRELOAD=/lib.so:/x.so", capture.EnvDir + "=/dir"}
	if !slices.Equal(got, want) {
		t.Errorf("environment %v, want %v", got, want)
	}
}

// TestRun: the program's output and exit status pass through, a signal
// that killed it too, and a program that does not start is an error.
func TestRun(t *testing.T) {
	needCC(t)
	lib, err := Library(context.Background(), t.TempDir(), "")
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	c, err := Run(context.Background(), Options{Command: "sh", Args: []string{"-c", `echo "$` + capture.EnvDir + `" ; exit 7`}, Library: lib, TempDir: t.TempDir(), Stdout: &out})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if c.ExitCode != 7 || c.Signal != "" {
		t.Errorf("exit %d signal %q", c.ExitCode, c.Signal)
	}
	if dir := string(bytes.TrimSpace(out.Bytes())); dir != c.dir {
		t.Errorf("the program saw the capture's directory as %q, want %q", dir, c.dir)
	}
	k, err := Run(context.Background(), Options{Command: "sh", Args: []string{"-c", "kill -TERM $$"}, Library: lib, TempDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer k.Close()
	if k.ExitCode != 143 || k.Signal != "terminated" {
		t.Errorf("killed: exit %d signal %q, want 143 terminated", k.ExitCode, k.Signal)
	}
	if _, err := Run(context.Background(), Options{Command: "/nonexistent/program", Library: lib, TempDir: t.TempDir()}); err == nil {
		t.Error("a program that does not exist ran")
	}
}
