//go:build !linux

package sqlite

// syncPrimitive is the call driver's SQLite makes to sync a file outside
// Linux: fsync (on macOS, F_FULLFSYNC only under PRAGMA fullfsync, which
// gobench leaves off).
func syncPrimitive(string) string { return "fsync" }
