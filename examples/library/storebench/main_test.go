package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/gobench/gobench/pkg/result"
)

// The program runs once, small, and writes a result gobench reads back:
// every op dealt, none failed.
func TestRun(t *testing.T) {
	out := filepath.Join(t.TempDir(), "run.json")
	if err := run([]string{"-ops", "200", "-goroutines", "2", "-json", out}); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, err := result.Read(f)
	if err != nil {
		t.Fatal(err)
	}
	if r.Plan.Driver != "mapstore" {
		t.Errorf("driver %q, want mapstore", r.Plan.Driver)
	}
	total := r.Phases[0].Total
	if total.Count != 400 || total.Errors.Total != 0 {
		t.Errorf("%d ops, %d failed; want 400 ops, none failed", total.Count, total.Errors.Total)
	}
}
