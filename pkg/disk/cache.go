package disk

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// DropCache evicts a database's files from the OS page cache, so that the
// next reads come from the disk: every regular file under path when it
// is a directory (a files store, an LMDB environment), else the file with
// SQLite's companions beside it (-wal, -journal, -shm). Dirty pages are
// written back first (they cannot be dropped otherwise), which makes the
// data durable as a side effect. It needs posix_fadvise (Linux).
func DropCache(path string) error {
	if !canDropCache {
		return errors.New("posix_fadvise is not available on this OS")
	}
	files, err := storeFiles(path)
	if err != nil || len(files) == 0 {
		return err
	}
	if err := flush(path, files); err != nil {
		return fmt.Errorf("writing back %s: %w", path, err)
	}
	for _, name := range files {
		f, err := os.Open(name)
		if err != nil {
			return err
		}
		err = dropCache(f)
		f.Close()
		if err != nil {
			return fmt.Errorf("dropping %s from the page cache: %w", name, err)
		}
	}
	return nil
}

// Settle writes a database's dirty pages back to the disk (as DropCache
// does first), leaving them cached: the next pass finds its data on disk,
// blocks allocated, as an application finds data it wrote long before.
// On Linux one syncfs covers the file system; elsewhere each file is
// synced.
func Settle(path string) error {
	files, err := storeFiles(path)
	if err != nil || len(files) == 0 {
		return err
	}
	if err := flush(path, files); err != nil {
		return fmt.Errorf("writing back %s: %w", path, err)
	}
	return nil
}

// storeFiles lists a database's files: every regular file under path when
// it is a directory, else the file and SQLite's companions beside it.
func storeFiles(path string) ([]string, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	var files []string
	if fi.IsDir() {
		err = filepath.WalkDir(path, func(p string, d fs.DirEntry, err error) error {
			if err == nil && d.Type().IsRegular() {
				files = append(files, p)
			}
			return err
		})
		if err != nil {
			return nil, err
		}
	} else {
		files = append(files, path)
		for _, suffix := range []string{"-wal", "-journal", "-shm"} {
			if _, err := os.Stat(path + suffix); err == nil {
				files = append(files, path+suffix)
			}
		}
	}
	return files, nil
}
