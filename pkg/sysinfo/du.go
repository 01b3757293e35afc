package sysinfo

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
)

// DiskUsage returns how much the database at path takes: its apparent
// size (the sum of file lengths) and the space allocated for it (blocks,
// as du counts them; the apparent size where the OS does not say). A
// directory (an LMDB environment, a files store) counts every file and
// directory under it, itself included (a directory of 20,000 entries
// takes blocks of its own), as du does; a file counts together with SQLite's companions beside it (-wal,
// -shm, -journal). A path that does not exist (an in-memory engine) is an
// error that wraps fs.ErrNotExist.
func DiskUsage(path string) (apparent, allocated int64, err error) {
	fi, err := os.Stat(path)
	if err != nil {
		return 0, 0, err
	}
	add := func(fi fs.FileInfo) {
		if fi.Mode().IsRegular() || fi.IsDir() {
			apparent += fi.Size()
			allocated += allocatedBytes(fi)
		}
	}
	if !fi.IsDir() {
		add(fi)
		for _, suffix := range []string{"-wal", "-shm", "-journal"} {
			if sfi, err := os.Stat(path + suffix); err == nil {
				add(sfi)
			}
		}
		return apparent, allocated, nil
	}
	err = filepath.WalkDir(path, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil // removed while we walked
			}
			return err
		}
		if d.Type().IsRegular() || d.IsDir() {
			fi, err := d.Info()
			if err == nil {
				add(fi)
			}
		}
		return nil
	})
	return apparent, allocated, err
}
