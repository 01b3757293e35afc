package disk

import (
	"os"
	"path/filepath"
	"testing"
	"unsafe"

	"golang.org/x/sys/unix"
)

// resident counts the pages of a file in the page cache (mincore).
func resident(t *testing.T, name string) int {
	t.Helper()
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	fi, _ := f.Stat()
	m, err := unix.Mmap(int(f.Fd()), 0, int(fi.Size()), unix.PROT_READ, unix.MAP_SHARED)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Munmap(m)
	vec := make([]byte, (len(m)+os.Getpagesize()-1)/os.Getpagesize())
	if _, _, errno := unix.Syscall(unix.SYS_MINCORE, uintptr(unsafe.Pointer(&m[0])), uintptr(len(m)), uintptr(unsafe.Pointer(&vec[0]))); errno != 0 {
		t.Fatal(errno)
	}
	n := 0
	for _, v := range vec {
		n += int(v & 1)
	}
	return n
}

// DropCache evicts a database file with its companions, and every file
// of a directory tree, dirty pages included.
func TestDropCache(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	data := alignedBuffer(256 << 10)
	db := filepath.Join(dir, "x.db")
	tree := filepath.Join(dir, "tree", "00", "01")
	if err := os.MkdirAll(tree, 0o755); err != nil {
		t.Fatal(err)
	}
	files := []string{db, db + "-wal", filepath.Join(tree, "7"), filepath.Join(dir, "tree", "8")}
	for _, f := range files {
		if err := os.WriteFile(f, data, 0o644); err != nil { // dirty, in the cache
			t.Fatal(err)
		}
	}
	if n := resident(t, db); n == 0 {
		t.Skip("this file system keeps no page cache to drop")
	}
	if err := DropCache(db); err != nil {
		t.Fatal(err)
	}
	if err := DropCache(filepath.Join(dir, "tree")); err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if n := resident(t, f); n != 0 {
			t.Errorf("%s: %d pages still cached", f, n)
		}
	}
	if err := DropCache(filepath.Join(dir, "missing")); !os.IsNotExist(err) {
		t.Errorf("a missing path: %v", err)
	}
}
