package store

// FileSyncPrimitive is what Go's os.File.Sync asks of this OS: on macOS,
// fcntl F_FULLFSYNC, a flush of the drive's cache too.
const FileSyncPrimitive = "F_FULLFSYNC"
