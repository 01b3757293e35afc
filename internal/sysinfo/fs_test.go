package sysinfo

import "testing"

func TestFilesystem(t *testing.T) {
	if got := Filesystem(t.TempDir()); got == "" {
		t.Fatal("empty filesystem name")
	}
	if got := Filesystem("/nonexistent/path/for/sure"); got != "unknown" {
		t.Fatalf("Filesystem of a missing path = %q, want unknown", got)
	}
}
