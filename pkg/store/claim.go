package store

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// DecodeOptions reads an engine's options from a Config's raw JSON into o
// (which holds the defaults), refusing unknown fields, and validates
// them. Errors are of class ErrInvalid and name the engine.
func DecodeOptions[T interface{ Validate() error }](raw json.RawMessage, o *T, engine string) error {
	if len(raw) > 0 {
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.DisallowUnknownFields()
		if err := dec.Decode(o); err != nil {
			return fmt.Errorf("%w: %s options: %w", ErrInvalid, engine, err)
		}
	}
	if err := (*o).Validate(); err != nil {
		return fmt.Errorf("%w: %w", ErrInvalid, err)
	}
	return nil
}

// PrecheckDir refuses, reading only, a dir an engine would not claim
// (see ClaimDir): a file (a SQLite or bbolt database, say), a non-empty
// directory without marker, or one whose marker names another engine's
// store (what is the marker's text, "a gobench pebble database"). A
// missing or empty directory is the engine's to make.
func PrecheckDir(dir, marker, what string) error {
	fi, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return fmt.Errorf("%w: %s: %v", ErrInvalid, dir, err)
	case !fi.IsDir():
		return fmt.Errorf("%w: %s is a file (a SQLite or bbolt database?), and %s keeps a directory; choose a new path", ErrForeign, dir, strings.TrimPrefix(what, "a gobench "))
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return fmt.Errorf("%w: %s: %v", ErrInvalid, dir, err)
	}
	if len(entries) == 0 {
		return nil
	}
	mark, err := os.ReadFile(filepath.Join(dir, marker))
	switch {
	case err != nil:
		return fmt.Errorf("%w: %s is a non-empty directory that gobench did not create; choose a new path", ErrForeign, dir)
	case strings.TrimSpace(string(mark)) != what:
		return fmt.Errorf("%w: %s holds %s, not %s; choose a new path", ErrForeign, dir, strings.TrimSpace(string(mark)), what)
	}
	return nil
}

// ClaimDir makes dir an engine's own: it creates the directory if it is
// missing, accepts it if it is empty or already holds marker with the
// text what, and refuses anything else with ErrForeign, changing nothing
// (PrecheckDir). It then writes the marker file. It returns the entries
// dir held before.
func ClaimDir(dir, marker, what string) ([]os.DirEntry, error) {
	if err := PrecheckDir(dir, marker, what); err != nil {
		return nil, err
	}
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		if err := os.Mkdir(dir, 0o755); err != nil {
			return nil, fmt.Errorf("creating %s: %w", dir, err)
		}
	} else if err != nil {
		return nil, fmt.Errorf("%w: %s: %v", ErrInvalid, dir, err)
	}
	if err := writeDurable(filepath.Join(dir, marker), []byte(what+"\n")); err != nil {
		return nil, err
	}
	return entries, nil
}

// writeDurable writes a file and syncs it and its directory: gobench's
// marker is gobench's, not the engine's, and a power cut in the store's
// setup (--crash-from open) must not take it, whatever the engine syncs.
func writeDurable(path string, data []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	return SyncDir(filepath.Dir(path))
}

// SyncDir fsyncs directory dir, so that the files created or removed
// in it stay so after a power cut.
func SyncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = d.Sync()
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	return err
}

// SQLiteSidecars are the files SQLite keeps beside a database, by suffix:
// its write-ahead log, its rollback journal and the WAL's shared-memory
// index.
var SQLiteSidecars = []string{"-wal", "-journal", "-shm"}

// CheckOrphans refuses (ErrForeign), reading only, a file beside the
// database path with one of SQLite's suffixes (SQLiteSidecars) when the
// database has nothing of its own: it does not exist yet, or (empty true)
// it is an empty file; beside an empty one, only a -wal or -journal that
// holds bytes counts. Such a file is another database's: SQLite deletes a
// -wal or -journal beside a database of no pages on the first open, with
// whatever it holds (a WAL keeps whole page images, committed rows
// included), and replays it into a database written in the path's place.
// The error names the file and says what to do; nothing is changed.
func CheckOrphans(path string, empty bool) error {
	for _, suffix := range SQLiteSidecars {
		fi, err := os.Lstat(path + suffix)
		if err != nil || (empty && (suffix == "-shm" || fi.Size() == 0)) {
			continue
		}
		state := "does not exist"
		if empty {
			state = "is empty"
		}
		return fmt.Errorf("%w: %s%s is there, and %s %s: the file is another database's (SQLite would delete it, and whatever it holds, or replay it into a new database there); move it away, or give another --db", ErrForeign, path, suffix, path, state)
	}
	return nil
}
