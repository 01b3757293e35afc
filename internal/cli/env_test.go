package cli

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// An output is replaced only when the new one is whole: a writer that
// fails half-way leaves the old file as it was and no temporary file.
func TestWriteOutput(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	p := filepath.Join(dir, "result.json")
	if err := os.WriteFile(p, []byte("the old result"), 0o644); err != nil {
		t.Fatal(err)
	}
	boom := errors.New("disk went away")
	err := osFS{}.WriteOutput(p, func(w io.Writer) error {
		if _, err := io.WriteString(w, `{"half": `); err != nil {
			return err
		}
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("WriteOutput = %v, want the writer's error", err)
	}
	if b, _ := os.ReadFile(p); string(b) != "the old result" {
		t.Fatalf("the old file became %q", b)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Fatalf("%d entries left, want only the result", len(entries))
	}
	if err := (osFS{}).WriteOutput(p, func(w io.Writer) error { _, err := io.WriteString(w, "the new result"); return err }); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(p); string(b) != "the new result" {
		t.Fatalf("the file is %q after a good write", b)
	}
}

// A --db or --json in a directory gobench cannot write to is refused
// before anything runs.
func TestUnwritableDirectory(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root writes through directory permissions")
	}
	dir := t.TempDir()
	ro := filepath.Join(dir, "ro")
	if err := os.Mkdir(ro, 0o555); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"mix", "--db", filepath.Join(ro, "x.db"), "--driver", "null", "--mode", "goroutine"},
		{"mix", "--json", filepath.Join(ro, "r.json"), "--driver", "null", "--mode", "goroutine"},
	} {
		env, _, stderr := testEnv(t)
		if code := Main(args, env); code != ExitUsage {
			t.Errorf("%v: exit %d, stderr %s", args, code, stderr)
		}
	}
}

// A process's descriptors are told from other paths by where they are:
// their links name pipes and terminals, not files to replace.
func TestIsDescriptor(t *testing.T) {
	for path, want := range map[string]bool{
		"/proc/self/fd/1":  true,
		"/proc/1234/fd/2":  true,
		"/dev/fd/1":        true,
		"/dev/stdout":      false, // a link to /proc/self/fd/1, followed first
		"/proc/self/fd":    false,
		"/home/u/fd/1":     false,
		"/proc/self/fdx/1": false,
		"out.json":         false,
	} {
		if got := isDescriptor(path); got != want {
			t.Errorf("isDescriptor(%q) = %v, want %v", path, got, want)
		}
	}
}
