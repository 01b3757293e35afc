//go:build !linux

package disk

import (
	"errors"
	"fmt"
	"os"
	"syscall"
	"unsafe"
)

const oDSYNC = syscall.O_DSYNC

// canDropCache says whether posix_fadvise can evict pages here.
const canDropCache = false

func unsafePointer(b []byte) unsafe.Pointer { return unsafe.Pointer(&b[0]) }

// openFile opens path; O_DIRECT exists on Linux only.
func openFile(path string, flags int, direct bool) (*os.File, error) {
	if direct {
		return nil, fmt.Errorf("%w: O_DIRECT is a Linux flag; this OS has none", ErrDirect)
	}
	return os.OpenFile(path, flags, 0o644)
}

// fdatasync falls back to fsync. (On macOS neither forces the drive's own
// cache; F_FULLFSYNC would.)
func fdatasync(f *os.File) error { return f.Sync() }

func dropCache(*os.File) error {
	return errors.New("posix_fadvise is not available on this OS")
}

// flush writes back each file.
func flush(_ string, files []string) error {
	for _, name := range files {
		f, err := os.OpenFile(name, os.O_RDWR, 0)
		if err != nil {
			return err
		}
		err = f.Sync()
		f.Close()
		if err != nil {
			return err
		}
	}
	return nil
}
