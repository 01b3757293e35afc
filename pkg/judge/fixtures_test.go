package judge

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/gobench/gobench/pkg/result"
)

// openFixture opens a file recorded on a real run, shared with other
// packages' tests in the repository's testdata/.
func openFixture(t *testing.T, name string) *os.File {
	t.Helper()
	f, err := os.Open(filepath.Join("..", "..", "testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

// loadSuiteFixture reads a recorded suite.
func loadSuiteFixture(t *testing.T, name string) *result.Suite {
	t.Helper()
	s, err := result.ReadSuite(openFixture(t, name))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// loadCapacityFixture reads the recorded capacity search.
func loadCapacityFixture(t *testing.T) *result.Capacity {
	t.Helper()
	c, err := result.ReadCapacity(openFixture(t, "capacity.json"))
	if err != nil {
		t.Fatal(err)
	}
	return c
}
