package storetest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// RequiresModule fails t unless the module's go.mod requires module at
// version: an engine that names the version of the library it carries
// (results say "bbolt v1.5.0") keeps the name true when go.mod moves.
func RequiresModule(t *testing.T, module, version string) {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		b, err := os.ReadFile(filepath.Join(dir, "go.mod"))
		if err == nil {
			for line := range strings.SplitSeq(string(b), "\n") {
				if f := strings.Fields(line); len(f) >= 2 && f[0] == module || len(f) >= 3 && f[0] == "require" && f[1] == module {
					if !strings.Contains(line, " "+version) {
						t.Errorf("go.mod requires %q; the engine names %s %s", strings.TrimSpace(line), module, version)
					}
					return
				}
			}
			t.Fatalf("go.mod does not require %s", module)
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod above the test's directory")
		}
		dir = parent
	}
}
