package workerbuild

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gobench/gobench/pkg/store"
)

// writeTree writes a module of gobench's path whose ./cmd/gobench's main
// is as given, requiring example.com/cdep, a cgo package replaced by a
// directory of the tree.
func writeTree(t *testing.T, main string) string {
	t.Helper()
	dir := t.TempDir()
	for rel, text := range map[string]string{
		"go.mod":              "module github.com/gobench/gobench\n\ngo 1.22\n\nrequire example.com/cdep v0.0.0\n\nreplace example.com/cdep => ./cdep\n",
		"go.sum":              "",
		"cmd/gobench/main.go": main,
		"cdep/go.mod":         "module example.com/cdep\n\ngo 1.22\n",
		"cdep/cdep.go":        cdep,
	} {
		path := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// cdep returns GB_DEFINE as its C code was compiled, -1 without it.
const cdep = `package cdep

/*
#ifdef GB_DEFINE
static int gb_define(void) { return GB_DEFINE; }
#else
static int gb_define(void) { return -1; }
#endif
*/
import "C"

// Define returns GB_DEFINE.
func Define() int { return int(C.gb_define()) }
`

// cgoMain prints what cdep's C code was compiled with.
const cgoMain = `package main

import (
	"fmt"

	"example.com/cdep"
)

func main() { fmt.Println(cdep.Define()) }
`

// A build compiles the source tree with the definitions in CGO_CFLAGS,
// says so before it starts, and a second Build of the same finds it in
// the cache and says nothing.
func TestBuildDefinesAndCache(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a cgo program")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	src, cache := writeTree(t, cgoMain), t.TempDir()
	b := store.WorkerBuild{Module: "example.com/cdep", Defines: []string{"GB_DEFINE=-42"}, Name: "test build"}
	var notes bytes.Buffer
	exe, err := Build(context.Background(), b, Options{Source: src, CacheDir: cache, Notes: &notes})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(notes.String(), "building test build (the first build takes about") {
		t.Errorf("notes %q say nothing of the build", notes.String())
	}
	out, err := exec.Command(exe).Output()
	if err != nil || strings.TrimSpace(string(out)) != "-42" {
		t.Fatalf("the build prints %q, %v; want -42 (GB_DEFINE=-42 compiled in)", out, err)
	}
	notes.Reset()
	again, err := Build(context.Background(), b, Options{Source: src, CacheDir: cache, Notes: &notes})
	if err != nil || again != exe || notes.Len() != 0 {
		t.Errorf("second Build = %s, %v, notes %q; want the cached %s and no note", again, err, notes.String(), exe)
	}
	b.Defines = nil
	other, err := Build(context.Background(), b, Options{Source: src, CacheDir: cache})
	if err != nil || other == exe {
		t.Fatalf("a build without the definition = %s, %v; want another executable", other, err)
	}
	if out, err := exec.Command(other).Output(); err != nil || strings.TrimSpace(string(out)) != "-1" {
		t.Errorf("the build without the definition prints %q, %v; want -1", out, err)
	}
}

// A build that fails says why on one line: the compiler's last lines;
// nothing is left in the cache.
func TestBuildFails(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	src, cache := writeTree(t, "package main\n\nimport _ \"example.com/cdep\"\n\nfunc main() { undefinedThing() }\n"), t.TempDir()
	_, err := Build(context.Background(), store.WorkerBuild{Name: "broken"}, Options{Source: src, CacheDir: cache})
	if !errors.Is(err, ErrBuild) || !strings.Contains(err.Error(), "undefinedThing") || strings.Contains(err.Error(), "\n") {
		t.Fatalf("Build of broken source: %v; want ErrBuild quoting the compiler on one line", err)
	}
	entries, _ := os.ReadDir(cache)
	for _, e := range entries {
		if e.IsDir() {
			t.Errorf("a failed build left %s in the cache", e.Name())
		}
	}
}
