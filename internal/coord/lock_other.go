//go:build !linux

package coord

import "os"

// lockFile does nothing here: without Linux's open-file-description locks,
// a lock beside SQLite's own would either conflict with them (flock, on
// BSD-derived systems) or vanish when SQLite closes a descriptor of the
// file (POSIX locks). Two runs on one database file are not detected.
func lockFile(*os.File) error { return nil }

// lockDir does nothing here either, for the same reasons.
func lockDir(*os.File, bool) error { return nil }
