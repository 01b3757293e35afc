package disk

import (
	"errors"
	"fmt"
	"os"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

const oDSYNC = unix.O_DSYNC

// canDropCache says whether posix_fadvise can evict pages here.
const canDropCache = true

func unsafePointer(b []byte) unsafe.Pointer { return unsafe.Pointer(&b[0]) }

// openFile opens path, with O_DIRECT when direct; a file system that
// refuses it (tmpfs does) is reported as ErrDirect.
func openFile(path string, flags int, direct bool) (*os.File, error) {
	if direct {
		flags |= unix.O_DIRECT
	}
	f, err := os.OpenFile(path, flags, 0o644)
	if err != nil && direct && errors.Is(err, syscall.EINVAL) {
		return nil, fmt.Errorf("%w: the file system of %s refuses O_DIRECT (tmpfs does): drop --direct", ErrDirect, path)
	}
	return f, err
}

func fdatasync(f *os.File) error { return unix.Fdatasync(int(f.Fd())) }

// dropCache evicts the file's clean pages from the page cache.
func dropCache(f *os.File) error {
	return unix.Fadvise(int(f.Fd()), 0, 0, unix.FADV_DONTNEED)
}

// flush writes back every dirty page of the file system holding path: one
// syncfs rather than an fsync per file (a files store has thousands).
func flush(path string, _ []string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	return unix.Syncfs(int(f.Fd()))
}
