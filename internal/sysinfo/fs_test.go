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

func TestMaxRSS(t *testing.T) {
	if got := MaxRSS(); got < 1<<20 {
		t.Fatalf("MaxRSS = %d bytes: a Go test binary holds more than 1 MiB", got)
	}
}
