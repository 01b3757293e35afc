// Package golden compares test output with golden files in testdata/.
// Run a package's tests with -update to rewrite its golden files; on a
// mismatch the output is written beside the golden file as NAME.got-*
// (gitignored) for a diff.
package golden

import (
	"bytes"
	"flag"
	"fmt"
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
		t.Errorf("%s differs from the golden file (got written to %s; diff them, or rerun with -update):\n%s", name, gotPath, firstDiff(want, got))
	}
}

// firstDiff shows the first line where want and got differ.
func firstDiff(want, got []byte) string {
	wl, gl := bytes.Split(want, []byte("\n")), bytes.Split(got, []byte("\n"))
	for i := 0; i < len(wl) || i < len(gl); i++ {
		var w, g []byte
		if i < len(wl) {
			w = wl[i]
		}
		if i < len(gl) {
			g = gl[i]
		}
		if !bytes.Equal(w, g) {
			return fmt.Sprintf("line %d:\n  want: %s\n  got:  %s", i+1, w, g)
		}
	}
	return "(only line endings differ)"
}
