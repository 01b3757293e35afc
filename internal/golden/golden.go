// Package golden compares test output with golden files in testdata/.
// Run a package's tests with -update to rewrite its golden files; on a
// mismatch the output is written beside the golden file as NAME.got-*
// (gitignored) for a diff.
package golden

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// Check compares got with testdata/name.
func Check(t testing.TB, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		gotPath := path + ".got-" + filepath.Ext(name)[1:]
		_ = os.WriteFile(gotPath, got, 0o644)
		t.Errorf("%s differs from the golden file; got written to %s\n--- want\n%s\n--- got\n%s", name, gotPath, want, got)
	}
}
