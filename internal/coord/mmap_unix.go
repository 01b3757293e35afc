//go:build unix

package coord

import (
	"fmt"
	"os"
	"syscall"
)

// mapShared maps the first size bytes of the file at path, shared with
// every other process that maps it: writes by one are seen by all.
func mapShared(path string, size int) (mem []byte, unmap func(), err error) {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close() // the mapping outlives the descriptor
	if fi, err := f.Stat(); err != nil {
		return nil, nil, err
	} else if fi.Size() < int64(size) {
		return nil, nil, fmt.Errorf("%s holds %d bytes, not %d", path, fi.Size(), size)
	}
	mem, err = syscall.Mmap(int(f.Fd()), 0, size, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_SHARED)
	if err != nil {
		return nil, nil, fmt.Errorf("mmap %s: %w", path, err)
	}
	return mem, func() { _ = syscall.Munmap(mem) }, nil
}
