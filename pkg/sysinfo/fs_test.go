package sysinfo

import (
	"os"
	"syscall"
	"testing"
)

func TestFilesystem(t *testing.T) {
	t.Parallel()
	if got := Filesystem(t.TempDir()); got == "" {
		t.Fatal("empty filesystem name")
	}
	if got := Filesystem("/nonexistent/path/for/sure"); got != "unknown" {
		t.Fatalf("Filesystem of a missing path = %q, want unknown", got)
	}
}

func TestMaxRSS(t *testing.T) {
	t.Parallel()
	if got := MaxRSS(); got < 1<<20 {
		t.Fatalf("MaxRSS = %d bytes: a Go test binary holds more than 1 MiB", got)
	}
}

// DiskUsage agrees with stat: a sparse file is allocated less than its
// length, a SQLite companion file counts, a directory counts every file.
func TestDiskUsage(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	db := dir + "/x.db"
	if err := os.WriteFile(db, make([]byte, 10000), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(db+"-wal", make([]byte, 5000), 0o644); err != nil {
		t.Fatal(err)
	}
	sparse, err := os.Create(dir + "/sparse")
	if err != nil {
		t.Fatal(err)
	}
	if err := sparse.Truncate(1 << 20); err != nil {
		t.Fatal(err)
	}
	sparse.Close()

	app, alloc, err := DiskUsage(db)
	if err != nil || app != 15000 {
		t.Fatalf("DiskUsage(db) = %d, %d, %v; want 15000 apparent bytes", app, alloc, err)
	}
	var st syscall.Stat_t
	var want int64
	for _, p := range []string{db, db + "-wal"} {
		if err := syscall.Stat(p, &st); err != nil {
			t.Fatal(err)
		}
		want += st.Blocks * 512
	}
	if alloc != want {
		t.Errorf("allocated %d, stat says %d", alloc, want)
	}
	// A directory counts its own entries' blocks too, as du does.
	dfi, err := os.Stat(dir)
	if err != nil {
		t.Fatal(err)
	}
	app, alloc, err = DiskUsage(dir)
	if err != nil || app != 15000+1<<20+dfi.Size() {
		t.Fatalf("DiskUsage(dir) = %d, %d, %v; want %d apparent bytes", app, alloc, err, 15000+1<<20+dfi.Size())
	}
	if err := syscall.Stat(dir, &st); err != nil {
		t.Fatal(err)
	}
	if alloc < want+st.Blocks*512 {
		t.Errorf("allocated %d: less than the files and the directory itself (%d)", alloc, want+st.Blocks*512)
	}
	if alloc >= app {
		t.Errorf("a sparse megabyte counted as allocated: %d of %d", alloc, app)
	}
	if _, _, err := DiskUsage(dir + "/missing"); !os.IsNotExist(err) {
		t.Errorf("missing path: %v", err)
	}
}
