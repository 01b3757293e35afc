//go:build !darwin

package store

// FileSyncPrimitive is what Go's os.File.Sync asks of this OS: fsync.
const FileSyncPrimitive = "fsync"
