package workerbuild

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/gobench/gobench/pkg/store"
)

// A build's key changes with each of its module version, definitions,
// Go version and source digest, and not with the name reports give it.
func TestKey(t *testing.T) {
	base := store.WorkerBuild{Module: "github.com/mattn/go-sqlite3", Version: "v1.14.53", Defines: []string{"A"}, Name: "x"}
	key := Key(base, "go1.26.8", "src1")
	for _, tc := range []struct {
		name       string
		b          store.WorkerBuild
		goV, src   string
		wantSameAs bool
	}{
		{"same", base, "go1.26.8", "src1", true},
		{"renamed", store.WorkerBuild{Module: base.Module, Version: base.Version, Defines: base.Defines, Name: "y"}, "go1.26.8", "src1", true},
		{"version", store.WorkerBuild{Module: base.Module, Version: "v1.14.52", Defines: base.Defines}, "go1.26.8", "src1", false},
		{"module", store.WorkerBuild{Module: "example.com/m", Version: base.Version, Defines: base.Defines}, "go1.26.8", "src1", false},
		{"defines", store.WorkerBuild{Module: base.Module, Version: base.Version, Defines: []string{"A", "B"}}, "go1.26.8", "src1", false},
		{"no defines", store.WorkerBuild{Module: base.Module, Version: base.Version}, "go1.26.8", "src1", false},
		{"go version", base, "go1.27.0", "src1", false},
		{"source", base, "go1.26.8", "src2", false},
		// Parts are length-prefixed: moving text across a boundary is
		// another key.
		{"boundary", store.WorkerBuild{Module: base.Module, Version: base.Version + "A"}, "go1.26.8", "src1", false},
	} {
		got := Key(tc.b, tc.goV, tc.src)
		if (got == key) != tc.wantSameAs {
			t.Errorf("%s: key %s, base %s; want same=%v", tc.name, got, key, tc.wantSameAs)
		}
	}
}

// The source digest follows what a build compiles (a Go file, go.mod)
// and nothing else (a test, testdata, a document).
func TestHashSource(t *testing.T) {
	dir := t.TempDir()
	write := func(rel, text string) {
		t.Helper()
		path := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", "module github.com/gobench/gobench\n")
	write("a/a.go", "package a\n")
	hash := func() string {
		t.Helper()
		h, err := HashSource(dir)
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
	h0 := hash()
	for _, tc := range []struct {
		rel, text string
		changes   bool
	}{
		{"a/a_test.go", "package a\n", false},
		{"a/testdata/x.go", "package x\n", false},
		{"README.md", "text\n", false},
		{".git/x.go", "package x\n", false},
		{"a/a.go", "package a // changed\n", true},
		{"a/b.c", "int x;\n", true},
		{"go.mod", "module github.com/gobench/gobench\n\ngo 1.26\n", true},
	} {
		write(tc.rel, tc.text)
		h := hash()
		if (h != h0) != tc.changes {
			t.Errorf("writing %s: digest changed %v, want %v", tc.rel, h != h0, tc.changes)
		}
		h0 = h
	}
	if !isSource(dir) {
		t.Errorf("isSource(%s) = false for gobench's go.mod", dir)
	}
	if isSource(filepath.Join(dir, "a")) {
		t.Errorf("isSource of a directory without go.mod = true")
	}
}

// The last lines of a failed build's output are quoted on one line.
func TestLastLines(t *testing.T) {
	for _, tc := range []struct {
		in   string
		n    int
		want string
	}{
		{"", 3, ""},
		{"a\n\nb\nc\nd\n", 3, "b | c | d"},
		{"one\n", 3, "one"},
	} {
		if got := LastLines(tc.in, tc.n); got != tc.want {
			t.Errorf("LastLines(%q, %d) = %q, want %q", tc.in, tc.n, got, tc.want)
		}
	}
}
